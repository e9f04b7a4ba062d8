package io.trimus.run.service.identity.oidc;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.events.auth.CompanyRole;
import io.trimus.run.repository.company.Company;
import io.trimus.run.repository.company.CompanyRepository;
import io.trimus.run.repository.identity.Membership;
import io.trimus.run.repository.identity.UserAccount;
import io.trimus.run.repository.identity.UserAccountRepository;
import io.trimus.run.service.identity.Accounts;
import io.trimus.run.service.identity.Memberships;
import io.trimus.run.service.identity.OperatorService;
import io.trimus.run.service.identity.Sessions;
import io.trimus.run.service.audit.AuditLog;
import io.trimus.run.service.identity.Vouching;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The accounts of people who sign in through the identity provider: the account of the token's email (created
 * without a password when missing, and the provider's from then on: {@link #vouchFor}) gets exactly the operator flag
 * and memberships the provider grants, each change audited, and a session, all in one transaction. A person granted
 * no role gets 403 and nothing changes.
 */
@ApplicationScoped
public class OidcAccounts {
    private static final Logger LOG = Logger.getLogger(OidcAccounts.class);

    private final UserAccountRepository users;
    private final Memberships memberships;
    private final CompanyRepository companies;
    private final Sessions sessions;
    private final AuditLog audit;
    private final Vouching vouching;

    OidcAccounts(UserAccountRepository users, Memberships memberships, CompanyRepository companies,
                 Sessions sessions, AuditLog audit, Vouching vouching) {
        this.users = users;
        this.memberships = memberships;
        this.companies = companies;
        this.sessions = sessions;
        this.audit = audit;
        this.vouching = vouching;
    }

    /**
     * Sets the person's roles to the provider's grants and opens a session; 403 when it grants none. Across companies:
     * the caller is anonymous until the verified token says who it is, and the grants name any company.
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Sessions.OpenedSession> signIn(ProviderIdentity identity) {
        Set<UUID> named = identity.grants().companies().keySet();
        Uni<List<Company>> known = named.isEmpty() ? Uni.createFrom().item(List.of())
                : companies.list("id in ?1", List.copyOf(named));
        return known.flatMap(found -> {
            Set<UUID> ids = found.stream().map(c -> c.id).collect(Collectors.toSet());
            named.stream().filter(id -> !ids.contains(id)).forEach(id -> LOG.warnf("the identity provider grants %s"
                    + " a role in company %s, which does not exist here: ignored", identity.email(), id));
            Grants grants = identity.grants().within(ids);
            if (grants.none()) {
                return Uni.createFrom().failure(OidcSignIn.refused("your identity provider grants no Trimus role"));
            }
            // locked: no password sign-in opens a session while the provider takes the account over
            return users.lockByEmail(identity.email())
                    .flatMap(user -> user != null ? vouchFor(user)
                            : users.persist(UserAccount.ofProvider(identity.email())))
                    .call(user -> setOperator(user, grants.operator()))
                    .call(user -> setMemberships(user, grants.companies()))
                    .flatMap(user -> sessions.openSessionOf(user, AuditLog.details("through", "identity provider",
                            "issuer", identity.issuer(), "subject", identity.subject())));
        });
    }

    /**
     * The provider vouches for the account from now on ({@link Vouching#takeOver}): its setup links end (none is ever
     * made again), and an account a company's invitation made loses the password and the sessions it had, since
     * whoever that admin handed the link to need not be the person the provider vouches for, and would otherwise hold
     * every role the provider grants. An account an operator vouched for keeps its password.
     */
    private Uni<UserAccount> vouchFor(UserAccount user) {
        if (UserAccount.BY_PROVIDER.equals(user.vouchedBy)) {
            return Uni.createFrom().item(user);
        }
        return vouching.takeOver(user, UserAccount.BY_PROVIDER, Accounts.userActor(user), AuditLog.details(
                "through", "identity provider", "why", "the account was made by a company's invitation; the identity"
                        + " provider vouches for it now")).replaceWith(user);
    }

    private Uni<Void> setOperator(UserAccount user, boolean operator) {
        if (user.operator == operator) {
            return Uni.createFrom().voidItem();
        }
        user.operator = operator;
        return audit.record(Accounts.userActor(user), null, AuditRecord.OPERATOR_PUT,
                OperatorService.operatorTarget(user), AuditLog.details("operator", operator, "through",
                        "identity provider")).replaceWithVoid();
    }

    private Uni<Void> setMemberships(UserAccount user, Map<UUID, CompanyRole> granted) {
        return memberships.ofUser(user).flatMap(held -> {
            Map<UUID, Membership> current = new HashMap<>();
            held.forEach(m -> current.put(m.key.companyId, m));
            List<Uni<?>> changes = new ArrayList<>();
            for (Membership membership : held) {
                if (!granted.containsKey(membership.key.companyId)) {
                    changes.add(memberships.leave(membership).call(() -> record(user, membership.key.companyId,
                            AuditRecord.MEMBER_REMOVED, membership.role)));
                }
            }
            granted.forEach((companyId, role) -> {
                Membership existing = current.get(companyId);
                if (existing == null) {
                    changes.add(memberships.join(user, companyId, role).call(() -> record(user, companyId,
                            AuditRecord.MEMBER_PUT, role.wireName())));
                } else if (!existing.role.equals(role.wireName())) {
                    changes.add(memberships.changeRole(existing, role).call(() -> record(user, companyId,
                            AuditRecord.MEMBER_PUT, role.wireName())));
                }
            });
            // one after the other: a reactive session runs one statement at a time
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Uni<?> change : changes) {
                chain = chain.call(() -> change);
            }
            return chain;
        });
    }

    private Uni<AuditRecord> record(UserAccount user, UUID companyId, String action, String role) {
        return memberships.record(Accounts.userActor(user), companyId, action, user.email,
                AuditLog.details("role", role, "through", "identity provider"));
    }
}
