package io.trimus.admin.client;

import io.trimus.admin.client.EgressServiceApi.AllowlistBody;
import io.trimus.events.AllowlistEntryText;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Adds, replaces and removes single allowlist entries on top of egress-service's replace-the-whole-list API, for a
 * company's list and for an agent's own list ({@link Scope}), which narrows the company's. Every entry is validated by
 * egress-service, which stores nothing unless the whole list is valid; its refusal comes back as a
 * {@link BackendException} of kind REFUSED whose sentence names the entry as typed. Two admins editing one list at the
 * same moment can overwrite each other's change (last write wins) until egress-service offers per-entry calls.
 *
 * <p>Entries are handled as text: a string entry as it is, an object entry with request rules as its JSON text
 * ({@link AllowlistEntryText}), which is how the page names it in its forms; text starting with <code>{</code> goes to
 * egress-service as a JSON object. Two entries are the same when their canonical forms are
 * ({@link AllowlistEntries#canonical}: an object's fields in any order, its lists in any order).
 */
@ApplicationScoped
public class AllowlistEditor {
    // egress-service names the entry by its index in the list sent, which the person never saw, and for an object
    // entry the field inside it (entries[3].paths[0])
    private static final Pattern ENTRY_FIELD = Pattern.compile("entries\\[\\d+](\\.(.+))?");

    private final Backends backends;
    private final EgressServiceApi egress;

    AllowlistEditor(Backends backends, EgressServiceApi egress) {
        this.backends = backends;
        this.egress = egress;
    }

    /** Which list: the company's ({@code agentId} null) or the agent's own. */
    public record Scope(UUID companyId, UUID agentId) {
        public static Scope company(UUID companyId) {
            return new Scope(companyId, null);
        }

        public static Scope agent(UUID companyId, UUID agentId) {
            return new Scope(companyId, agentId);
        }

        /** Whether this is an agent's list. */
        public boolean agent() {
            return agentId != null;
        }
    }

    /** A list as stored: {@code own} false for an agent without a list of its own (no entries then). */
    public record Listed(boolean own, List<String> entries) {
    }

    /** The company's entries as text, sorted. */
    public List<String> entries(UUID companyId) {
        return list(Scope.company(companyId)).entries();
    }

    /** The list of {@code scope} as text, sorted; a company always has its own. */
    public Listed list(Scope scope) {
        if (!scope.agent()) {
            return new Listed(true, backends.call(Backend.EGRESS_SERVICE,
                    auth -> egress.allowlist(auth, scope.companyId())).texts());
        }
        EgressServiceApi.AgentAllowlist list = backends.call(Backend.EGRESS_SERVICE,
                auth -> egress.agentAllowlist(auth, scope.companyId(), scope.agentId()));
        return new Listed(list.own(), list.own() ? list.texts() : List.of());
    }

    /** {@link #add(Scope, String)} on the company's list. */
    public Change add(UUID companyId, String entry) {
        return add(Scope.company(companyId), entry);
    }

    /**
     * Adds {@code entry} as typed unless the list already holds it ({@link AllowlistEntries#same}: then nothing is
     * sent); returns the stored list (normalised by egress-service) and whether it changed. Typed text starting with
     * <code>{</code> that is no JSON object is refused (REFUSED, field {@code entry}) before anything is sent, as is a
     * change to an agent's list while the agent has none of its own.
     */
    public Change add(Scope scope, String entry) {
        String typed = typed(entry);
        List<String> entries = new ArrayList<>(ownEntries(scope));
        if (!typed.isEmpty() && entries.stream().anyMatch(e -> AllowlistEntries.same(e, typed))) {
            return new Change(entries, false);
        }
        entries.add(typed);
        return new Change(put(scope, entries), true);
    }

    /**
     * Puts {@code entry} in the place of {@code old} (as listed, or any text of the same entry); returns the stored
     * list. REFUSED (field {@code entry}) when {@code old} is no longer on the list: nothing is sent then.
     */
    public List<String> replace(Scope scope, String old, String entry) {
        String typed = typed(entry);
        List<String> entries = new ArrayList<>(ownEntries(scope));
        int at = -1;
        for (int i = 0; i < entries.size() && at < 0; i++) {
            if (AllowlistEntries.same(entries.get(i), old == null ? "" : old)) {
                at = i;
            }
        }
        if (at < 0) {
            throw new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED,
                    "The entry being edited is no longer on the list (changed meanwhile?); nothing changed.",
                    "entry", null);
        }
        entries.set(at, typed);
        return put(scope, entries);
    }

    /** Removes {@code entry} (as listed, or any text of the same entry); returns the stored list. */
    public List<String> remove(UUID companyId, String entry) {
        return remove(Scope.company(companyId), entry);
    }

    /** Removes {@code entry} from the list of {@code scope}; returns the stored list. */
    public List<String> remove(Scope scope, String entry) {
        List<String> entries = new ArrayList<>(ownEntries(scope));
        entries.removeIf(e -> AllowlistEntries.same(e, entry == null ? "" : entry));
        return put(scope, entries);
    }

    /**
     * Gives the agent a list of its own that starts as a copy of the company's (so nothing changes for it until an
     * entry is removed or narrowed); a list it already has stays as it is. Returns the agent's list.
     */
    public Listed createOwn(UUID companyId, UUID agentId) {
        Scope scope = Scope.agent(companyId, agentId);
        Listed current = list(scope);
        if (current.own()) {
            return current;
        }
        return new Listed(true, put(scope, entries(companyId)));
    }

    /** Drops the agent's own list: the company's applies to it again. */
    public void drop(UUID companyId, UUID agentId) {
        backends.call(Backend.EGRESS_SERVICE, auth -> {
            egress.dropAgentAllowlist(auth, companyId, agentId);
            return null;
        });
    }

    /**
     * Lets a request the request rules refused through from now on: widens ({@link RequestRules#widened}) the
     * company's list when it refuses the request, and the agent's own list (when {@code agentId} is given and the
     * agent has one) when that refuses it: a request must pass both. The company's list is changed first; when the
     * agent's change is then refused, the company's stays changed and the refusal says so.
     */
    public Allowed allowRequest(UUID companyId, UUID agentId, RequestRules.Request request) {
        if (!request.allowable()) {
            throw new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED,
                    "No rule can allow this request: its method must be one of "
                            + String.join(", ", AllowlistEntries.METHODS) + " and its path a path prefix.",
                    "entry", null);
        }
        Scope company = Scope.company(companyId);
        List<String> companyEntries = entries(companyId);
        boolean companyChanged = false;
        if (RequestRules.refusal(companyEntries, request).isPresent()) {
            companyEntries = put(company, RequestRules.widened(companyEntries, request));
            companyChanged = true;
        }
        boolean agentChanged = false;
        if (agentId != null) {
            Scope agent = Scope.agent(companyId, agentId);
            Listed own = list(agent);
            if (own.own() && RequestRules.refusal(own.entries(), request).isPresent()) {
                try {
                    put(agent, RequestRules.widened(own.entries(), request));
                } catch (BackendException e) {
                    if (!companyChanged || e.kind() != BackendException.Kind.REFUSED) {
                        throw e;
                    }
                    throw new BackendException(e.backend(), e.kind(), "The company's list now allows it, the agent's"
                            + " own list was not changed: " + e.getMessage(), e.field(), e);
                }
                agentChanged = true;
            }
        }
        return new Allowed(companyEntries, companyChanged, agentChanged);
    }

    /** The list after an {@link #add}; {@code added} false when the entry was already on it. */
    public record Change(List<String> entries, boolean added) {
    }

    /** What {@link #allowRequest} changed; {@code companyEntries} the company's list as stored now. */
    public record Allowed(List<String> companyEntries, boolean company, boolean agent) {
    }

    /**
     * A typed object entry as compact JSON text; a refusal naming the entry, as egress-service's refusals do, when the
     * text is no JSON object (nothing is sent then).
     */
    static String objectText(String typed) {
        try {
            return AllowlistEntryText.toJson(typed).toString();
        } catch (IllegalArgumentException e) {
            throw new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED,
                    "The entry " + e.getMessage() + ".", "entry", e);
        }
    }

    /** The body of a PUT: each entry's text as egress-service takes it (an object's JSON text as that object). */
    static AllowlistBody body(List<String> entries) {
        return new AllowlistBody(entries.stream().map(AllowlistEntryText::toJson).toList());
    }

    /** A refusal of egress-service that names an entry by its index, said of "the entry" as typed. */
    static BackendException entryRefusal(BackendException e) {
        if (e.kind() != BackendException.Kind.REFUSED || e.field() == null
                || !e.getMessage().startsWith(e.field() + " ")) {
            return e;
        }
        Matcher field = ENTRY_FIELD.matcher(e.field());
        if (!field.matches()) {
            return e;
        }
        String sentence = e.getMessage().substring(e.field().length() + 1);
        String subject = field.group(2) == null ? "The entry " : "The entry's " + field.group(2) + " ";
        return new BackendException(e.backend(), e.kind(), subject + sentence + ".", e.field(), e);
    }

    private static String typed(String entry) {
        String typed = entry == null ? "" : entry.strip();
        return AllowlistEntryText.isObject(typed) ? objectText(typed) : typed;
    }

    /** The entries of the list; for an agent without a list of its own a refusal (nothing to change). */
    private List<String> ownEntries(Scope scope) {
        Listed listed = list(scope);
        if (!listed.own()) {
            throw new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED,
                    "This agent has no allowlist of its own (the company's applies): create one first.", "entry",
                    null);
        }
        return listed.entries();
    }

    private List<String> put(Scope scope, List<String> entries) {
        AllowlistBody body;
        try {
            body = body(entries);
        } catch (IllegalArgumentException e) {
            throw new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED,
                    "The entry " + e.getMessage() + ".", "entry", e);
        }
        try {
            return backends.call(Backend.EGRESS_SERVICE, auth -> scope.agent()
                    ? egress.replaceAgentAllowlist(auth, scope.companyId(), scope.agentId(), body).texts()
                    : egress.replaceAllowlist(auth, scope.companyId(), body).texts());
        } catch (BackendException e) {
            throw entryRefusal(e);
        }
    }
}
