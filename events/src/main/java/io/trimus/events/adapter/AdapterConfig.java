package io.trimus.events.adapter;

import java.util.List;

/** A validated {@code adapter_config} of one adapter type: what every adapter's configuration can say about itself. */
public sealed interface AdapterConfig
        permits CliAdapterConfig, DockerAdapterConfig, LambdaAdapterConfig, RemoteAdapterConfig {

    /** The company secrets a run of this agent takes along, in the order the configuration names them. */
    List<SecretNeed> secretNeeds();
}
