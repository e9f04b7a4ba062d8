package io.trimus.events.adapter;

import java.util.List;
import java.util.Map;

/** A validated {@code adapter_config} of one adapter type: what every adapter's configuration can say about itself. */
public sealed interface AdapterConfig
        permits CliAdapterConfig, DockerAdapterConfig, LambdaAdapterConfig, RemoteAdapterConfig {

    /** The company secrets a run of this agent takes along, in the order the configuration names them. */
    List<SecretNeed> secretNeeds();

    /** The agent's {@code secret_env}: variable → company secret ({@link SecretEnv}); empty for adapters without one. */
    default Map<String, String> secretEnv() {
        return Map.of();
    }
}
