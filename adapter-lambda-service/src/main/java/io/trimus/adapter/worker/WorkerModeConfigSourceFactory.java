package io.trimus.adapter.worker;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.List;
import java.util.Map;

/**
 * Worker mode turns the run-request channel off: a worker (TRIMUS_WORKER_TAGS set) executes only the remote tasks it
 * claims and must never take a share of trimus.run.requested, which would run the dispatcher's ordinary runs on the
 * worker's host, nor of trimus.egress.canary.requests. Decided once at boot from the same setting, so an operator
 * sets one variable, not two.
 */
public class WorkerModeConfigSourceFactory implements ConfigSourceFactory {

    /** Above application.properties (250), below system properties (400) and the environment (300). */
    static final int ORDINAL = 275;
    static final String RUN_REQUESTED_ENABLED = "mp.messaging.incoming.\"trimus.run.requested\".enabled";
    /** A worker probes no egress canary either: canaries are the dispatching services' (their egress network). */
    static final String CANARY_REQUESTS_ENABLED = "mp.messaging.incoming.\"trimus.egress.canary.requests\".enabled";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue tags = context.getValue("trimus.worker.tags");
        boolean worker = tags != null && tags.getValue() != null && !tags.getValue().isBlank();
        if (!worker) {
            return List.of();
        }
        return List.of(new PropertiesConfigSource(Map.of(RUN_REQUESTED_ENABLED, "false",
                CANARY_REQUESTS_ENABLED, "false"), "trimus-worker-mode",
                ORDINAL));
    }
}
