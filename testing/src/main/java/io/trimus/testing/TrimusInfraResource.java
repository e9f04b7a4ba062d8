package io.trimus.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Real Kafka and PostgreSQL for {@code @QuarkusTest}s:
 * {@code @WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)}. Started once per
 * classloader however many tests name it; publishes the addresses and an {@link InfraControl} port.
 */
public class TrimusInfraResource implements QuarkusTestResourceLifecycleManager {
    private static final Object LOCK = new Object();
    private static Infra infra;
    private static InfraControlServer control;
    private static int users;

    @Override
    public Map<String, String> start() {
        synchronized (LOCK) {
            if (infra == null) {
                infra = Infra.startForTests();
                control = InfraControlServer.start(infra);
            }
            users++;
            return config(infra, control.address());
        }
    }

    @Override
    public void stop() {
        synchronized (LOCK) {
            if (infra == null || --users > 0) {
                return;
            }
            control.close();
            infra.close();
            control = null;
            infra = null;
        }
    }

    static Map<String, String> config(Infra infra, String controlAddress) {
        return Map.of(
                "kafka.bootstrap.servers", infra.bootstrapServers(),
                "quarkus.datasource.reactive.url", infra.reactiveUrl(),
                "quarkus.datasource.jdbc.url", infra.jdbcUrl(),
                // Flyway migrates as the superuser; each service logs in as its own role (its default TRIMUS_DB_USER,
                // created by the migration), bound by row-level security. zonky trusts local connections: any
                // password works.
                "quarkus.flyway.username", "postgres",
                "quarkus.flyway.password", "postgres",
                "quarkus.devservices.enabled", "false",
                InfraControl.CONFIG_KEY, controlAddress);
    }
}
