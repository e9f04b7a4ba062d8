package io.trimus.adapter.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AdapterConfigException;
import io.trimus.events.adapter.RemoteAdapterConfig;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Run requests as run-service would publish them, for tests. */
public final class Runs {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Runs() {
    }

    /** A request for a docker agent of {@code companyId} with this adapter_config. */
    public static RunRequested docker(UUID companyId, Map<String, ?> adapterConfig) {
        return of(companyId, "docker", JSON.valueToTree(adapterConfig), null, null);
    }

    /** A request with an issue and an input. */
    public static RunRequested docker(UUID companyId, Map<String, ?> adapterConfig, IssueRef issue, String input) {
        return of(companyId, "docker", JSON.valueToTree(adapterConfig), issue, input);
    }

    /**
     * A request for a remote agent, with run-service's issuer MAC when its config is valid: the worker of {@code tag}
     * runs it with the inner adapter and config.
     */
    public static RunRequested remote(UUID companyId, String tag, String innerType, Map<String, ?> innerConfig) {
        RunRequested request = of(companyId, "remote", JSON.valueToTree(Map.of("worker_tag", tag, "adapter_type",
                innerType, "adapter_config", innerConfig)), null, null);
        RemoteAdapterConfig remote;
        try {
            remote = RemoteAdapterConfig.parse(request.adapterConfig());
        } catch (AdapterConfigException invalid) {
            return request;   // run-service would never have issued it; the dispatcher rejects it
        }
        return request.withIssuerMac(Keys.macs().issue(remote.inner(request), tag));
    }

    /** A request with any adapter type and config. */
    public static RunRequested of(UUID companyId, String adapterType, JsonNode adapterConfig, IssueRef issue,
                                  String input) {
        return request(UUID.randomUUID(), UUID.randomUUID(), companyId, UUID.randomUUID(), adapterType,
                adapterConfig, issue, input, Instant.now());
    }

    /** The same run requested again under a new event id (e.g. a re-sent outbox row). */
    public static RunRequested resent(RunRequested run) {
        return request(UUID.randomUUID(), run.runId(), run.companyId(), run.agentId(), run.adapterType(),
                run.adapterConfig(), run.issue(), run.input(), Instant.now());
    }

    /** A request with every field given that carries no secrets (so no masks) and, not a remote agent's, no MAC. */
    public static RunRequested request(UUID id, UUID runId, UUID companyId, UUID agentId, String adapterType,
                                       JsonNode adapterConfig, IssueRef issue, String input, Instant requestedAt) {
        return request(id, runId, companyId, agentId, adapterType, adapterConfig, issue, input, requestedAt, Map.of());
    }

    /** As above with these sealed secrets, none of them masked. */
    public static RunRequested request(UUID id, UUID runId, UUID companyId, UUID agentId, String adapterType,
                                       JsonNode adapterConfig, IssueRef issue, String input, Instant requestedAt,
                                       Map<String, String> secrets) {
        return new RunRequested(id, runId, companyId, agentId, adapterType, adapterConfig, issue, input, requestedAt,
                secrets, null, Map.of());
    }

    /** {@code ["/bin/sh", "-c", script]}. */
    public static List<String> sh(String script) {
        return List.of("/bin/sh", "-c", script);
    }
}
