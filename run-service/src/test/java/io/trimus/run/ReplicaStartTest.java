package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * Replicas of a service start at the same moment (a Kubernetes rollout, a compose scale-up, a restart after an
 * outage) and each runs Flyway's migrate on the same schema. Flyway's own lock covers the migrations but not the
 * tenancy callbacks (the app role, the row guard function, the grants), whose statements on the same catalogue rows
 * at once fail with "tuple concurrently updated" and stop the replica. Here four migrations of run-service's schema
 * start together, several times over; every one must succeed.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class ReplicaStartTest {
    private static final int REPLICAS = 4;
    private static final int ROUNDS = 6;

    @Test
    void replicasMigratingTogetherAllStart() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(REPLICAS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                CyclicBarrier together = new CyclicBarrier(REPLICAS);
                List<Future<?>> replicas = new ArrayList<>();
                for (int i = 0; i < REPLICAS; i++) {
                    Flyway flyway = flyway();
                    replicas.add(pool.submit(() -> {
                        together.await(30, TimeUnit.SECONDS);
                        return flyway.migrate();
                    }));
                }
                for (Future<?> replica : replicas) {
                    assertThatCode(() -> replica.get(60, TimeUnit.SECONDS)).doesNotThrowAnyException();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The migration run-service does at start, as its own configuration describes it. */
    private static Flyway flyway() {
        Config config = ConfigProvider.getConfig();
        return Flyway.configure(ReplicaStartTest.class.getClassLoader())
                .dataSource(config.getValue("quarkus.datasource.jdbc.url", String.class),
                        config.getValue("quarkus.flyway.username", String.class),
                        config.getValue("quarkus.flyway.password", String.class))
                .schemas(config.getValue("quarkus.flyway.schemas", String.class))
                .defaultSchema(config.getValue("quarkus.flyway.default-schema", String.class))
                .locations(config.getValue("quarkus.flyway.locations", String.class).split(","))
                .placeholders(Map.of(
                        "app_role", config.getValue("quarkus.flyway.placeholders.app_role", String.class),
                        "app_password", config.getValue("quarkus.flyway.placeholders.app_password", String.class)))
                .load();
    }
}
