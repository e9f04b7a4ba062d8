package io.trimus.system.stop;

import io.trimus.events.secrets.EncryptionKey;
import io.trimus.testing.Infra;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TcpRelay;
import io.trimus.testing.TestOperator;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The four services and a worker as their built jars, on a private broker and database the test may stop. Loopback
 * only, every listener on port 0 (a service's own, announced; egress-service's resolver and proxies, unused here);
 * run-service and egress-service are reached through {@link TcpRelay} relays bound before they start, so all start
 * at once. The adapter and the worker share an egress network of this test's own.
 */
final class StopStack {
    static final String NETWORK = "trimus-stop-test-egress";
    private static final String ENCRYPTION_KEY = TestOperator.ENCRYPTION_KEY;
    /** The relays of the last start; closed by the next (the last ones end with the test JVM). */
    private static final List<TcpRelay> RELAYS = new java.util.ArrayList<>();

    private StopStack() {
    }

    /** Starts the named processes at once ("run-service", "adapter", "egress-service", "admin-ui", "worker"). */
    static Map<String, ServiceProcess> start(Infra infra, List<String> names) {
        for (TcpRelay relay : RELAYS) {
            relay.close();
        }
        RELAYS.clear();
        TcpRelay runRelay = new TcpRelay("stop-test-run-service");
        TcpRelay egressRelay = new TcpRelay("stop-test-egress-service");
        RELAYS.add(runRelay);
        RELAYS.add(egressRelay);
        Map<String, CompletableFuture<ServiceProcess>> starting = new LinkedHashMap<>();
        for (String name : names) {
            starting.put(name, CompletableFuture.supplyAsync(() -> start(name, infra, runRelay.url(),
                    egressRelay.url())));
        }
        Map<String, ServiceProcess> started = new LinkedHashMap<>();
        RuntimeException failure = null;
        for (var entry : starting.entrySet()) {
            try {
                started.put(entry.getKey(), entry.getValue().join());
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            started.values().forEach(ServiceProcess::kill);
            throw failure;
        }
        if (started.containsKey("run-service")) {
            runRelay.target(started.get("run-service").port());
        }
        if (started.containsKey("egress-service")) {
            egressRelay.target(started.get("egress-service").port());
        }
        return started;
    }

    private static ServiceProcess start(String name, Infra infra, String runService, String egressService) {
        Map<String, String> config = new HashMap<>();
        config.put("kafka.bootstrap.servers", infra.bootstrapServers());
        return switch (name) {
            case "run-service" -> {
                database(config, infra);
                config.put("trimus.encryption-key", ENCRYPTION_KEY);
                yield ServiceProcess.start(module("run-service"), config);
            }
            case "adapter" -> {
                egressNetwork(config);
                config.put("trimus.encryption-key", ENCRYPTION_KEY);
                config.put("trimus.docker.instance", "stop-test-adapter");
                yield ServiceProcess.start(module("adapter-lambda-service"), config);
            }
            case "egress-service" -> {
                database(config, infra);
                config.put("trimus.encryption-key", ENCRYPTION_KEY);
                config.put("trimus.run-service.url", runService);
                // every listener of its own on any free port (0); nobody here sends it a lookup or a request
                config.put("trimus.egress.dns.addr", "127.0.0.1:0");
                config.put("trimus.egress.dns.upstream", "127.0.0.1:1");   // nothing listens there
                config.put("trimus.egress.proxy.port", "0");
                config.put("trimus.egress.proxy.transparent-https-port", "0");
                config.put("trimus.egress.proxy.transparent-http-port", "0");
                yield ServiceProcess.start(module("egress-service"), config);
            }
            case "admin-ui" -> {
                config.put("trimus.run-service-url", runService);
                config.put("trimus.egress-service-url", egressService);
                yield ServiceProcess.start(module("admin-ui"), config);
            }
            case "worker" -> {
                egressNetwork(config);
                config.put("trimus.worker.tags", "stop-test");
                config.put("trimus.worker.id", "stop-test-worker");
                config.put("trimus.worker.heartbeat-interval", "1s");   // beats soon after the broker is gone
                config.put("trimus.docker.instance", "stop-test-worker");
                config.put("trimus.dispatch-key", EncryptionKey.parse(ENCRYPTION_KEY).dispatchKey().toHex());
                yield ServiceProcess.start(module("adapter-lambda-service"), config);
            }
            default -> throw new IllegalArgumentException("no such process: " + name);
        };
    }

    private static void database(Map<String, String> config, Infra infra) {
        config.put("quarkus.datasource.reactive.url", infra.reactiveUrl());
        config.put("quarkus.datasource.jdbc.url", infra.jdbcUrl());
        config.put("quarkus.flyway.username", "postgres");
        config.put("quarkus.flyway.password", "postgres");
    }

    private static void egressNetwork(Map<String, String> config) {
        config.put("trimus.egress.network.name", NETWORK);
        config.put("trimus.egress.network.subnet", "10.199.98.0/24");
        config.put("trimus.egress.network.gateway", "10.199.98.1");
        config.put("trimus.egress.network.bridge-name", "trimus-stoptst0");
    }

    private static Path module(String name) {
        return Path.of("..", name);
    }
}
