package io.trimus.adapter.adapter.docker;

import io.trimus.adapter.adapter.RunRejected;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.adapter.AdapterType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Whether this adapter service has a Docker engine (TRIMUS_DOCKER_ENABLED). Without one (e.g. on Kubernetes) the
 * container adapters refuse their runs with a sentence saying where such runs can go, the egress network is not
 * ensured and readiness does not wait for an engine; lambda and remote runs are unaffected.
 */
@ApplicationScoped
public class DockerEngineSwitch {

    private final boolean enabled;

    @Inject
    public DockerEngineSwitch(TrimusConfig config) {
        this(config.docker().enabled());
    }

    public DockerEngineSwitch(boolean enabled) {
        this.enabled = enabled;
    }

    /** Whether container runs may start here. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Refuses a container run when there is no engine.
     *
     * @throws RunRejected naming the switch and the way out (a remote worker on a Docker host)
     */
    public void requireEngine(AdapterType type) {
        if (!enabled) {
            throw new RunRejected(type.wireName() + " runs need a Docker engine, and this adapter service has none"
                    + " (TRIMUS_DOCKER_ENABLED=false): run this agent through the remote adapter on a worker on a"
                    + " Docker host");
        }
    }
}
