package io.trimus.adapter.worker;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A worker takes no share of the dispatchers' Kafka intake: neither run requests nor egress canary requests. */
class WorkerModeChannelsTest {

    private static SmallRyeConfig config(Map<String, String> settings) {
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(settings, "test", 300))
                .withSources(new WorkerModeConfigSourceFactory())
                .build();
    }

    @Test
    void aWorkerConsumesNeitherRunRequestsNorCanaryRequests() {
        SmallRyeConfig worker = config(Map.of("trimus.worker.tags", "gpu"));

        assertThat(worker.getOptionalValue(WorkerModeConfigSourceFactory.RUN_REQUESTED_ENABLED, String.class))
                .contains("false");
        assertThat(worker.getOptionalValue(WorkerModeConfigSourceFactory.CANARY_REQUESTS_ENABLED, String.class))
                .contains("false");
    }

    @Test
    void theDispatchingServiceKeepsBoth() {
        SmallRyeConfig dispatcher = config(Map.of("trimus.worker.tags", " "));

        assertThat(dispatcher.getOptionalValue(WorkerModeConfigSourceFactory.RUN_REQUESTED_ENABLED, String.class))
                .isEmpty();
        assertThat(dispatcher.getOptionalValue(WorkerModeConfigSourceFactory.CANARY_REQUESTS_ENABLED, String.class))
                .isEmpty();
    }
}
