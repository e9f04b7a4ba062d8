package io.trimus.adapter.e2e;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.Keys;
import io.trimus.testing.Containers;
import io.trimus.testing.DockerClients;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * A remote run through the public API: run-service (its own jar) issues it for a company granted the tag, this app
 * dispatches it, and a worker (this service's jar in worker mode, holding only the dispatch key) checks run-service's
 * MAC and runs it. A company not granted the tag gets a 400 and nothing reaches a worker.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RemoteEndToEndTest {
    private static final Duration WITHIN = Duration.ofSeconds(90);
    private static final String TAG = "e2e-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String INSTANCE = "remote-e2e-worker-" + TAG;
    private static RunServiceApi api;
    private static ServiceProcess worker;
    private static String image;

    @BeforeAll
    static void start() {
        image = TestImages.busybox();
        Map<String, String> props = Map.of(
                "kafka.bootstrap.servers", ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class),
                "trimus.worker.tags", TAG,
                "trimus.worker.id", INSTANCE,
                "trimus.worker.heartbeat-interval", "1s",
                "trimus.docker.instance", INSTANCE,
                "trimus.dispatch-key", Keys.dispatchKey().toHex());
        // the worker boots while run-service does (when this class is the first to need it)
        CompletableFuture<ServiceProcess> starting =
                CompletableFuture.supplyAsync(() -> ServiceProcess.start(Path.of(""), props));
        try {
            api = RunServiceApi.shared();
        } finally {
            worker = starting.join();
        }
    }

    @AfterAll
    static void stop() {
        if (worker != null) {
            worker.close();
        }
        Containers.removeByLabel(DockerClients.local(), "trimus.adapter_instance", INSTANCE);
    }

    private static Map<String, Object> remoteAgent(String script) {
        return Map.of("name", "remote e2e", "adapter_type", "remote", "adapter_config", Map.of("worker_tag", TAG,
                "adapter_type", "docker", "adapter_config", Map.of("image", image,
                        "command", List.of("/bin/sh", "-c", script), "timeout_sec", 60)));
    }

    @Test
    void aRemoteRunOfAGrantedCompanyIsExecutedByTheWorkerOfItsTag() {
        String company = api.createCompany("Remote E2E " + UUID.randomUUID());
        api.grantWorkerTag(company, TAG);
        String agent = api.postAgent(company, remoteAgent("echo remote hello $TRIMUS_RUN_ID"))
                .statusCode(201).extract().path("id");

        String run = api.startRun(company, agent, Map.of("input", "go"));

        api.awaitStatus(company, run, "SUCCEEDED", WITHIN)
                .body("exit_code", equalTo(0))
                .body("output", containsString("remote hello " + run));
    }

    @Test
    void aCompanyNotGrantedTheTagCannotUseItsWorkers() {
        String company = api.createCompany("Remote E2E ungranted " + UUID.randomUUID());
        api.postAgent(company, remoteAgent("echo never")).statusCode(400)
                .body("field", equalTo("adapter_config.worker_tag"));

        api.grantWorkerTag(company, TAG);
        String agent = api.postAgent(company, remoteAgent("echo never")).statusCode(201).extract().path("id");
        api.revokeWorkerTag(company, TAG).statusCode(204);

        api.postRun(company, agent, Map.of("input", "go")).statusCode(400)
                .body("field", equalTo("adapter_config.worker_tag"));
    }
}
