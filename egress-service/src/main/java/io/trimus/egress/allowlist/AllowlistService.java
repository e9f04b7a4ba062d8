package io.trimus.egress.allowlist;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.audit.AuditOutbox;
import io.trimus.events.AuditRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The rules of a company's allowlist: every entry valid and normalised ({@link AllowlistRule}: a host pattern, maybe a
 * port), no wildcard over a public suffix, at most
 * {@value #MAX_ENTRIES}, stored as a whole, and the resolver's {@link AllowlistCache} updated once the list is
 * committed.
 */
@ApplicationScoped
public class AllowlistService {
    /** Most entries one list may hold, counted as sent. */
    public static final int MAX_ENTRIES = 1000;

    private final AllowlistRepository allowlists;
    private final AllowlistCache cache;
    private final AuditOutbox audit;

    AllowlistService(AllowlistRepository allowlists, AllowlistCache cache, AuditOutbox audit) {
        this.allowlists = allowlists;
        this.cache = cache;
        this.audit = audit;
    }

    /**
     * Makes {@code entries} the company's allowlist; an empty list denies every name. Nothing is stored unless every
     * entry is valid. Returns the stored list: normalised, duplicates collapsed, sorted.
     */
    public Uni<List<String>> replace(UUID companyId, List<?> entries) {
        List<String> normalised;
        try {
            normalised = normaliseAll(entries);
        } catch (ProblemException e) {
            return Uni.createFrom().failure(e);
        }
        AuditOutbox.Stamp by = audit.stamp();
        return TenantTransactions.asCaller(() -> allowlists.entriesOf(companyId)
                        .call(before -> audit.add(by.record(companyId, AuditRecord.ALLOWLIST_REPLACED,
                                new AuditRecord.Target("allowlist", null, null), changes(before, normalised))))
                        .flatMap(before -> allowlists.replace(companyId, normalised)))
                // after commit: the resolver never sees a list the database does not hold
                .invoke(revision -> cache.replace(companyId, normalised, revision))
                .replaceWith(normalised);
    }

    /** What a replacement added and removed, for its audit record. */
    private static java.util.Map<String, Object> changes(List<String> before, List<String> after) {
        List<String> added = after.stream().filter(e -> !before.contains(e)).toList();
        List<String> removed = before.stream().filter(e -> !after.contains(e)).toList();
        java.util.Map<String, Object> details = new java.util.LinkedHashMap<>();
        details.put("added", added);
        details.put("removed", removed);
        details.put("entries", after.size());
        return details;
    }

    /** The company's allowlist, sorted; empty when it never stored one (every name denied). */
    @TenantTransaction
    public Uni<List<String>> get(UUID companyId) {
        return allowlists.entriesOf(companyId);
    }

    /**
     * The normalised, distinct, sorted entries; a problem naming the first invalid entry otherwise. An entry is a
     * string ({@link AllowlistRule}) or a JSON object ({@link RuledEntry}, stored as its canonical JSON text).
     */
    public static List<String> normaliseAll(List<?> entries) {
        if (entries == null) {
            throw ProblemException.invalid("entries",
                    "is required: {\"entries\": [\"example.com\", \"*.example.org\"]}");
        }
        if (entries.size() > MAX_ENTRIES) {
            throw ProblemException.invalid("entries", "must hold at most " + MAX_ENTRIES + " entries, not "
                    + entries.size());
        }
        TreeSet<String> normalised = new TreeSet<>();
        for (int i = 0; i < entries.size(); i++) {
            String field = "entries[" + i + "]";
            Object entry = entries.get(i);
            if (entry instanceof JsonNode node && node.isObject()) {
                normalised.add(RuledEntry.parse(field, node).text());
            } else if (entry instanceof JsonNode node && node.isTextual()) {
                normalised.add(AllowlistRule.normalise(field, node.textValue()).text());
            } else if (entry instanceof JsonNode node && !node.isNull()) {
                throw ProblemException.invalid(field, "must be a string or an object {\"host\": …}, not "
                        + kind(node));
            } else {
                normalised.add(AllowlistRule.normalise(field, entry instanceof String text ? text : null).text());
            }
        }
        return new ArrayList<>(normalised);
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            default -> "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
