package io.trimus.run.service.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.AuditRecord;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.repository.identity.CredentialRepository;
import io.trimus.run.repository.identity.UserAccount;
import io.trimus.run.service.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * Who vouches for the person behind an account, and what that allows: the one home of these rules. Trimus sends no
 * email, so an account a company admin's invitation made is whoever that admin handed the setup link to; that company
 * vouches for it to itself and to nobody else. Another company's admin may add it only once an operator or the
 * identity provider vouches for it ({@link #mayJoin}); when one does, whatever a company's link opened ends
 * ({@link #takeOver}).
 */
@ApplicationScoped
public class Vouching {
    /** The refusal of a company admin adding an account another company's invitation made; it names no company. */
    public static final String NOT_VOUCHED = "this email's account was created by another company's invitation; an"
            + " operator must vouch for it before another company can add it";

    private final SetupLinks setupLinks;
    private final CredentialRepository credentials;
    private final AuditLog audit;

    Vouching(SetupLinks setupLinks, CredentialRepository credentials, AuditLog audit) {
        this.setupLinks = setupLinks;
        this.credentials = credentials;
        this.audit = audit;
    }

    /**
     * Whether the existing account may be added to the company: always by an operator; by a company admin when an
     * operator or the identity provider vouches for the account, or the company's own invitation made it.
     */
    public static boolean mayJoin(UserAccount user, UUID companyId, boolean byOperator) {
        return byOperator || !UserAccount.BY_COMPANY.equals(user.vouchedBy) || companyId.equals(user.invitedBy);
    }

    /** 409: the account is another company's invitee ({@link #NOT_VOUCHED}). */
    public static ProblemException notVouched() {
        return ProblemException.conflict(NOT_VOUCHED);
    }

    /**
     * {@code by} ({@link UserAccount#BY_OPERATOR} or {@link UserAccount#BY_PROVIDER}) vouches for the account from
     * now on: its open setup links end, and a password set through a link a company admin handed out ends with every
     * session of the account (whoever the admin gave the link to need not be the person now vouched for), audited
     * {@code password.removed} by {@code actor} (null: the request's caller) with {@code details}. A password an
     * operator's link set stays. Joins the caller's transaction, which has locked the account's row
     * ({@link io.trimus.run.repository.identity.UserAccountRepository#lockByEmail}); true when a password was removed.
     */
    public Uni<Boolean> takeOver(UserAccount user, String by, AuditRecord.Actor actor, Map<String, Object> details) {
        Instant now = Instant.now();
        boolean companysPassword = user.passwordHash != null && UserAccount.BY_COMPANY.equals(user.vouchedBy);
        user.vouchedBy = by;
        Uni<Integer> linksEnded = setupLinks.revokeAll(user, now);
        if (!companysPassword) {
            return linksEnded.replaceWith(false);
        }
        user.passwordHash = null;
        AuditRecord.Target target = new AuditRecord.Target("account", user.id.toString(), user.email);
        return linksEnded
                .call(() -> TenantTransactions.acrossCompanies(() -> credentials.revokeAllOf(user.id,
                        Credential.SESSION, now)))
                .call(() -> actor == null ? audit.record(null, AuditRecord.PASSWORD_REMOVED, target, details)
                        : audit.record(actor, null, AuditRecord.PASSWORD_REMOVED, target, details))
                .replaceWith(true);
    }
}
