package io.trimus.admin.view;

import io.trimus.events.EgressAnomaly;

import java.util.List;

/** What the templates show: small, already formatted records, one per page or part of a page. */
public final class Views {
    private Views() {
    }

    /**
     * The overview: runs by status, denials in the last hour, the most denied names, every company's egress per hour,
     * and the live ticker.
     */
    public record Overview(List<StatusCount> runs, long runTotal, String runsError, long deniedLookups,
                           long deniedEvents, String denialsError, List<NameCount> topNames, String topNamesError,
                           Chart egressChart) {
    }

    /** An hourly chart as inline SVG (escaped by its renderer), or the sentence why it is missing. */
    public record Chart(String svg, String error, long allowed, long denied) {
    }

    /** How many runs are in one state. */
    public record StatusCount(String status, long count) {
    }

    /** The company list, one page of it. */
    public record Companies(List<CompanyRow> companies, String error, String nextAfter, boolean firstPage) {
    }

    /**
     * A company in a list; {@code canary} its latest canary's status (the badge's class, e.g. {@code breached}) and
     * {@code canaryText} its words, both null when unknown.
     */
    public record CompanyRow(String id, String name, String createdAt, String canary, String canaryText) {
    }

    /**
     * A company: its agents, latest runs and what its agents' runs reported they used over the last 30 days
     * ({@code usageTotals} null when no run finished then, {@code usageError} the sentence when it is unknown), and
     * its egress canaries (a breached latest one turns the page red).
     */
    public record Company(String id, String name, List<AgentRow> agents, String agentsError, List<RunRow> runs,
                          String runsError, List<UsageRow> usage, UsageRow usageTotals, String usageError,
                          CanaryViews.Panel canary) {
    }

    /**
     * What one agent's runs (or all of them, as totals) reported they used: runs finished, how many reported usage,
     * tokens in and out, cache read / write, cost; "—" for a figure no run reported.
     */
    public record UsageRow(String agentId, String agent, String runs, String runsWithUsage, String inputTokens,
                           String outputTokens, String cache, String cost) {
    }

    /**
     * An agent and, in plain words, where its code runs; {@code warnings} say what will keep it from working, e.g. its
     * provider's API host missing from the allowlist.
     */
    public record AgentRow(String id, String name, String adapterType, String isolation, String isolationText,
                           List<String> warnings) {
    }

    /** A run in a list. */
    public record RunRow(String id, String companyId, String status, String adapterType, String issue,
                         String queuedAt, String finishedAt, String exitCode) {
    }

    /** A company's egress page: the policy mode, the allowlist editor, the hourly chart and the recent denials. */
    public record Egress(String companyId, String companyName, Policy policy, Allowlist allowlist, Chart chart,
                         Denials denials) {
    }

    /**
     * A company's egress mode and the form that switches it; {@code report} when hosts off the allowlist are let
     * through and only recorded. {@code notice} says what the last change did, {@code error} why it failed.
     */
    public record Policy(String companyId, String mode, boolean report, String updatedAt, String error,
                         String notice) {
    }

    /**
     * An allowlist editor: the company's list ({@code agentId} null) or an agent's own ({@code own} false while the
     * agent has none: the company's applies). {@code action} is where its forms post ({@code …/add},
     * {@code …/add-rule}, {@code …/replace}, {@code …/remove}). {@code entryError} is egress-service's reason for
     * refusing {@code rejected} (the plain field), {@code ruleError} its reason for refusing {@code draft} (the rule
     * form, or the edit form of the entry {@code draft.editing}); {@code notice} says what the last change did.
     */
    public record Allowlist(String companyId, String agentId, String action, boolean own, List<Entry> entries,
                            String error, String entryError, String rejected, RuleDraft draft, String ruleError,
                            String notice) {
        /** Whether this is an agent's list. */
        public boolean agent() {
            return agentId != null;
        }
    }

    /**
     * An allowlist entry as listed: {@code text} names it in the forms; for an object entry its parts in words
     * ({@code ports} "443, 8443", {@code methods} and {@code paths} as lists, each empty for "any") and its edit form's
     * fields ({@code draft}, whose field ids start with {@code formId}); {@code ruled} when it has request rules.
     */
    public record Entry(String text, boolean object, boolean ruled, String host, String ports, List<String> methods,
                        List<String> paths, RuleDraft draft, String formId) {
    }

    /**
     * The fields of a request-rule form as typed (or as an entry has them, for its edit form): host, ports as text, the
     * method boxes, the path prefixes one per line; {@code editing} the text of the entry being edited (null: a new
     * entry).
     */
    public record RuleDraft(String host, String ports, List<MethodBox> methods, String paths, String editing) {
    }

    /** One method checkbox of a rule form. */
    public record MethodBox(String method, boolean checked) {
    }

    /** An agent's egress page: its allowlist editor, under its company. */
    public record AgentEgress(String companyId, String companyName, String agentId, String agentName,
                              Allowlist allowlist) {
    }

    /**
     * Recent denials of a company, filtered (reason, name, least tunnelling score) and paged; {@code live} when new
     * ones are streamed in.
     */
    public record Denials(String companyId, List<AnomalyRow> rows, String error, List<Option> reasons, String qname,
                          List<Option> scores, String olderLink, String newestLink, boolean live, String streamUrl) {
        /** Whether any filter is set (the empty table then says that nothing matches them). */
        public boolean filtered() {
            return !qname.isEmpty() || !reasons.get(0).selected() || !scores.get(0).selected();
        }
    }

    /** An option of a select, e.g. a reason filter. */
    public record Option(String value, String label, boolean selected) {
    }

    /**
     * One anomaly: denied lookups or connections of one sandbox for one name; {@code enforced} false when report mode
     * let them through ("would have been denied"); {@code score} the tunnelling score with two decimals (e.g.
     * {@code 0.83}) and {@code signals} its signals in words, both null when the anomaly has no score.
     */
    public record AnomalyRow(String id, String companyId, String companyName, String qname, String qtype,
                             String reason, String reasonText, long count, String lastSeen, String lastSeenIso,
                             String runId, String sourceIp, boolean enforced, boolean allowable, String csrf,
                             RequestDenied request, String score, String signals) {
        /**
         * The row with its "Add to allowlist" (or "Add this path") action when the viewer may change the allowlist;
         * {@code csrf} is the form's token (rows streamed live are rendered outside the request, so they carry it
         * themselves).
         */
        public AnomalyRow withActions(boolean allowable, String csrf) {
            // a canary breach names the probe's target: allowing it would hide the hole, never fix it
            boolean offered = allowable && !EgressAnomaly.CANARY_BREACH.equals(reason);
            return new AnomalyRow(id, companyId, companyName, qname, qtype, reason, reasonText, count, lastSeen,
                    lastSeenIso, runId, sourceIp, enforced, offered, csrf, request, score, signals);
        }

        /** The row with the request of its {@code proxy_request_denied} judged against the current lists. */
        public AnomalyRow withRequest(RequestDenied judged) {
            return new AnomalyRow(id, companyId, companyName, qname, qtype, reason, reasonText, count, lastSeen,
                    lastSeenIso, runId, sourceIp, enforced, allowable, csrf, judged, score, signals);
        }
    }

    /**
     * The request a {@code proxy_request_denied} names: its method and path as the sandbox sent them (text, never
     * markup), the agent whose sandbox sent it (null when unknown), whether a rule can allow it ({@code allowable}:
     * a method rules may list, a path prefix), and, when the lists were looked at ({@code judged}), which refuse it
     * now with their entries for the host ({@code refusals}, none: the current lists let it through).
     */
    public record RequestDenied(String method, String path, String agentId, boolean allowable, boolean judged,
                                List<Refusal> refusals, String note) {
    }

    /** One list that refuses a request: whose ({@code list}, in words) and its entries with rules for the host. */
    public record Refusal(String list, List<Entry> entries, String none) {
    }

    /**
     * A run in detail; for an agent CLI's run {@code output} is its answer, {@code rawOutput} what it printed (null
     * for other runs) and {@code usage} the figures its CLI reported (empty when none).
     */
    public record RunDetail(String companyId, String companyName, String id, String status, boolean finished,
                            String adapterType, String agentName, String agentId, String exitCode, String output,
                            String error, String issue, List<Step> timeline, List<Flag> isolation,
                            String isolationSummary, String isolationError, List<String> notes, Network network,
                            String peerTaskId, String rawOutput, List<Flag> usage) {
    }

    /**
     * What a run talked to through the egress proxy, one line per host and port; {@code error} is the sentence when
     * egress-service could not say.
     */
    public record Network(List<HostLine> hosts, String totals, String error, List<String> masked) {
        public Network(List<HostLine> hosts, String totals, String error) {
            this(hosts, totals, error, List.of());
        }
    }

    /** A run's connections to one host and port, e.g. "api.anthropic.com:443 · 3 connections · 41 KB out / 1.2 MB in". */
    public record HostLine(String target, String text, long refused) {
    }

    /** One step of a run's life and when it happened. */
    public record Step(String label, String at, String iso, boolean done) {
    }

    /** One isolation property of a run, e.g. "Root filesystem" = "read-only". */
    public record Flag(String name, String value) {
    }

    /** The operator view: every company's denials, grouped by name, one page of groups. */
    public record Operator(String window, List<Option> windows, List<CompanyGroups> companies, String error,
                           String olderLink, String newerLink, int from, int to) {
    }

    /** A company's denied names in the operator view. */
    public record CompanyGroups(String companyId, String companyName, long lookups, List<NameCount> names) {
    }

    /** Denied lookups of one name (of one company). */
    public record NameCount(String companyId, String companyName, String qname, long lookups, long events,
                            String lastSeen) {
    }

    /** An error page: one sentence that says what went wrong. */
    public record Error(int status, String title, String sentence) {
    }

    /**
     * The sign-in form: the email as typed, where to go after, why the last try failed or what just happened, and the
     * identity provider's name when sign-in through one is configured (null otherwise).
     */
    public record SignIn(String email, String next, String error, String notice, String provider) {
        /** The "Sign in with …" link, carrying {@code next} on. */
        public String providerLink() {
            return "/sign-in/oidc" + ("/".equals(next) ? "" : "?next="
                    + java.net.URLEncoder.encode(next, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** The page that ends a sign-in through the provider: the browser continues to {@code next} from our own page. */
    public record SignedIn(String next) {
    }

    /** The setup form; {@code token} is the link's secret when the form comes back with {@code error}. */
    public record Setup(String token, String error) {
    }

    /** A company's members and the forms that change them; {@code setupLink} is shown this once. */
    public record Members(String companyId, String companyName, List<MemberRow> members, List<String> roles,
                          String error, String notice, SetupLink setupLink) {
    }

    /**
     * A member in the list; {@code passwordSet} false while the person has not used the setup link, null for an
     * account the company did not make (run-service tells a company about the accounts it invited only).
     */
    public record MemberRow(String email, String role, String since, Boolean passwordSet) {
    }

    /** A new account's one-time setup link, to hand to the person. */
    public record SetupLink(String email, String url) {
    }

    /**
     * API tokens of a company ({@code companyId} set) or of the operators, the form that makes one and, this once,
     * the value of the token just made.
     */
    public record Tokens(String companyId, String companyName, String action, List<TokenRow> tokens,
                         List<String> roles, String error, Created created) {
    }

    /** A token in the list, never its value. */
    public record TokenRow(String id, String name, String role, String createdBy, String createdAt, String expiresAt,
                           String lastUsedAt, String revokedAt, boolean active) {
    }

    /** A token just made: its value is on this page only. */
    public record Created(String name, String token, String expiresAt) {
    }

    /**
     * Audit records, newest first: of one company ({@code companyId} set; its admins) or of all ({@code companyId}
     * null, with a company column; operators). {@code olderLink} pages on, {@code newestLink} back to the start.
     */
    public record Audit(String companyId, String companyName, List<AuditRow> records, String olderLink,
                        String newestLink) {
    }

    /**
     * One audit record as text: who ({@code actorKind} user, token, service or system), what, to what, the details as
     * {@code key=value} pairs and the source address; {@code company} only on the operators' page.
     */
    public record AuditRow(String id, String at, String iso, String actorKind, String actor, String company,
                           String companyId, String action, String target, String details, String sourceIp) {
    }

    /** The operator accounts and the forms that add and remove one; {@code setupLink} is shown this once. */
    public record Operators(List<OperatorRow> operators, String error, String notice, SetupLink setupLink) {
    }

    /** An operator account in the list; {@code passwordSet} false while the person has not used the setup link. */
    public record OperatorRow(String email, boolean passwordSet) {
    }
}
