package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.events.RunRequested;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code adapter_config} of a {@code remote} agent, in one of two forms. With {@code worker_tag}: the run is
 * executed by a worker (the adapter service started with TRIMUS_WORKER_TAGS) that carries the tag, with the adapter
 * named here, configured as here; the inner adapter is checked against its own contract, and whether it may run on the
 * worker (claude_local / codex_local behind TRIMUS_LOCAL_ADAPTERS) is the worker's decision. With {@code a2a}: the run
 * is delegated to an A2A peer ({@link A2aPeerConfig}), which owns its execution.
 *
 * @param workerTag     the tag a worker must carry to claim the run, e.g. {@code gpu} or {@code eu-build}; null for a2a
 * @param adapterType   the adapter the worker runs it with; never {@code remote}; null for a2a
 * @param adapterConfig that adapter's adapter_config, validated against its contract; null for a2a
 * @param a2a           the A2A peer the run is delegated to; null for a worker tag
 */
public record RemoteAdapterConfig(String workerTag, AdapterType adapterType, JsonNode adapterConfig, A2aPeerConfig a2a)
        implements AdapterConfig {

    /** Letters, digits, {@code .}, {@code _} and {@code -}, at most 64: it is part of a Kafka consumer group name. */
    public static final Pattern TAG = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Set<String> FIELDS = Set.of("worker_tag", "adapter_type", "adapter_config", "a2a");
    private static final String PREFIX = ConfigFields.PREFIX;

    /**
     * Those of the adapter the worker runs: they travel sealed in the task, and the worker opens them; for a peer, the
     * value of its auth header.
     */
    @Override
    public List<SecretNeed> secretNeeds() {
        return a2a != null ? a2a.secretNeeds() : AdapterConfigs.parse(adapterType, adapterConfig).secretNeeds();
    }

    /** The {@code secret_env} of the adapter the worker runs; none for a peer. */
    @Override
    public Map<String, String> secretEnv() {
        return a2a != null ? Map.of() : AdapterConfigs.parse(adapterType, adapterConfig).secretEnv();
    }

    /** Whether the run is delegated to an A2A peer rather than a tagged worker. */
    public boolean toPeer() {
        return a2a != null;
    }

    /**
     * The run as a worker receives it: the outer request with this inner adapter type and config (what run-service's
     * issuer MAC covers, and what the dispatcher publishes); secrets and issuer MAC unchanged.
     */
    public RunRequested inner(RunRequested outer) {
        if (a2a != null) {
            throw new IllegalStateException("a run delegated to an A2A peer has no inner adapter");
        }
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
        JsonNode peer = config.get("a2a");
        if (!ConfigFields.absent(peer)) {
            for (String workerField : List.of("worker_tag", "adapter_type", "adapter_config")) {
                if (!ConfigFields.absent(config.get(workerField))) {
                    throw new AdapterConfigException(PREFIX + workerField, "cannot be given with a2a: a remote agent"
                            + " names either a worker tag (with adapter_type and adapter_config) or an A2A peer");
                }
            }
            return new RemoteAdapterConfig(null, null, null, A2aPeerConfig.parse(peer));
        }
        if (ConfigFields.absent(tag)) {
            throw new AdapterConfigException(PREFIX + "worker_tag", "or a2a is required: the tag of the workers that"
                    + " may run it, or the A2A peer to delegate it to");
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
        return new RemoteAdapterConfig(tag.asText(), innerType, inner, null);
    }
}
