package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;

/** Validates an agent's adapter_type and adapter_config together: the write-time gate for every adapter. */
public final class AdapterConfigs {
    /**
     * The largest adapter_config, as compact JSON. Each field has its own bound too; this one keeps a config of many
     * large-but-valid fields from reaching the broker's record limit only when a run is started.
     */
    public static final int MAX_CONFIG_BYTES = 64 * 1024;

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
        if (config != null && config.toString().getBytes(StandardCharsets.UTF_8).length > MAX_CONFIG_BYTES) {
            throw new AdapterConfigException("adapter_config", "must be at most " + MAX_CONFIG_BYTES
                    + " bytes of JSON");
        }
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
