package io.trimus.run.service.identity;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.events.auth.CompanyRole;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.identity.Membership;
import io.trimus.run.repository.identity.MembershipRepository;
import io.trimus.run.repository.identity.UserAccount;
import io.trimus.run.repository.identity.UserAccountRepository;
import io.trimus.run.service.audit.AuditLog;
import io.trimus.run.service.company.CompanyService;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Who belongs to a company with which role, managed by its admins. Inviting an email without an account makes one,
 * and that answer alone carries its setup link; inviting an account that exists adds the membership and nothing else
 * ({@link SetupLinks}), and only an account an operator or the identity provider vouches for, or the company's own
 * invitee: another company's invitee is refused until an operator vouches for it ({@link Vouching#mayJoin}). What a
 * company sees of an account is what concerns it: the email, the role, and whether the password is set only for
 * accounts its own invitation made.
 */
@ApplicationScoped
public class MemberService {
    private static final Logger LOG = Logger.getLogger(MemberService.class);

    private final UserAccountRepository users;
    private final MembershipRepository membershipRows;
    private final Memberships memberships;
    private final CompanyService companies;
    private final SetupLinks setupLinks;
    private final TrimusConfig config;

    MemberService(UserAccountRepository users, MembershipRepository membershipRows, Memberships memberships,
                  CompanyService companies, SetupLinks setupLinks, TrimusConfig config) {
        this.users = users;
        this.membershipRows = membershipRows;
        this.memberships = memberships;
        this.companies = companies;
        this.setupLinks = setupLinks;
        this.config = config;
    }

    /**
     * A member as the API shows it: {@code passwordSet} only for an account the company's invitation made (null,
     * and left out, otherwise), {@code setupUrl} only in the answer of the invitation that made the account.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Member(String email, CompanyRole role, Instant since, Boolean passwordSet, URI setupUrl) {
    }

    /** The company's members. */
    @TenantTransaction
    public Uni<List<Member>> members(UUID companyId) {
        return companies.get(companyId).flatMap(company -> membershipRows.inCompany(companyId))
                .flatMap(list -> list.isEmpty() ? Uni.createFrom().item(List.<Member>of())
                        : users.list("id in ?1", list.stream().map(m -> m.key.userId).toList())
                        .map(accounts -> list.stream().map(m -> {
                            UserAccount user = accounts.stream().filter(u -> u.id.equals(m.key.userId)).findFirst()
                                    .orElseThrow();
                            return member(user, m, null);
                        }).toList()));
    }

    /**
     * Gives {@code email} the role in the company. No account with that email: one is made (vouched for by the
     * operator when {@code byOperator}, else by the company), and the answer carries its setup link. An account
     * exists: it gets the membership, and no link is made and none it holds is touched; 409 when a company admin adds
     * an account another company's invitation made and no operator vouches for it, and nothing changes. A member
     * already only changes role.
     */
    @TenantTransaction
    public Uni<Member> putMember(UUID companyId, String email, String role, boolean byOperator) {
        CompanyRole parsed = CompanyRole.parse(role).orElseThrow(() -> ProblemException.invalid("role",
                "must be admin, member or viewer"));
        String normalized = Accounts.checkedEmail(email);
        return companies.get(companyId).flatMap(company -> users.findByEmail(normalized))
                .flatMap(user -> (user == null ? Uni.createFrom().<Membership>nullItem()
                        : memberships.of(user, companyId))
                        .flatMap(held -> held != null ? changeRole(user, held, parsed)
                                : requireVouched(user, companyId, byOperator)
                                .flatMap(vouched -> requireRoomForMember(companyId))
                                .flatMap(room -> user != null ? join(user, companyId, parsed, null)
                                        : invite(normalized, companyId, parsed, byOperator))))
                .call(member -> memberships.record(null, companyId, AuditRecord.MEMBER_PUT, member.email(),
                        AuditLog.details("role", member.role().wireName(), "setup_link_made",
                                member.setupUrl() != null)));
    }

    private Uni<Member> changeRole(UserAccount user, Membership held, CompanyRole role) {
        return memberships.changeRole(held, role).map(m -> member(user, m, null));
    }

    /**
     * An existing account joins only when {@link Vouching#mayJoin}; otherwise 409, which names no company. Logged
     * (for the operators, who decide whether to vouch), not audited: nothing changed.
     */
    private Uni<Void> requireVouched(UserAccount user, UUID companyId, boolean byOperator) {
        if (user == null || Vouching.mayJoin(user, companyId, byOperator)) {
            return Uni.createFrom().voidItem();
        }
        LOG.infof("company %s may not add %s: another company's invitation made the account (%s) and no operator"
                + " vouches for it (POST /api/accounts/{email}/vouch)", companyId, user.email, user.invitedBy);
        return Uni.createFrom().failure(Vouching.notVouched());
    }

    /** A new account, its membership, and its setup link: the only answer that ever carries one for it. */
    private Uni<Member> invite(String email, UUID companyId, CompanyRole role, boolean byOperator) {
        return users.persist(UserAccount.invited(email, companyId, byOperator))
                .flatMap(user -> setupLinks.forNewAccount(user)
                        .flatMap(link -> join(user, companyId, role, link.url())));
    }

    private Uni<Member> join(UserAccount user, UUID companyId, CompanyRole role, URI setupUrl) {
        return memberships.join(user, companyId, role).map(m -> member(user, m, setupUrl));
    }

    private Uni<Void> requireRoomForMember(UUID companyId) {
        return membershipRows.count("key.companyId", companyId).flatMap(count ->
                count < config.auth().maxCompanyMembers() ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(ProblemException.conflict("company " + companyId + " has " + count
                + " members, the most allowed (TRIMUS_AUTH_MAX_COMPANY_MEMBERS): remove one first")));
    }

    /** Removes the person from the company; 404 when it is no member. Its sessions stay, without that company. */
    @TenantTransaction
    public Uni<Void> removeMember(UUID companyId, String email) {
        String normalized = Accounts.checkedEmail(email);
        return users.findByEmail(normalized).flatMap(user -> user == null ? Uni.createFrom().nullItem()
                        : memberships.of(user, companyId))
                .onItem().ifNull().failWith(() -> new ProblemException(404, "Not found", normalized
                        + " is not a member of company " + companyId, null))
                .call(memberships::leave)
                .call(membership -> memberships.record(null, companyId, AuditRecord.MEMBER_REMOVED, normalized,
                        AuditLog.details("role", membership.role)))
                .replaceWithVoid();
    }

    private static Member member(UserAccount user, Membership membership, URI setupUrl) {
        Boolean passwordSet = membership.key.companyId.equals(user.invitedBy) ? user.passwordHash != null : null;
        return new Member(user.email, CompanyRole.parse(membership.role).orElseThrow(), membership.createdAt,
                passwordSet, setupUrl);
    }
}
