package io.trimus.admin.view;

import io.trimus.admin.client.AllowlistEditor.Listed;
import io.trimus.admin.client.AllowlistEntries;
import io.trimus.admin.client.AllowlistEntries.Parts;
import io.trimus.admin.client.RequestRules;
import io.trimus.admin.view.Views.Allowlist;
import io.trimus.admin.view.Views.Entry;
import io.trimus.admin.view.Views.MethodBox;
import io.trimus.admin.view.Views.Refusal;
import io.trimus.admin.view.Views.RequestDenied;
import io.trimus.admin.view.Views.RuleDraft;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Allowlists as the editors show them (entries in parts, rule forms) and denied requests judged against them. */
public final class AllowlistViews {
    private AllowlistViews() {
    }

    /**
     * An editor of the company's list ({@code agentId} null) or of an agent's own; {@code entries} as listed,
     * {@code error} the sentence when the list could not be read, the rest what the last change left to say.
     */
    public static Allowlist editor(String companyId, String agentId, boolean own, List<String> entries, String error,
                                   String entryError, String rejected, RuleDraft draft, String ruleError,
                                   String notice) {
        String action = agentId == null ? "/companies/" + companyId + "/egress/allowlist"
                : "/companies/" + companyId + "/agents/" + agentId + "/egress/allowlist";
        List<Entry> listed = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            listed.add(entry(entries.get(i), "edit-" + (i + 1)));
        }
        return new Allowlist(companyId, agentId, action, own, List.copyOf(listed), error, entryError, rejected,
                draft == null ? emptyDraft() : draft, ruleError, notice);
    }

    /** An entry in parts, with its edit form filled in (its field ids starting with {@code formId}). */
    public static Entry entry(String text, String formId) {
        Parts parts = AllowlistEntries.parts(text);
        String ports = parts.ports().stream().map(String::valueOf).collect(Collectors.joining(", "));
        return new Entry(parts.text(), parts.object(), parts.ruled(), parts.host(), ports, parts.methods(),
                parts.paths(), parts.object() ? draft(parts.host(), ports, parts.methods(),
                String.join("\n", parts.paths()), parts.text()) : null, formId);
    }

    /** A rule form with nothing typed. */
    public static RuleDraft emptyDraft() {
        return draft("", "", List.of(), "", null);
    }

    /** A rule form as typed ({@code editing}: the text of the entry being edited, null for a new one). */
    public static RuleDraft draft(String host, String ports, List<String> methods, String paths, String editing) {
        List<String> ticked = methods == null ? List.of() : methods;
        return new RuleDraft(host == null ? "" : host, ports == null ? "" : ports,
                AllowlistEntries.METHODS.stream().map(m -> new MethodBox(m, ticked.contains(m))).toList(),
                paths == null ? "" : paths, editing);
    }

    /**
     * A denied request judged against the lists as they are now: which of the company's list and the agent's own list
     * (when the agent has one; {@code agentList} null when unknown) refuse it, with their entries for its host.
     */
    public static RequestDenied judged(RequestDenied request, String qname, String qtype, List<String> companyEntries,
                                       Listed agentList) {
        RequestRules.Request r = RequestRules.Request.of(qname, qtype, request.method(), request.path());
        List<Refusal> refusals = new ArrayList<>();
        refusal("the company's list", companyEntries, r).ifPresent(refusals::add);
        String note = null;
        if (agentList == null && request.agentId() != null) {
            note = "Whether the agent's own list refuses it too is unknown.";
        } else if (agentList != null && agentList.own()) {
            refusal("the agent's own list", agentList.entries(), r).ifPresent(refusals::add);
        }
        if (refusals.isEmpty() && note == null) {
            note = "The lists as they are now let this request through.";
        }
        return new RequestDenied(request.method(), request.path(), request.agentId(), request.allowable(), true,
                List.copyOf(refusals), note);
    }

    private static Optional<Refusal> refusal(String list, List<String> entries, RequestRules.Request request) {
        return RequestRules.refusal(entries, request).map(ruled -> new Refusal(list,
                ruled.stream().map(p -> entry(p.text(), null)).toList(), ruled.isEmpty() ? "no entry opens "
                + request.host() + ":" + request.port() : null));
    }
}
