package io.trimus.egress.allowlist;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.egress.audit.AuditOutbox;
import io.trimus.events.AuditRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The rules of an agent's own allowlist (issue 31): validated, normalised and bounded exactly as a company's
 * ({@link AllowlistService#normaliseAll}), stored as a whole, audited as {@code allowlist.replaced} with target type
 * {@value #TARGET_TYPE} and the agent's id, and the {@link AgentAllowlistCache} updated once the change is committed.
 * A list of its own only narrows: a sandbox of the agent reaches what both that list and the company's allow.
 */
@ApplicationScoped
public class AgentAllowlistService {
    /** The audit target type of an agent's list. */
    public static final String TARGET_TYPE = "agent_allowlist";

    private final AgentAllowlistRepository allowlists;
    private final AgentAllowlistCache cache;
    private final AuditOutbox audit;

    AgentAllowlistService(AgentAllowlistRepository allowlists, AgentAllowlistCache cache, AuditOutbox audit) {
        this.allowlists = allowlists;
        this.cache = cache;
        this.audit = audit;
    }

    /**
     * Makes {@code entries} the agent's own list; an empty list denies the agent every name. Nothing is stored unless
     * every entry is valid. An entry is a string or a JSON object with request rules, as in a company's list
     * ({@link AllowlistService#normaliseAll}). Returns the stored list: normalised, duplicates collapsed, sorted.
     */
    public Uni<List<String>> replace(UUID companyId, UUID agentId, List<?> entries) {
        List<String> normalised;
        try {
            normalised = AllowlistService.normaliseAll(entries);
        } catch (ProblemException e) {
            return Uni.createFrom().failure(e);
        }
        AuditOutbox.Stamp by = audit.stamp();
        return TenantTransactions.asCaller(() -> allowlists.entriesOf(companyId, agentId)
                        .call(before -> audit.add(by.record(companyId, AuditRecord.ALLOWLIST_REPLACED,
                                target(agentId), changes(before.orElse(List.of()), normalised, true))))
                        .flatMap(before -> allowlists.replace(companyId, agentId, normalised)))
                // after commit: the resolver never sees a list the database does not hold
                .invoke(revision -> cache.replace(companyId, agentId, normalised, revision))
                .replaceWith(normalised);
    }

    /** Removes the agent's own list (its company's applies again); true when it had one. */
    public Uni<Boolean> remove(UUID companyId, UUID agentId) {
        AuditOutbox.Stamp by = audit.stamp();
        return TenantTransactions.asCaller(() -> allowlists.entriesOf(companyId, agentId)
                        .flatMap(before -> before.isEmpty() ? Uni.createFrom().<Long>nullItem()
                                : audit.add(by.record(companyId, AuditRecord.ALLOWLIST_REPLACED, target(agentId),
                                        changes(before.get(), List.of(), false)))
                                .flatMap(v -> allowlists.remove(companyId, agentId))))
                .invoke(revision -> {
                    if (revision != null) {
                        cache.replace(companyId, agentId, null, revision);
                    }
                })
                .map(revision -> revision != null);
    }

    /** The agent's own list, sorted; empty when it has none (its company's list applies). */
    @TenantTransaction
    public Uni<Optional<List<String>>> get(UUID companyId, UUID agentId) {
        return allowlists.entriesOf(companyId, agentId);
    }

    private static AuditRecord.Target target(UUID agentId) {
        return new AuditRecord.Target(TARGET_TYPE, agentId.toString(), null);
    }

    /** What a change added and removed, and whether the agent has a list of its own after it. */
    private static Map<String, Object> changes(List<String> before, List<String> after, boolean ownList) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("added", after.stream().filter(e -> !before.contains(e)).toList());
        details.put("removed", before.stream().filter(e -> !after.contains(e)).toList());
        details.put("entries", after.size());
        details.put("own_list", ownList);
        return details;
    }
}
