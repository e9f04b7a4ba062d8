package io.trimus.adapter.engine;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.adapter.AdapterType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;

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
        this.enabled = config.docker().enabled();
    }

    /** Whether container runs may start here. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Why a container run cannot start here: it names the switch and the way out (a remote worker on a Docker host).
     *
     * @return empty when there is an engine
     */
    public Optional<String> refusal(AdapterType type) {
        if (enabled) {
            return Optional.empty();
        }
        return Optional.of(type.wireName() + " runs need a Docker engine, and this adapter service has none"
                + " (TRIMUS_DOCKER_ENABLED=false): run this agent through the remote adapter on a worker on a"
                + " Docker host");
    }
}
