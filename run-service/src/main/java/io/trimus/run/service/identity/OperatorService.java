package io.trimus.run.service.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.AuditRecord;
import io.trimus.run.repository.identity.UserAccount;
import io.trimus.run.repository.identity.UserAccountRepository;
import io.trimus.run.service.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * The platform's operator accounts, and what only an operator may do with an account: make it an operator, hand out a
 * fresh setup link for an account without a password (the person lost theirs), and vouch for the person behind an
 * account a company's invitation made. Operator power never reaches a link or a password someone else holds: making a
 * password-less account an operator, or vouching for an account, ends what a company's link opened and makes a new
 * link for the operator to hand over.
 */
@ApplicationScoped
public class OperatorService {
    private static final Logger LOG = Logger.getLogger(OperatorService.class);

    private final UserAccountRepository users;
    private final SetupLinks setupLinks;
    private final Vouching vouching;
    private final AuditLog audit;

    OperatorService(UserAccountRepository users, SetupLinks setupLinks, Vouching vouching, AuditLog audit) {
        this.users = users;
        this.setupLinks = setupLinks;
        this.vouching = vouching;
        this.audit = audit;
    }

    /** An operator account, with a setup link when this call made one (never otherwise). */
    public record OperatorAccount(UserAccount user, SetupLinks.Issued link) {
    }

    /** An account an operator vouched for: whether that ended a password, and the fresh link when one was made. */
    public record Vouched(UserAccount user, boolean passwordRemoved, SetupLinks.Issued link) {
    }

    /**
     * Makes {@code email} an operator: a new account gets a setup link, so does one without a password that was no
     * operator yet (its older links end). An operator already is no change (POST /api/accounts/{email}/setup-link
     * replaces a lost link). An account with a password or of the identity provider just gets the role.
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<OperatorAccount> putOperator(String email) {
        String normalized = Accounts.checkedEmail(email);
        return users.findByEmail(normalized).flatMap(existing -> {
            if (existing != null && existing.operator) {
                return Uni.createFrom().item(new OperatorAccount(existing, null));
            }
            Uni<OperatorAccount> made = existing == null
                    ? users.persist(UserAccount.operator(normalized))
                    .flatMap(user -> setupLinks.forNewAccount(user).map(link -> new OperatorAccount(user, link)))
                    : promote(existing);
            return made.call(account -> audit.record(null, AuditRecord.OPERATOR_PUT, operatorTarget(account.user()),
                    AuditLog.details("setup_link_made", account.link() != null)));
        });
    }

    private Uni<OperatorAccount> promote(UserAccount user) {
        user.operator = true;
        if (!user.awaitsSetup()) {
            return Uni.createFrom().item(new OperatorAccount(user, null));
        }
        return setupLinks.byOperator(user).map(link -> new OperatorAccount(user, link));
    }

    /**
     * A fresh setup link for the account of {@code email}, issued by an operator: 404 without such an account, 409
     * when it has a password or signs in through the identity provider. The account's older links end.
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<OperatorAccount> issueSetupLink(String email) {
        String normalized = Accounts.checkedEmail(email);
        return users.findByEmail(normalized)
                .onItem().ifNull().failWith(() -> new ProblemException(404, "Not found", "no account has the email "
                        + normalized, null))
                .flatMap(user -> setupLinks.byOperator(user).map(link -> new OperatorAccount(user, link)))
                .call(account -> audit.record(null, AuditRecord.SETUP_LINK_ISSUED, new AuditRecord.Target("account",
                        account.user().id.toString(), account.user().email),
                        AuditLog.details("expires_at", account.link().expiresAt().toString())));
    }

    /**
     * An operator vouches for the account of {@code email}: "this is really that person", so any company may add it
     * from now on. An account a company's invitation made becomes the operator's: its open links end, a password set
     * through a company's link ends with every session of the account (audited {@code password.removed}), and the
     * answer carries a fresh link for the operator to hand to the person (audited {@code account.vouched}). 404
     * without such an account; one an operator or the identity provider vouches for already is no change (no link).
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Vouched> vouch(String email) {
        String normalized = Accounts.checkedEmail(email);
        return users.lockByEmail(normalized)
                .onItem().ifNull().failWith(() -> new ProblemException(404, "Not found", "no account has the email "
                        + normalized, null))
                .flatMap(user -> !UserAccount.BY_COMPANY.equals(user.vouchedBy)
                        ? Uni.createFrom().item(new Vouched(user, false, null))
                        : vouching.takeOver(user, UserAccount.BY_OPERATOR, null, AuditLog.details("through",
                                        "operator", "why", "the account was made by a company's invitation; an"
                                                + " operator vouches for it now"))
                                .flatMap(removed -> setupLinks.byOperator(user)
                                        .map(link -> new Vouched(user, removed, link)))
                                .call(vouched -> audit.record(null, AuditRecord.ACCOUNT_VOUCHED,
                                        new AuditRecord.Target("account", user.id.toString(), user.email),
                                        AuditLog.details("by", UserAccount.BY_OPERATOR, "password_removed",
                                                vouched.passwordRemoved(), "expires_at",
                                                vouched.link().expiresAt().toString()))));
    }

    /** The operator accounts, by email. */
    @TenantTransaction
    public Uni<List<UserAccount>> operators() {
        return users.list("operator = true order by email");
    }

    /**
     * Takes the operator role from {@code email} (its sessions lose it from their next request); 404 when it is no
     * operator, 409 when it is the last operator account.
     */
    @TenantTransaction
    public Uni<Void> removeOperator(String email) {
        String normalized = Accounts.checkedEmail(email);
        return users.findByEmail(normalized).flatMap(user -> {
            if (user == null || !user.operator) {
                return Uni.createFrom().failure(new ProblemException(404, "Not found", normalized
                        + " is not an operator", null));
            }
            return users.count("operator = true").flatMap(count -> {
                if (count <= 1) {
                    return Uni.createFrom().failure(ProblemException.conflict(normalized + " is the last operator"
                            + " account: make another operator first"));
                }
                user.operator = false;
                return audit.record(null, AuditRecord.OPERATOR_REMOVED, operatorTarget(user), AuditLog.details())
                        .replaceWithVoid();
            });
        });
    }

    /**
     * The bootstrap operator at start: the account of {@code email} made an operator (created if missing) and, while
     * it has no password, a fresh setup link (older ones end). Runs in its own transaction.
     */
    public Uni<OperatorAccount> bootstrapOperator(String email) {
        return TenantTransactions.acrossCompanies(() -> putOperator(email).flatMap(account -> {
            UserAccount user = account.user();
            if (account.link() != null || !user.awaitsSetup()) {
                if (user.passwordHash != null && UserAccount.BY_COMPANY.equals(user.vouchedBy)) {
                    LOG.warnf("the bootstrap operator %s has a password set through a link a company admin handed"
                            + " out: check who holds it, or take the operator role from it", user.email);
                }
                return Uni.createFrom().item(account);
            }
            return setupLinks.byOperator(user).map(link -> new OperatorAccount(user, link));
        }));
    }

    /** An operator in an audit record; the identity provider's changes of the flag name it the same way. */
    public static AuditRecord.Target operatorTarget(UserAccount user) {
        return new AuditRecord.Target("operator", user.id.toString(), user.email);
    }
}
