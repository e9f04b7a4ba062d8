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
 * Adds and removes single allowlist entries on top of egress-service's replace-the-whole-list API. Every entry is
 * validated by egress-service, which stores nothing unless the whole list is valid; its refusal comes back as a
 * {@link BackendException} of kind REFUSED whose sentence names the entry as typed. Two admins editing one list
 * at the same moment can overwrite each other's change (last write wins) until egress-service offers per-entry
 * calls.
 *
 * <p>Entries are handled as text: a string entry as it is, an object entry with request rules as its JSON text
 * ({@link AllowlistEntryText}), which is how the page shows it, how its remove button names it, and how an admin
 * types a new one into the same field; text starting with <code>{</code> goes to egress-service as a JSON object.
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

    /** The company's entries as text, sorted. */
    public List<String> entries(UUID companyId) {
        return backends.call(Backend.EGRESS_SERVICE, auth -> egress.allowlist(auth, companyId)).texts();
    }

    /**
     * Adds {@code entry} as typed unless the list already holds it (any case, trailing dot ignored; an object entry's
     * compact JSON text exactly: then nothing is sent); returns the stored list (normalised by egress-service) and
     * whether it changed. Typed text starting with <code>{</code> that is no JSON object is refused (REFUSED, field
     * {@code entry}) before anything is sent.
     */
    public Change add(UUID companyId, String entry) {
        String typed = entry == null ? "" : entry.strip();
        if (AllowlistEntryText.isObject(typed)) {
            typed = objectText(typed);
        }
        List<String> entries = new ArrayList<>(entries(companyId));
        String key = comparable(typed);
        if (!key.isEmpty() && entries.stream().map(AllowlistEditor::comparable).anyMatch(key::equals)) {
            return new Change(entries, false);
        }
        entries.add(typed);
        return new Change(replace(companyId, entries), true);
    }

    /** Removes {@code entry} (as listed); returns the stored list. */
    public List<String> remove(UUID companyId, String entry) {
        List<String> entries = new ArrayList<>(entries(companyId));
        entries.remove(entry);
        return replace(companyId, entries);
    }

    /** The list after an {@link #add}; {@code added} false when the entry was already on it. */
    public record Change(List<String> entries, boolean added) {
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

    private static String comparable(String entry) {
        if (AllowlistEntryText.isObject(entry)) {
            return entry.strip();
        }
        String e = entry.strip().toLowerCase(java.util.Locale.ROOT);
        return e.endsWith(".") ? e.substring(0, e.length() - 1) : e;
    }

    private List<String> replace(UUID companyId, List<String> entries) {
        AllowlistBody body;
        try {
            body = body(entries);
        } catch (IllegalArgumentException e) {
            throw new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED,
                    "The entry " + e.getMessage() + ".", "entry", e);
        }
        try {
            return backends.call(Backend.EGRESS_SERVICE,
                    auth -> egress.replaceAllowlist(auth, companyId, body)).texts();
        } catch (BackendException e) {
            throw entryRefusal(e);
        }
    }
}
