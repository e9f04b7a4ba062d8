package io.trimus.adapter.container;

import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.run.RunRejected;
import io.trimus.events.adapter.AdapterType;

/** The container adapters' first check: without a Docker engine their runs are refused before anything starts. */
public final class EngineRequirement {

    private EngineRequirement() {
    }

    /**
     * Refuses a container run when there is no engine.
     *
     * @throws RunRejected naming the switch and the way out (a remote worker on a Docker host)
     */
    public static void require(DockerEngineSwitch engine, AdapterType type) {
        engine.refusal(type).ifPresent(reason -> {
            throw new RunRejected(reason);
        });
    }
}
