package io.trimus.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The identity authority for a service under test that asks run-service who its callers are (egress-service): the
 * built run-service jar in a child JVM on the shared Kafka and PostgreSQL, with the {@link TestOperator} token, started
 * once per classloader and published as {@code trimus.run-service.url} (and {@link #URL_KEY} for tests).
 */
public class RunServiceResource implements QuarkusTestResourceLifecycleManager {
    /** Base URL of the child run-service, for tests that create companies and tokens there. */
    public static final String URL_KEY = "trimus-test.run-service-url";
    private static final Object LOCK = new Object();
    private static ServiceProcess runService;
    private static int users;

    private final TrimusInfraResource infra = new TrimusInfraResource();

    @Override
    public Map<String, String> start() {
        Map<String, String> infraConfig = infra.start();
        synchronized (LOCK) {
            if (runService == null) {
                runService = ServiceProcess.start(Path.of("..", "run-service"), childConfig(infraConfig));
            }
            users++;
            Map<String, String> config = new HashMap<>(infraConfig);
            config.put("trimus.run-service.url", runService.baseUri().toString());
            config.put(URL_KEY, runService.baseUri().toString());
            return config;
        }
    }

    @Override
    public void stop() {
        synchronized (LOCK) {
            if (runService != null && --users == 0) {
                runService.close();
                runService = null;
            }
        }
        infra.stop();
    }

    /** System properties of a run-service child on the test infrastructure. */
    public static Map<String, String> childConfig(Map<String, String> infraConfig) {
        Map<String, String> config = new HashMap<>();
        for (String key : new String[]{"kafka.bootstrap.servers", "quarkus.datasource.reactive.url",
                "quarkus.datasource.jdbc.url", "quarkus.flyway.username", "quarkus.flyway.password"}) {
            config.put(key, infraConfig.get(key));
        }
        config.put("trimus.encryption-key", TestOperator.ENCRYPTION_KEY);
        config.put("trimus.bootstrap.operator-token", TestOperator.TOKEN);
        return config;
    }
}
