package io.trimus.run.service.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.events.AuditRecord;
import io.trimus.events.auth.CompanyRole;
import io.trimus.run.repository.identity.Membership;
import io.trimus.run.repository.identity.MembershipRepository;
import io.trimus.run.repository.identity.UserAccount;
import io.trimus.run.service.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The one home of a membership's changes, whoever makes them (a company admin or an operator through
 * {@link MemberService}, the identity provider through {@code OidcAccounts}): joining a company with a role, changing
 * the role, leaving, and the audit record of each ({@code member.put}, {@code member.removed}). Joins the caller's
 * transaction; who may make which change is the caller's to decide.
 */
@ApplicationScoped
public class Memberships {
    private final MembershipRepository memberships;
    private final AuditLog audit;

    Memberships(MembershipRepository memberships, AuditLog audit) {
        this.memberships = memberships;
        this.audit = audit;
    }

    /** The user's membership of the company, or null. */
    public Uni<Membership> of(UserAccount user, UUID companyId) {
        return memberships.findById(new Membership.Key(user.id, companyId));
    }

    /** Every membership of the user. */
    public Uni<List<Membership>> ofUser(UserAccount user) {
        return memberships.ofUser(user.id);
    }

    /** The user joins the company with the role. */
    public Uni<Membership> join(UserAccount user, UUID companyId, CompanyRole role) {
        Membership membership = new Membership();
        membership.key = new Membership.Key(user.id, companyId);
        membership.createdAt = Instant.now();
        membership.role = role.wireName();
        return memberships.persist(membership);
    }

    /** The member's role becomes {@code role}. */
    public Uni<Membership> changeRole(Membership held, CompanyRole role) {
        held.role = role.wireName();
        return memberships.persist(held);
    }

    /** The member leaves the company. */
    public Uni<Void> leave(Membership held) {
        return memberships.delete(held);
    }

    /**
     * Records a membership change ({@link AuditRecord#MEMBER_PUT} or {@link AuditRecord#MEMBER_REMOVED}) of the
     * member {@code email} in the company, by {@code actor} (null: the request's caller).
     */
    public Uni<AuditRecord> record(AuditRecord.Actor actor, UUID companyId, String action, String email,
                                   Map<String, Object> details) {
        AuditRecord.Target member = new AuditRecord.Target("member", null, email);
        return actor == null ? audit.record(companyId, action, member, details)
                : audit.record(actor, companyId, action, member, details);
    }
}
