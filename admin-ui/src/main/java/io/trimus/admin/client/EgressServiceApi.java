package io.trimus.admin.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.events.AllowlistEntryText;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The part of egress-service's REST API the dashboard reads and writes; built by {@link Backends}. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public interface EgressServiceApi {
    /** Every call carries the signed-in caller's credential: the dashboard acts as that caller, never as itself. */
    String AUTHORIZATION = "Authorization";

    @GET
    @Path("/companies/{company_id}/egress/allowlist")
    Allowlist allowlist(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId);

    /** Replaces the whole list; egress-service stores nothing unless every entry is valid (400 otherwise). */
    @PUT
    @Path("/companies/{company_id}/egress/allowlist")
    @Consumes(MediaType.APPLICATION_JSON)
    Allowlist replaceAllowlist(@HeaderParam(AUTHORIZATION) String auth,
                               @PathParam("company_id") UUID companyId, AllowlistBody body);

    /** An agent's allowlist: {@code own_list} false (no entries) while the company's list applies to it alone. */
    @GET
    @Path("/companies/{company_id}/agents/{agent_id}/egress/allowlist")
    AgentAllowlist agentAllowlist(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId,
                                  @PathParam("agent_id") UUID agentId);

    /** Gives the agent a list of its own or replaces it (400 unless every entry is valid; nothing stored then). */
    @PUT
    @Path("/companies/{company_id}/agents/{agent_id}/egress/allowlist")
    @Consumes(MediaType.APPLICATION_JSON)
    AgentAllowlist replaceAgentAllowlist(@HeaderParam(AUTHORIZATION) String auth,
                                         @PathParam("company_id") UUID companyId,
                                         @PathParam("agent_id") UUID agentId, AllowlistBody body);

    /** Drops the agent's own list: the company's applies to it again (204 whether or not it had one). */
    @DELETE
    @Path("/companies/{company_id}/agents/{agent_id}/egress/allowlist")
    void dropAgentAllowlist(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId,
                            @PathParam("agent_id") UUID agentId);

    @GET
    @Path("/companies/{company_id}/egress/anomalies")
    List<Anomaly> anomalies(@HeaderParam(AUTHORIZATION) String auth,
                            @PathParam("company_id") UUID companyId, @QueryParam("limit") int limit,
                            @QueryParam("before") String before, @QueryParam("reason") String reason,
                            @QueryParam("qname") String qname, @QueryParam("min_score") Double minScore);

    /** The company's latest canary with its checks and up to 20 earlier ones; status {@code none} when never run. */
    @GET
    @Path("/companies/{company_id}/egress/canary")
    Canary canary(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId);

    /** Requests a canary now (202, status {@code running}); while one runs, egress-service answers with that one. */
    @POST
    @Path("/companies/{company_id}/egress/canary")
    Canary runCanary(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId);

    /**
     * What one run's sandbox talked to through the egress proxy: totals, per-host totals (the busiest 200) and its
     * {@code limit} latest connections (1 to 1000).
     */
    @GET
    @Path("/companies/{company_id}/runs/{run_id}/egress")
    RunEgress runEgress(@HeaderParam(AUTHORIZATION) String auth,
                        @PathParam("company_id") UUID companyId, @PathParam("run_id") UUID runId,
                        @QueryParam("limit") int limit);

    /** The company's allowed connections and denials per hour over the last {@code hours}. */
    @GET
    @Path("/companies/{company_id}/egress/hourly")
    Hourly hourly(@HeaderParam(AUTHORIZATION) String auth,
                  @PathParam("company_id") UUID companyId, @QueryParam("hours") int hours);

    /** Every company's allowed connections and denials per hour over the last {@code hours}. */
    @GET
    @Path("/egress/hourly")
    Hourly hourly(@HeaderParam(AUTHORIZATION) String auth, @QueryParam("hours") int hours);

    @GET
    @Path("/companies/{company_id}/egress/policy")
    Policy policy(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId);

    /** Sets the company's mode: {@code enforce} or {@code report} (400 otherwise). */
    @PUT
    @Path("/companies/{company_id}/egress/policy")
    @Consumes(MediaType.APPLICATION_JSON)
    Policy replacePolicy(@HeaderParam(AUTHORIZATION) String auth,
                         @PathParam("company_id") UUID companyId, PolicyBody body);

    @GET
    @Path("/egress/anomalies/summary")
    AnomalySummary summary(@HeaderParam(AUTHORIZATION) String auth,
                           @QueryParam("since") Instant since, @QueryParam("offset") int offset,
                           @QueryParam("limit") int limit);

    @GET
    @Path("/egress/anomalies/count")
    DenialCount count(@HeaderParam(AUTHORIZATION) String auth, @QueryParam("since") Instant since,
                      @QueryParam("company_id") UUID companyId);

    /**
     * A company's allowlist: normalised entries, sorted, each a JSON string or an object with request rules
     * ({@code {"host", "ports", "methods", "paths"}}).
     */
    record Allowlist(UUID companyId, List<JsonNode> entries) {
        /** The entries as text: a string as it is, an object as its JSON text ({@link AllowlistEntryText}). */
        public List<String> texts() {
            return entries == null ? List.of() : entries.stream().map(AllowlistEntryText::of).toList();
        }
    }

    /** An agent's allowlist; {@code ownList} false while it has none of its own (the company's applies alone). */
    record AgentAllowlist(UUID companyId, UUID agentId, Boolean ownList, List<JsonNode> entries) {
        /** The entries as text, as {@link Allowlist#texts()}. */
        public List<String> texts() {
            return entries == null ? List.of() : entries.stream().map(AllowlistEntryText::of).toList();
        }

        /** Whether the agent has a list of its own. */
        public boolean own() {
            return Boolean.TRUE.equals(ownList);
        }
    }

    /** Body of the PUT: each entry a JSON string or object, as egress-service takes them. */
    record AllowlistBody(List<JsonNode> entries) {
    }

    /**
     * A persisted anomaly: {@code count} denied lookups or connections of one sandbox for one name; {@code enforced}
     * is false for what report mode let through (it would have been denied), absent (true) from older services;
     * {@code method} and {@code path} name the refused request of a {@code proxy_request_denied} (null otherwise);
     * {@code score} (0 to 1) and {@code signals} are the sandbox's tunnelling score for the name's base domain and
     * the signals up for it, null when unknown (an unattributed source, an older event or an older service).
     */
    record Anomaly(UUID id, UUID companyId, UUID agentId, UUID runId, String containerId, String sourceIp,
                   String qname, String qtype, String reason, long count, Instant firstSeen, Instant lastSeen,
                   Boolean enforced, String method, String path, Double score, List<String> signals) {
        /** Whether the lookups or connections were denied (not merely reported). */
        public boolean denied() {
            return enforced == null || enforced;
        }
    }

    /**
     * A canary: egress-service's probe of a company's sandbox network from the outside in ({@code status}
     * {@code running}, {@code passed}, {@code breached}, {@code failed}, or {@code none} when the company never had
     * one). {@code history} holds earlier canaries, newest first (null inside the history itself); {@code interval}
     * is the schedule as an ISO-8601 duration ({@code PT15M}).
     */
    record Canary(UUID companyId, UUID id, String status, String trigger, Instant requestedAt, Instant finishedAt,
                  String error, List<CanaryCheck> checks, List<Canary> history, String interval) {
    }

    /**
     * One check of a canary: what it tried ({@code target}), whether it should have been {@code blocked} or
     * {@code allowed}, what happened ({@code got}) and how that counts ({@code outcome}: blocked, allowed, skipped).
     */
    record CanaryCheck(String name, String target, String expected, String got, String outcome) {
        /** Whether this check got through although it should have been blocked. */
        public boolean breached() {
            return "blocked".equals(expected) && "allowed".equals(outcome);
        }
    }

    /** A run's egress record. */
    record RunEgress(UUID runId, EgressSummary summary, List<Connection> connections, List<MaskedUse> maskedSecrets) {
    }

    /** How many requests of a run had one masked secret swapped in for one host. */
    record MaskedUse(String secret, String host, long requests) {
    }

    /** A run's connections in total and per destination. */
    record EgressSummary(long connections, long allowed, long refused, long bytesOut, long bytesIn,
                         List<HostTraffic> hosts) {
    }

    /** A run's connections to one host and port. */
    record HostTraffic(String host, int port, long connections, long bytesOut, long bytesIn, long refused) {
    }

    /** One connection of a run through the egress proxy. */
    record Connection(String host, int port, String address, String decision, String reason, Boolean enforced,
                      long bytesOut, long bytesIn, Instant startedAt, long durationMs, String way) {
    }

    /** Allowed connections and denials per hour between {@code from} and {@code to}. */
    record Hourly(Instant from, Instant to, List<HourCount> hours) {
    }

    /** One hour (its start) of {@link Hourly}. */
    record HourCount(Instant hour, long allowed, long denied) {
    }

    /** A company's egress policy: {@code enforce} (the default) or {@code report}. */
    record Policy(String mode, Instant updatedAt) {
    }

    /** Body of the policy PUT. */
    record PolicyBody(String mode) {
    }

    /** One page of the operator summary. */
    record AnomalySummary(Instant since, int offset, int limit, List<AnomalyGroup> groups) {
    }

    /** Denied lookups of one company for one name since the summary's {@code since}. */
    record AnomalyGroup(UUID companyId, String qname, long lookups, long events, Instant lastSeen) {
    }

    /** Denials since a time. */
    record DenialCount(Instant since, long lookups, long events) {
    }
}
