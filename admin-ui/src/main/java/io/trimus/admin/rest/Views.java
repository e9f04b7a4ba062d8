package io.trimus.admin.rest;

import java.util.List;

/** What the templates show: small, already formatted records, one per page or part of a page. */
public final class Views {
    private Views() {
    }

    /** The overview: runs by status, denials in the last hour, the most denied names, and the live ticker. */
    public record Overview(List<StatusCount> runs, long runTotal, String runsError, long deniedLookups,
                           long deniedEvents, String denialsError, List<NameCount> topNames, String topNamesError) {
    }

    /** How many runs are in one state. */
    public record StatusCount(String status, long count) {
    }

    /** The company list, one page of it. */
    public record Companies(List<CompanyRow> companies, String error, String nextAfter, boolean firstPage) {
    }

    /** A company in a list. */
    public record CompanyRow(String id, String name, String createdAt) {
    }

    /** A company: its agents and latest runs. */
    public record Company(String id, String name, List<AgentRow> agents, String agentsError, List<RunRow> runs,
                          String runsError) {
    }

    /** An agent and, in plain words, where its code runs. */
    public record AgentRow(String id, String name, String adapterType, String isolation, String isolationText) {
    }

    /** A run in a list. */
    public record RunRow(String id, String companyId, String status, String adapterType, String issue,
                         String queuedAt, String finishedAt, String exitCode) {
    }

    /** A company's egress page: the allowlist editor and the recent denials. */
    public record Egress(String companyId, String companyName, Allowlist allowlist, Denials denials) {
    }

    /**
     * The allowlist editor; {@code entryError} is egress-service's reason for refusing {@code rejected}, shown next
     * to the field, and {@code notice} says what the last change did.
     */
    public record Allowlist(String companyId, List<String> entries, String error, String entryError,
                            String rejected, String notice) {
    }

    /** Recent denials of a company, filtered and paged; {@code live} when new ones are streamed in. */
    public record Denials(String companyId, List<AnomalyRow> rows, String error, List<Option> reasons, String qname,
                          String olderLink, String newestLink, boolean live, String streamUrl) {
    }

    /** An option of a select, e.g. a reason filter. */
    public record Option(String value, String label, boolean selected) {
    }

    /** One anomaly: denied lookups of one sandbox for one name. */
    public record AnomalyRow(String id, String companyId, String companyName, String qname, String qtype,
                             String reason, String reasonText, long count, String lastSeen, String lastSeenIso,
                             String runId, String sourceIp) {
    }

    /** A run in detail. */
    public record RunDetail(String companyId, String companyName, String id, String status, boolean finished,
                            String adapterType, String agentName, String agentId, String exitCode, String output,
                            String error, String issue, List<Step> timeline, List<Flag> isolation,
                            String isolationSummary, String isolationError, List<String> notes) {
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
}
