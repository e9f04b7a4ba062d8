package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.events.RunRequested;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code adapter_config} of a {@code remote} agent: the run is executed by a worker (the adapter service started
 * with TRIMUS_WORKER_TAGS) that carries {@code worker_tag}, with the adapter named here, configured as here. The inner
 * adapter is checked against its own contract; whether it may run on the worker (claude_local / codex_local behind
 * TRIMUS_LOCAL_ADAPTERS) is the worker's decision, since only it knows its own gates.
 *
 * @param workerTag     the tag a worker must carry to claim the run, e.g. {@code gpu} or {@code eu-build}
 * @param adapterType   the adapter the worker runs it with; never {@code remote}
 * @param adapterConfig that adapter's adapter_config, validated against its contract
 */
public record RemoteAdapterConfig(String workerTag, AdapterType adapterType, JsonNode adapterConfig)
        implements AdapterConfig {

    /** Letters, digits, {@code .}, {@code _} and {@code -}, at most 64: it is part of a Kafka consumer group name. */
    public static final Pattern TAG = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Set<String> FIELDS = Set.of("worker_tag", "adapter_type", "adapter_config");
    private static final String PREFIX = ConfigFields.PREFIX;

    /** Those of the adapter the worker runs: they travel sealed in the task, and the worker opens them. */
    @Override
    public List<SecretNeed> secretNeeds() {
        return AdapterConfigs.parse(adapterType, adapterConfig).secretNeeds();
    }

    /** The {@code secret_env} of the adapter the worker runs. */
    @Override
    public Map<String, String> secretEnv() {
        return AdapterConfigs.parse(adapterType, adapterConfig).secretEnv();
    }

    /**
     * The run as a worker receives it: the outer request with this inner adapter type and config (what run-service's
     * issuer MAC covers, and what the dispatcher publishes); secrets and issuer MAC unchanged.
     */
    public RunRequested inner(RunRequested outer) {
        return new RunRequested(outer.id(), outer.runId(), outer.companyId(), outer.agentId(), adapterType.wireName(),
                adapterConfig, outer.issue(), outer.input(), outer.requestedAt(), outer.secrets(), outer.issuerMac());
    }

    /**
     * Reads and validates a remote adapter_config, the inner adapter's config included.
     *
     * @throws AdapterConfigException naming the first field that breaks the contract; a field of the inner config is
     *                                named under {@code adapter_config.adapter_config.}
     */
    public static RemoteAdapterConfig parse(JsonNode config) {
        ConfigFields.requireObjectOf(config, FIELDS, "remote");
        JsonNode tag = config.get("worker_tag");
        if (ConfigFields.absent(tag)) {
            throw new AdapterConfigException(PREFIX + "worker_tag", "is required: the tag of the workers that may run it");
        }
        if (!tag.isTextual() || !TAG.matcher(tag.asText()).matches()) {
            throw new AdapterConfigException(PREFIX + "worker_tag", "must be 1 to 64 letters, digits, '.', '_' or '-',"
                    + " starting with a letter or digit");
        }
        JsonNode type = config.get("adapter_type");
        if (ConfigFields.absent(type) || !type.isTextual()) {
            throw new AdapterConfigException(PREFIX + "adapter_type", "is required: the adapter the worker runs it with"
                    + " (docker, claude_sandbox, codex_sandbox, claude_local, codex_local or lambda)");
        }
        if (AdapterType.fromWire(type.asText()).filter(t -> t == AdapterType.REMOTE).isPresent()) {
            throw new AdapterConfigException(PREFIX + "adapter_type", "cannot be remote: a worker runs the run itself");
        }
        JsonNode inner = config.get("adapter_config");
        if (ConfigFields.absent(inner)) {
            throw new AdapterConfigException(PREFIX + "adapter_config", "is required: the adapter_config of "
                    + type.asText());
        }
        AdapterType innerType;
        try {
            innerType = AdapterConfigs.validate(type.asText(), inner);
        } catch (AdapterConfigException e) {
            throw new AdapterConfigException(PREFIX + e.field(), e.getMessage());
        }
        return new RemoteAdapterConfig(tag.asText(), innerType, inner);
    }
}
