package io.trimus.admin.client;

import io.trimus.admin.client.EgressServiceApi.AllowlistBody;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Adds and removes single allowlist entries on top of egress-service's replace-the-whole-list API. Every entry is
 * validated by egress-service, which stores nothing unless the whole list is valid; its refusal comes back as a
 * {@link BackendException} of kind REFUSED whose sentence names the entry as typed. Two admins editing one list
 * at the same moment can overwrite each other's change (last write wins) until egress-service offers per-entry
 * calls.
 */
@ApplicationScoped
public class AllowlistEditor {
    // egress-service names the entry by its index in the list sent, which the person never saw
    private static final Pattern ENTRY_FIELD = Pattern.compile("entries\\[\\d+]");

    private final Backends backends;
    private final EgressServiceApi egress;

    AllowlistEditor(Backends backends, EgressServiceApi egress) {
        this.backends = backends;
        this.egress = egress;
    }

    /** The company's entries, sorted. */
    public List<String> entries(UUID companyId) {
        return backends.call(Backend.EGRESS_SERVICE, auth -> egress.allowlist(auth, companyId)).entries();
    }

    /**
     * Adds {@code entry} as typed unless the list already holds it (any case, trailing dot ignored: then nothing is
     * sent); returns the stored list (normalised by egress-service) and whether it changed.
     */
    public Change add(UUID companyId, String entry) {
        String typed = entry == null ? "" : entry.strip();
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

    private static String comparable(String entry) {
        String e = entry.strip().toLowerCase(java.util.Locale.ROOT);
        return e.endsWith(".") ? e.substring(0, e.length() - 1) : e;
    }

    private List<String> replace(UUID companyId, List<String> entries) {
        try {
            return backends.call(Backend.EGRESS_SERVICE,
                    auth -> egress.replaceAllowlist(auth, companyId, new AllowlistBody(entries))).entries();
        } catch (BackendException e) {
            if (e.kind() == BackendException.Kind.REFUSED && e.field() != null
                    && ENTRY_FIELD.matcher(e.field()).matches() && e.getMessage().startsWith(e.field() + " ")) {
                String sentence = e.getMessage().substring(e.field().length() + 1);
                throw new BackendException(e.backend(), e.kind(), "The entry " + sentence + ".", e.field(), e);
            }
            throw e;
        }
    }
}
