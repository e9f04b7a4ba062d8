package io.trimus.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A built Quarkus service ({@code <module>/target/quarkus-app/quarkus-run.jar}) in a child JVM, for tests that need
 * another service really running. Ready when {@code GET /q/health/ready} answers 200, so the service needs
 * quarkus-smallrye-health.
 */
public final class ServiceProcess implements AutoCloseable {
    /** JVM options unless the caller gives its own: small heap and fast startup, three JVMs share 2 cores. */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /** Quarkus's start line, "... Listening on: http://127.0.0.1:PORT": the port it bound. */
    private static final Pattern LISTENING = Pattern.compile("Listening on: http://[^\\s:/]+:(\\d+)");
    private static final AtomicInteger STARTED = new AtomicInteger();

    private final String module;
    private final int port;
    private final ChildProcess process;
    private final Thread killOnExit;

    private ServiceProcess(String module, int port, ChildProcess process) {
        this.module = module;
        this.port = port;
        this.process = process;
        // unlike the infra children this JVM does not watch its stdin: do not let it outlive the tests
        this.killOnExit = new Thread(() -> process.terminate(STOP_GRACE), "trimus-" + module + "-kill");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Starts the service with {@link #DEFAULT_JVM_OPTIONS}; see {@link #start(Path, Map, List)}. */
    public static ServiceProcess start(Path moduleDir, Map<String, String> systemProperties) {
        return start(moduleDir, systemProperties, DEFAULT_JVM_OPTIONS);
    }

    /**
     * Starts {@code moduleDir/target/quarkus-app/quarkus-run.jar} on 127.0.0.1 with the given system properties
     * (datasource URLs, kafka.bootstrap.servers, ...), its output in {@code target/<module>-<pid>-<n>.log} of the
     * calling module, and waits up to 90 s for readiness. The service binds {@code quarkus.http.port=0}: the system
     * gives it a free port at the bind itself, and {@link #port()} is the one its "Listening on" line announces (no
     * port is chosen here and bound later, so none can be taken in between).
     */
    public static ServiceProcess start(Path moduleDir, Map<String, String> systemProperties,
                                       List<String> jvmOptions) {
        Path dir = moduleDir.toAbsolutePath().normalize();
        String module = dir.getFileName().toString();
        Path jar = dir.resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist: build " + module + " first: ./mvnw -pl " + module
                    + " package");
        }
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("quarkus.http.host", "127.0.0.1");
        properties.putAll(systemProperties);
        properties.put("quarkus.http.port", "0");

        List<String> command = new ArrayList<>();
        command.add(ChildJvm.javaExecutable());
        command.addAll(jvmOptions);
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(jar.toString());

        Path log = Path.of(System.getProperty("user.dir"), "target",
                module + "-" + ProcessHandle.current().pid() + "-" + STARTED.incrementAndGet() + ".log");
        ChildProcess child = ChildProcess.start(module, command, Map.of(), log, LISTENING);
        int port;
        try {
            port = Integer.parseInt(child.awaitReady(READY_TIMEOUT));
        } catch (RuntimeException e) {
            child.terminate(STOP_GRACE);
            throw e;
        }
        ServiceProcess service = new ServiceProcess(module, port, child);
        try {
            service.awaitReady();
            return service;
        } catch (RuntimeException e) {
            service.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public Path logFile() {
        return process.logFile();
    }

    /** The last lines the service printed. */
    public String logTail() {
        return process.tail();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Whether {@code GET /q/health/ready} answers 200 now. */
    public boolean isReady() {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()
                    .send(HttpRequest.newBuilder(baseUri().resolve("/q/health/ready")).timeout(Duration.ofSeconds(2))
                            .GET().build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The service's threads now, as {@code jstack} prints them (empty when it cannot be taken). */
    public String threadDump() {
        Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
        try {
            Process dump = new ProcessBuilder(jstack.toString(), String.valueOf(process.pid()))
                    .redirectErrorStream(true).start();
            String text = new String(dump.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            dump.waitFor(20, java.util.concurrent.TimeUnit.SECONDS);
            return text;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** KILL at once, as a crash or a pulled plug would: no shutdown hook of the service runs. */
    public void kill() {
        process.kill();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException ignored) {
            // the JVM is already shutting down
        }
    }

    /**
     * TERM, as an orchestrator stops a service, and the exit code if it ended within {@code timeout}; when it did not,
     * it is killed and the result is empty (its log then tells what held it up).
     */
    public OptionalInt terminateWithin(Duration timeout) {
        OptionalInt code = process.terminateWithin(timeout);
        if (code.isEmpty()) {
            dumpThreads();
            kill();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException ignored) {
            // the JVM is already shutting down
        }
        return code;
    }

    /** TERM, then KILL after 10 s. */
    @Override
    public void close() {
        process.terminate(STOP_GRACE);
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException ignored) {
            // the JVM is already shutting down
        }
    }

    /** What held a stop up: the threads of the live process, next to its log as {@code <log>.threads}. */
    private void dumpThreads() {
        try {
            Files.writeString(Path.of(logFile() + ".threads"), threadDump());
        } catch (IOException e) {
            // the log alone must do
        }
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest ready = HttpRequest.newBuilder(baseUri().resolve("/q/health/ready"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        String lastAnswer = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(module + " exited before it was ready" + process.exitCodeText()
                        + process.describeLog());
            }
            try {
                HttpResponse<String> response = http.send(ready, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                lastAnswer = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                lastAnswer = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + module, e);
            }
            pause();
        }
        throw new IllegalStateException(module + " not ready on " + baseUri() + "/q/health/ready within "
                + READY_TIMEOUT.toSeconds() + " s (last: " + lastAnswer + ")" + process.describeLog());
    }

    private static void pause() {
        try {
            Thread.sleep(250);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
