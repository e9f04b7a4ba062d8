package io.trimus.egress.policy;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.egress.audit.AuditOutbox;
import io.trimus.events.AuditRecord;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.UUID;

/**
 * A company's egress policy: its mode stored, and the {@link EgressModeCache} that the resolver and the proxy read
 * updated once the change is committed. Absent means {@link EgressMode#ENFORCE}.
 */
@ApplicationScoped
public class EgressPolicyService {
    private static final Logger LOG = Logger.getLogger(EgressPolicyService.class);

    private final EgressPolicyRepository policies;
    private final EgressModeCache cache;
    private final AuditOutbox audit;

    EgressPolicyService(EgressPolicyRepository policies, EgressModeCache cache, AuditOutbox audit) {
        this.policies = policies;
        this.cache = cache;
        this.audit = audit;
    }

    /** A company's policy as the API shows it; {@code updatedAt} is null while the company never set one. */
    public record Policy(EgressMode mode, Instant updatedAt) {
        static Policy of(EgressPolicy stored) {
            return new Policy(stored.mode, stored.updatedAt);
        }
    }

    /** The company's policy; enforce for a company that never set one. */
    @TenantTransaction
    public Uni<Policy> get(UUID companyId) {
        return policies.findById(companyId)
                .map(stored -> stored == null ? new Policy(EgressMode.ENFORCE, null) : Policy.of(stored));
    }

    /** Makes {@code mode} the company's mode; returns the stored policy. */
    public Uni<Policy> set(UUID companyId, EgressMode mode) {
        AuditOutbox.Stamp by = audit.stamp();
        return TenantTransactions.asCaller(() -> policies.set(companyId, mode)
                        .call(stored -> audit.add(by.record(companyId, AuditRecord.EGRESS_POLICY_SET,
                                new AuditRecord.Target("egress_policy", null, null),
                                java.util.Map.of("mode", mode.name().toLowerCase(java.util.Locale.ROOT))))))
                // after commit: the resolver and the proxy never act on a mode the database does not hold
                .invoke(stored -> cache.replace(companyId, stored.mode, stored.revision))
                .invoke(stored -> LOG.infof("Egress mode of company %s is now %s", companyId, stored.mode))
                .map(Policy::of);
    }
}
