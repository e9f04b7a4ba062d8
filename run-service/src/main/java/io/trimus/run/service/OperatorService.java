package io.trimus.run.service;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.AuditRecord;
import io.trimus.run.repository.UserAccount;
import io.trimus.run.repository.UserAccountRepository;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * The platform's operator accounts, and what only an operator may do with an account: make it an operator, and hand
 * out a fresh setup link for an account without a password (the person lost theirs). Operator power never reaches a
 * link someone else holds: making a password-less account an operator ends its open links and makes a new one for the
 * operator to hand over.
 */
@ApplicationScoped
public class OperatorService {
    private static final Logger LOG = Logger.getLogger(OperatorService.class);

    private final UserAccountRepository users;
    private final SetupLinks setupLinks;
    private final AuditLog audit;

    OperatorService(UserAccountRepository users, SetupLinks setupLinks, AuditLog audit) {
        this.users = users;
        this.setupLinks = setupLinks;
        this.audit = audit;
    }

    /** An operator account, with a setup link when this call made one (never otherwise). */
    public record OperatorAccount(UserAccount user, SetupLinks.Issued link) {
    }

    /**
     * Makes {@code email} an operator: a new account gets a setup link, so does one without a password that was no
     * operator yet (its older links end). An operator already is no change (POST /api/accounts/{email}/setup-link
     * replaces a lost link). An account with a password or of the identity provider just gets the role.
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<OperatorAccount> putOperator(String email) {
        String normalized = AccountService.checkedEmail(email);
        return users.findByEmail(normalized).flatMap(existing -> {
            if (existing != null && existing.operator) {
                return Uni.createFrom().item(new OperatorAccount(existing, null));
            }
            Uni<OperatorAccount> made = existing == null
                    ? users.persist(UserAccount.operator(normalized))
                    .flatMap(user -> setupLinks.forNewAccount(user).map(link -> new OperatorAccount(user, link)))
                    : promote(existing);
            return made.call(account -> audit.record(null, AuditRecord.OPERATOR_PUT, target(account.user()),
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
        String normalized = AccountService.checkedEmail(email);
        return users.findByEmail(normalized)
                .onItem().ifNull().failWith(() -> new ProblemException(404, "Not found", "no account has the email "
                        + normalized, null))
                .flatMap(user -> setupLinks.byOperator(user).map(link -> new OperatorAccount(user, link)))
                .call(account -> audit.record(null, AuditRecord.SETUP_LINK_ISSUED, new AuditRecord.Target("account",
                        account.user().id.toString(), account.user().email),
                        AuditLog.details("expires_at", account.link().expiresAt().toString())));
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
        String normalized = AccountService.checkedEmail(email);
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
                return audit.record(null, AuditRecord.OPERATOR_REMOVED, target(user), AuditLog.details())
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

    private static AuditRecord.Target target(UserAccount user) {
        return new AuditRecord.Target("operator", user.id.toString(), user.email);
    }
}
