package io.trimus.admin.rest.egress;

import io.trimus.admin.auth.PageAccess;
import io.trimus.admin.client.AllowlistEditor;
import io.trimus.admin.client.AllowlistEditor.Listed;
import io.trimus.admin.client.AllowlistEditor.Scope;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.EgressPolicies;
import io.trimus.admin.client.EgressServiceApi;
import io.trimus.admin.client.EgressServiceApi.Anomaly;
import io.trimus.admin.client.EgressServiceApi.Policy;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.view.AllowlistViews;
import io.trimus.admin.view.AnomalyRows;
import io.trimus.admin.view.EgressCharts;
import io.trimus.admin.view.Times;
import io.trimus.admin.view.Views;
import io.trimus.admin.view.Views.AnomalyRow;
import io.trimus.admin.view.Views.RuleDraft;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Assembles a company's egress page and its parts from the backends, for the resources whose forms answer with the
 * whole page or one part of it; each part that a backend cannot give becomes its sentence.
 */
@ApplicationScoped
public class EgressPage {
    static final int PAGE_SIZE = 50;
    /** Most agents whose own lists one page of denials reads. */
    static final int MAX_AGENTS_JUDGED = 10;

    private final Backends backends;
    private final RunServiceApi runService;
    private final EgressServiceApi egressService;
    private final AllowlistEditor allowlists;
    private final EgressPolicies policies;
    private final PageAccess access;

    EgressPage(Backends backends, RunServiceApi runService, EgressServiceApi egressService, AllowlistEditor allowlists,
               EgressPolicies policies, PageAccess access) {
        this.access = access;
        this.backends = backends;
        this.runService = runService;
        this.egressService = egressService;
        this.allowlists = allowlists;
        this.policies = policies;
    }

    /** The mode part, read from egress-service; {@code error} is a refusal to show next to the form. */
    Views.Policy policy(UUID id, String error) {
        Fetched<Policy> policy = backends.fetch(Backend.EGRESS_SERVICE, auth -> policies.read(id));
        if (policy.failed()) {
            return new Views.Policy(id.toString(), null, false, null,
                    error != null ? error : "The egress mode could not be read: " + policy.error(), null);
        }
        return policy(id, policy.value(), error, null);
    }

    static Views.Policy policy(UUID id, Policy policy, String error, String notice) {
        String mode = policy.mode() == null ? "enforce" : policy.mode();
        return new Views.Policy(id.toString(), mode, "report".equals(mode),
                policy.updatedAt() == null ? null : Times.utc(policy.updatedAt()), error, notice);
    }

    /** The company's allowlist editor, read from egress-service. */
    Views.Allowlist allowlist(UUID id, String entryError, String rejected, String notice) {
        return allowlist(Scope.company(id), entryError, rejected, null, null, notice);
    }

    /**
     * An allowlist editor (the company's or an agent's own), read from egress-service; {@code entryError} and
     * {@code rejected} for the plain field, {@code draft} and {@code ruleError} for a rule form, {@code notice} what
     * the last change did.
     */
    Views.Allowlist allowlist(Scope scope, String entryError, String rejected, RuleDraft draft, String ruleError,
                              String notice) {
        Fetched<Listed> listed = backends.fetch(Backend.EGRESS_SERVICE, auth -> allowlists.list(scope));
        return AllowlistViews.editor(scope.companyId().toString(), agentId(scope), !listed.failed()
                && listed.value().own(), listed.failed() ? List.of() : listed.value().entries(), listed.error(),
                entryError, rejected, draft, ruleError, notice);
    }

    /** An editor of a list as just stored, with {@code notice}. */
    static Views.Allowlist stored(Scope scope, boolean own, List<String> entries, String notice) {
        return AllowlistViews.editor(scope.companyId().toString(), agentId(scope), own, entries, null, null, null,
                null, null, notice);
    }

    /** An agent's egress page around {@code editor}: the agent's and its company's names from run-service. */
    Views.AgentEgress agentPage(Scope scope, Views.Allowlist editor) {
        String company = backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, scope.companyId())).name();
        String agent = agentName(scope);
        return new Views.AgentEgress(scope.companyId().toString(), company, scope.agentId().toString(), agent, editor);
    }

    /** The agent's name; a {@link io.trimus.admin.client.BackendException} (404) when it is not the company's. */
    String agentName(Scope scope) {
        return backends.call(Backend.RUN_SERVICE,
                auth -> runService.agent(auth, scope.companyId(), scope.agentId())).name();
    }

    private static String agentId(Scope scope) {
        return scope.agent() ? scope.agentId().toString() : null;
    }

    /** The whole page with the given parts and the newest, unfiltered denials. */
    Views.Egress page(UUID id, Views.Policy policy, Views.Allowlist allowlist) {
        return page(id, policy, allowlist, null, null, null, null);
    }

    /**
     * The whole page: the denials filtered by reason, name and least tunnelling score ({@code minScore}, 0 to 1),
     * older than {@code before} when given.
     */
    Views.Egress page(UUID id, Views.Policy policy, Views.Allowlist allowlist, String reason, String qname,
                      String minScore, String before) {
        String name = backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, id)).name();
        String reasonFilter = blankToNull(reason);
        String nameFilter = blankToNull(qname);
        Double scoreFilter = AnomalyRows.minScore(minScore);
        String page = blankToNull(before);
        Fetched<List<Anomaly>> anomalies = backends.fetch(Backend.EGRESS_SERVICE,
                auth -> egressService.anomalies(auth, id, PAGE_SIZE, page, reasonFilter, nameFilter, scoreFilter));
        List<AnomalyRow> rows = anomalies.failed() ? List.of()
                : judged(id, anomalies.value().stream().map(a -> AnomalyRows.of(a, name)
                        .withActions(access.admin(id.toString()), access.csrf())).toList());
        String base = "/companies/" + id + "/egress";
        String filters = query("reason", reasonFilter) + query("qname", nameFilter)
                + query("min_score", scoreFilter == null ? null : scoreFilter.toString());
        String older = rows.size() == PAGE_SIZE
                ? base + "?before=" + encode(rows.get(rows.size() - 1).lastSeenIso()) + filters : null;
        String newest = page == null ? null : base + (filters.isEmpty() ? "" : "?" + filters.substring(1));
        String stream = base + "/live" + (filters.isEmpty() ? "" : "?" + filters.substring(1));
        Views.Chart chart = EgressCharts.of("egress-chart", "Egress of " + name + ", last 24 hours",
                backends.fetch(Backend.EGRESS_SERVICE, auth -> egressService.hourly(auth, id, EgressCharts.HOURS)),
                Instant.now());
        return new Views.Egress(id.toString(), name, policy, allowlist, chart, new Views.Denials(id.toString(), rows,
                anomalies.error(), AnomalyRows.reasonOptions(reasonFilter), nameFilter == null ? "" : nameFilter,
                AnomalyRows.scoreOptions(scoreFilter), older, newest, page == null, stream));
    }

    /**
     * The rows with the requests of their {@code proxy_request_denied} judged against the lists as they are now: the
     * company's, read once, and each agent's own, read once per agent (at most {@value #MAX_AGENTS_JUDGED} agents a
     * page; rows of further agents say that their agent's list is unknown).
     */
    private List<AnomalyRow> judged(UUID id, List<AnomalyRow> rows) {
        if (rows.stream().noneMatch(r -> r.request() != null)) {
            return rows;
        }
        Fetched<List<String>> company = backends.fetch(Backend.EGRESS_SERVICE, auth -> allowlists.entries(id));
        if (company.failed()) {
            return rows;
        }
        Map<String, Fetched<Listed>> agents = new HashMap<>();
        List<AnomalyRow> out = new ArrayList<>(rows.size());
        for (AnomalyRow row : rows) {
            if (row.request() == null) {
                out.add(row);
                continue;
            }
            String agent = row.request().agentId();
            Fetched<Listed> own = agent == null ? null : agents.containsKey(agent) ? agents.get(agent)
                    : agents.size() >= MAX_AGENTS_JUDGED ? Fetched.failed("not read") : null;
            if (agent != null && own == null) {
                own = backends.fetch(Backend.EGRESS_SERVICE,
                        auth -> allowlists.list(Scope.agent(id, UUID.fromString(agent))));
                agents.put(agent, own);
            }
            out.add(row.withRequest(AllowlistViews.judged(row.request(), row.qname(), row.qtype(), company.value(),
                    own == null || own.failed() ? null : own.value())));
        }
        return out;
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static String query(String name, String value) {
        return value == null ? "" : "&" + name + "=" + encode(value);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
