package io.trimus.egress.policy.document;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AgentAllowlistRepository;
import io.trimus.egress.allowlist.AgentAllowlistService;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.allowlist.AllowlistRepository;
import io.trimus.egress.audit.AuditOutbox;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModeCache;
import io.trimus.egress.policy.EgressPolicyRepository;
import io.trimus.events.AuditRecord;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads a company's whole egress policy as one {@link PolicyDocument} and replaces it by one, in one transaction:
 * the mode, the company's list and every agent's own list are written together or not at all, each real change
 * audited as the single-list APIs audit it (with {@code via: policy_document}), and this replica's caches updated once
 * it is committed (other replicas follow the database's announcement). A document equal to the stored policy writes
 * nothing: no row, no revision, no audit record, no announcement.
 */
@ApplicationScoped
@Startup // bounds out of range stop the service at start, not at the first document
public class PolicyDocumentService {
    /** How audit records of changes made through a document say so. */
    public static final String VIA = "policy_document";
    private static final Logger LOG = Logger.getLogger(PolicyDocumentService.class);

    private final EgressPolicyRepository modes;
    private final AllowlistRepository companyLists;
    private final AgentAllowlistRepository agentLists;
    private final EgressModeCache modeCache;
    private final AllowlistCache companyCache;
    private final AgentAllowlistCache agentCache;
    private final AuditOutbox audit;
    private final DocumentBounds bounds;

    PolicyDocumentService(EgressPolicyRepository modes, AllowlistRepository companyLists,
                          AgentAllowlistRepository agentLists, EgressModeCache modeCache, AllowlistCache companyCache,
                          AgentAllowlistCache agentCache, AuditOutbox audit, TrimusConfig config) {
        this.modes = modes;
        this.companyLists = companyLists;
        this.agentLists = agentLists;
        this.modeCache = modeCache;
        this.companyCache = companyCache;
        this.agentCache = agentCache;
        this.audit = audit;
        this.bounds = DocumentBounds.of(config);
    }

    /** The bounds documents are held to here. */
    public DocumentBounds bounds() {
        return bounds;
    }

    /** The document in {@code tree}, checked against the allowlist's rules and this service's bounds. */
    public PolicyDocument parse(JsonNode tree) {
        return PolicyDocument.parse(tree, bounds.maxAgents());
    }

    /** The company's policy as stored: enforce and empty lists for a company that never set one. */
    @TenantTransaction
    public Uni<PolicyDocument> get(UUID companyId) {
        return stored(companyId);
    }

    /**
     * Makes {@code document} the company's whole policy, unless {@code dryRun}; answers what it changes (or would).
     * Agents the stored policy gives a list of their own and the document does not lose theirs.
     */
    public Uni<PolicyDiff> replace(UUID companyId, PolicyDocument document, boolean dryRun) {
        AuditOutbox.Stamp by = audit.stamp();
        Applied applied = new Applied();
        return TenantTransactions.asCaller(() -> oneDocumentAtATime(companyId)
                        .flatMap(locked -> stored(companyId))
                        .map(before -> PolicyDiff.between(before, document))
                        .call(diff -> dryRun || diff.isEmpty() ? Uni.createFrom().voidItem()
                                : write(companyId, document, diff, by, applied)))
                // after commit: the resolver and the proxy never act on a policy the database does not hold
                .invoke(diff -> applied.toCaches(companyId, document, this))
                .invoke(diff -> {
                    if (applied.any()) {
                        LOG.infof("Egress policy of company %s replaced by a document: mode %s, %d agent lists"
                                + " changed", companyId, PolicyDocument.word(document.mode()), diff.agents().size());
                    }
                });
    }

    /**
     * Holds the company's document lock until the transaction ends, so two documents of one company are applied one
     * after the other, each against the policy the other left (not a mix of both). Single-list changes do not take it.
     */
    private static Uni<Long> oneDocumentAtATime(UUID companyId) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select count(*) from (select pg_advisory_xact_lock(hashtextextended(?1, 0))) l",
                        Long.class)
                .setParameter(1, "egress.policy_document:" + companyId)
                .getSingleResult());
    }

    private Uni<PolicyDocument> stored(UUID companyId) {
        return modes.findById(companyId)
                // the upsert of a change returns the row anew: it must not meet this one in the session
                .call(found -> found == null ? Uni.createFrom().voidItem()
                        : Panache.getSession().invoke(session -> session.detach(found)))
                .map(found -> found == null ? EgressMode.ENFORCE : found.mode)
                .flatMap(mode -> companyLists.entriesOf(companyId)
                        .flatMap(entries -> agentLists.ownListsOf(companyId)
                                .map(agents -> new PolicyDocument(mode, entries, agents))));
    }

    private Uni<Void> write(UUID companyId, PolicyDocument document, PolicyDiff diff, AuditOutbox.Stamp by,
                            Applied applied) {
        Uni<Void> steps = Uni.createFrom().voidItem();
        if (diff.modeChanges()) {
            steps = steps.call(() -> modes.set(companyId, document.mode())
                    .invoke(stored -> applied.mode = stored.revision)
                    .call(stored -> audit.add(by.record(companyId, AuditRecord.EGRESS_POLICY_SET,
                            new AuditRecord.Target("egress_policy", null, null),
                            Map.of("mode", PolicyDocument.word(document.mode()), "via", VIA)))));
        }
        if (!diff.entries().isEmpty()) {
            Map<String, Object> details = via(PolicyDiff.details(diff.entries(), document.entries().size()));
            steps = steps.call(() -> audit.add(by.record(companyId, AuditRecord.ALLOWLIST_REPLACED,
                            new AuditRecord.Target("allowlist", null, null), details))
                    .flatMap(v -> companyLists.replace(companyId, document.entries()))
                    .invoke(revision -> applied.companyList = revision));
        }
        for (PolicyDiff.AgentChange change : diff.agents()) {
            UUID agent = change.agentId();
            List<String> list = document.agents().get(agent);
            Map<String, Object> details = PolicyDiff.details(change.entries(), list == null ? 0 : list.size());
            details.put("own_list", list != null);
            AuditRecord record = by.record(companyId, AuditRecord.ALLOWLIST_REPLACED,
                    new AuditRecord.Target(AgentAllowlistService.TARGET_TYPE, agent.toString(), null), via(details));
            steps = steps.call(() -> audit.add(record)
                    .flatMap(v -> list == null ? agentLists.remove(companyId, agent)
                            : agentLists.replace(companyId, agent, list))
                    .invoke(revision -> {
                        // null: a concurrent request removed the list first; the agent has none, as wanted
                        if (revision != null) {
                            applied.agents.put(agent, revision);
                        }
                    }));
        }
        return steps;
    }

    private static Map<String, Object> via(Map<String, Object> details) {
        details.put("via", VIA);
        return details;
    }

    /** The revisions one replacement stored, for the caches once it is committed. */
    private static final class Applied {
        private Long mode;
        private Long companyList;
        private final Map<UUID, Long> agents = new LinkedHashMap<>();

        boolean any() {
            return mode != null || companyList != null || !agents.isEmpty();
        }

        void toCaches(UUID companyId, PolicyDocument document, PolicyDocumentService to) {
            if (mode != null) {
                to.modeCache.replace(companyId, document.mode(), mode);
            }
            if (companyList != null) {
                to.companyCache.replace(companyId, document.entries(), companyList);
            }
            agents.forEach((agent, revision) -> to.agentCache.replace(companyId, agent,
                    document.agents().get(agent), revision));
        }
    }
}
