package io.trimus.egress.anomaly;

import io.quarkus.scheduler.Scheduler;
import io.quarkus.scheduler.Trigger;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** In the running service the Quarkus scheduler closes the anomaly windows, every second by default. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AnomalyWindowJobTest {
    @Inject
    Scheduler scheduler;

    @Inject
    RateLimitedAnomalyRecorder recorder;

    @Test
    void theWindowJobRunsAFewTimesPerWindow() {
        assertThat(recorder.tick()).isEqualTo(Duration.ofSeconds(1)); // the default 10 s window, capped at 1 s

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Trigger job = scheduler.getScheduledJob("trimus-anomaly-windows");
            assertThat(job).isNotNull();
            assertThat(job.getPreviousFireTime()).isNotNull();
        });
    }
}
