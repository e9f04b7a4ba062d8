package io.trimus.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Launching a fast-jar: a stand-in jar whose main is {@link FakeQuarkusApp} plays the built service. */
class ServiceProcessTest {
    @TempDir
    Path modules;

    @Test
    void aStartedServiceIsReadyWithItsPropertiesAndGoneAfterClose() throws Exception {
        Path module = fakeModule("fake-service");
        ServiceProcess service = ServiceProcess.start(module, Map.of("fake.greeting", "hello from a property"));
        int port = service.port();
        try {
            assertThat(port).isPositive();
            assertThat(get(service.baseUri().resolve("/q/health/ready")).statusCode()).isEqualTo(200);
            assertThat(get(service.baseUri().resolve("/greeting")).body()).isEqualTo("hello from a property");
            assertThat(service.logFile()).exists().content().contains("fake service listening");
        } finally {
            service.close();
        }
        assertThat(service.isAlive()).isFalse();
        assertThatCode(() -> Ports.requireFree(port, "fake service", "-")).doesNotThrowAnyException();
    }

    @Test
    void aServiceThatDiesWhileStartingFailsWithItsLogTail() throws Exception {
        Path module = fakeModule("dying-service");

        assertThatThrownBy(() -> ServiceProcess.start(module, Map.of("fake.fail", "datasource is down")))
                .hasMessageContaining("dying-service exited before it was ready with code 3")
                .hasMessageContaining("datasource is down");
    }

    @Test
    void aMissingJarSaysHowToBuildIt() {
        Path module = modules.resolve("run-service");

        assertThatThrownBy(() -> ServiceProcess.start(module, Map.of()))
                .hasMessageContaining("build run-service first: ./mvnw -pl run-service package");
    }

    /** module/target/quarkus-app/quarkus-run.jar running FakeQuarkusApp from this module's test classes. */
    private Path fakeModule(String name) throws IOException {
        Path module = modules.resolve(name);
        Path jar = module.resolve("target/quarkus-app/quarkus-run.jar");
        Files.createDirectories(jar.getParent());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeQuarkusApp.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH,
                FakeQuarkusApp.class.getProtectionDomain().getCodeSource().getLocation().toString());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            // the manifest is the whole jar
        }
        return module;
    }

    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }
}
