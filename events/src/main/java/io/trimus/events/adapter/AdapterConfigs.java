package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;

/** Validates an agent's adapter_type and adapter_config together: the write-time gate for every adapter. */
public final class AdapterConfigs {
    private AdapterConfigs() {
    }

    /**
     * Checks that {@code adapterType} is known and available and {@code config} satisfies its contract.
     *
     * @return the adapter type
     * @throws AdapterConfigException naming the wrong field
     */
    public static AdapterType validate(String adapterType, JsonNode config) {
        if (adapterType == null || adapterType.isBlank()) {
            throw new AdapterConfigException("adapter_type", "is required");
        }
        AdapterType type = AdapterType.fromWire(adapterType).orElseThrow(() -> new AdapterConfigException(
                "adapter_type", "unknown adapter type '" + ConfigFields.key(adapterType) + "' (known: docker, claude_sandbox, "
                        + "codex_sandbox, claude_local, codex_local, lambda, remote)"));
        parse(type, config);
        return type;
    }

    /**
     * Reads and validates {@code config} as the adapter_config of {@code type}.
     *
     * @throws AdapterConfigException naming the wrong field
     */
    public static AdapterConfig parse(AdapterType type, JsonNode config) {
        return switch (type) {
            case DOCKER -> DockerAdapterConfig.parse(config);
            case CLAUDE_SANDBOX, CODEX_SANDBOX, CLAUDE_LOCAL, CODEX_LOCAL -> CliAdapterConfig.parse(type, config);
            case LAMBDA -> LambdaAdapterConfig.parse(config);
            case REMOTE -> RemoteAdapterConfig.parse(config);
        };
    }
}
