package io.trimus.run.service;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.AuditRecord;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.auth.Caller;
import io.trimus.events.auth.CompanyRole;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.Credential;
import io.trimus.run.repository.CredentialRepository;
import io.trimus.run.repository.Membership;
import io.trimus.run.repository.MembershipRepository;
import io.trimus.run.repository.UserAccount;
import io.trimus.run.repository.UserAccountRepository;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Built-in accounts: signing in with email and password (a session credential for the dashboard), first passwords set
 * through one-time setup links, and who belongs to which company with which role.
 */
@ApplicationScoped
public class AccountService {
    private static final Logger LOG = Logger.getLogger(AccountService.class);
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[A-Za-z0-9.-]{1,189}");
    /** Most open sessions of one user; signing in once more ends the oldest. */
    public static final int MAX_SESSIONS_PER_USER = 20;

    private final UserAccountRepository users;
    private final MembershipRepository memberships;
    private final CredentialRepository credentials;
    private final CompanyService companies;
    private final CallerDirectory callers;
    private final TrimusConfig config;
    private final Passwords passwords;
    private final Vertx vertx;
    private final AuditLog audit;
    private final SignInThrottle throttle;
    private final AtomicInteger checking = new AtomicInteger();

    AccountService(UserAccountRepository users, MembershipRepository memberships, CredentialRepository credentials,
                   CompanyService companies, CallerDirectory callers, TrimusConfig config, Vertx vertx,
                   AuditLog audit, SignInThrottle throttle) {
        this.audit = audit;
        this.throttle = throttle;
        this.users = users;
        this.memberships = memberships;
        this.credentials = credentials;
        this.companies = companies;
        this.callers = callers;
        this.config = config;
        this.passwords = new Passwords(config.auth().bcryptCost());
        this.vertx = vertx;
    }

    /** A session just opened: its value (this once), its end, and who it speaks for. */
    public record OpenedSession(String secret, Instant expiresAt, Caller caller) {
    }

    /** A member as the API shows it, with a setup link when the account has no password yet and one was made. */
    public record Member(UUID userId, String email, CompanyRole role, Instant since, boolean passwordSet,
                         URI setupUrl) {
    }

    /** An account that was given a setup link. */
    public record SetupLink(UserAccount user, URI url) {
    }

    /** Signs in: a new session, or 401 for a wrong email or password (the same answer for both). */
    public Uni<OpenedSession> signIn(String email, String password) {
        if (email == null || password == null || email.length() > 254) {
            return Uni.createFrom().failure(wrongSignIn());
        }
        String normalized = email.strip().toLowerCase(Locale.ROOT);
        Optional<Duration> refused = throttle.refusedFor(normalized, Instant.now());
        if (refused.isPresent()) {
            LOG.warnf("password sign-in for %s refused: too many failed attempts", normalized);
            return Uni.createFrom().failure(new ProblemException(429, "Too many requests", "too many failed"
                    + " sign-ins for this email; try again in " + Math.max(1, refused.get().toMinutes() + 1)
                    + " minutes, or use an API token", null));
        }
        return TenantTransactions.acrossCompanies(() -> users.findByEmail(normalized))
                .flatMap(user -> check(user == null ? null : user.passwordHash, password).flatMap(ok -> {
                    if (!ok) {
                        LOG.infof("failed password sign-in for %s", normalized);
                        throttle.failed(normalized, Instant.now());
                        return Uni.createFrom().failure(wrongSignIn());
                    }
                    throttle.succeeded(normalized);
                    return openSession(user);
                }));
    }

    /** Ends the session presented as {@code secret}; a secret that is no session changes nothing. */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Void> signOut(String secret) {
        return credentials.findByHash(BearerSecrets.hash(secret)).flatMap(credential -> {
            if (credential != null && Credential.SESSION.equals(credential.kind) && credential.revokedAt == null) {
                credential.revokedAt = Instant.now();
                return audit.record(null, AuditRecord.SESSION_CLOSED, session(credential), AuditLog.details())
                        .replaceWithVoid();
            }
            return Uni.createFrom().voidItem();
        });
    }

    /** Sets the first (or a reset) password through a setup link; the link is used up and older sessions end. */
    public Uni<UserAccount> completeSetup(String secret, String password) {
        Passwords.requireAcceptable(password);
        if (secret == null || secret.length() > 200) {
            return Uni.createFrom().failure(badSetupLink());
        }
        return vertx.executeBlocking(Uni.createFrom().item(() -> passwords.hash(password.toCharArray())))
                .flatMap(hash -> TenantTransactions.acrossCompanies(() -> credentials.findByHash(BearerSecrets.hash(secret))
                        .flatMap(link -> {
                            Instant now = Instant.now();
                            if (link == null || !Credential.SETUP.equals(link.kind) || !link.isActive(now)) {
                                return Uni.createFrom().failure(badSetupLink());
                            }
                            link.revokedAt = now;
                            return users.findById(link.userId).call(user -> {
                                user.passwordHash = hash;
                                return credentials.revokeAllOf(user.id, Credential.SESSION, now);
                            }).call(user -> audit.record(userActor(user), null, AuditRecord.PASSWORD_SET,
                                    new AuditRecord.Target("account", user.id.toString(), user.email),
                                    AuditLog.details("through", "setup link")));
                        })));
    }

    /** The company's members. */
    @TenantTransaction
    public Uni<List<Member>> members(UUID companyId) {
        return companies.get(companyId).flatMap(company -> memberships.inCompany(companyId))
                .flatMap(list -> list.isEmpty() ? Uni.createFrom().item(List.<Member>of())
                        : users.list("id in ?1", list.stream().map(m -> m.key.userId).toList())
                        .map(accounts -> list.stream().map(m -> {
                            UserAccount user = accounts.stream().filter(u -> u.id.equals(m.key.userId)).findFirst()
                                    .orElseThrow();
                            return member(user, m, null);
                        }).toList()));
    }

    /**
     * Gives {@code email} the role in the company, creating the account when there is none; a new account (or one
     * still without a password) gets a fresh setup link in the answer.
     */
    @TenantTransaction
    public Uni<Member> putMember(UUID companyId, String email, String role) {
        CompanyRole parsed = CompanyRole.parse(role).orElseThrow(() -> ProblemException.invalid("role",
                "must be admin, member or viewer"));
        String normalized = checkedEmail(email);
        return companies.get(companyId).flatMap(company -> accountOf(normalized, false))
                .flatMap(user -> memberships.findById(new Membership.Key(user.id, companyId))
                        .flatMap(existing -> existing != null ? saveMember(user, existing, parsed)
                                : requireRoomForMember(companyId).flatMap(room -> saveMember(user,
                                newMembership(user.id, companyId), parsed))))
                .call(member -> audit.record(companyId, AuditRecord.MEMBER_PUT, new AuditRecord.Target("member",
                        member.userId().toString(), member.email()), AuditLog.details("role",
                        member.role().wireName(), "setup_link_made", member.setupUrl() != null)));
    }

    private Uni<Void> requireRoomForMember(UUID companyId) {
        return memberships.count("key.companyId", companyId).flatMap(count -> count < config.auth().maxCompanyMembers()
                ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(ProblemException.conflict("company " + companyId + " has " + count
                + " members, the most allowed (TRIMUS_AUTH_MAX_COMPANY_MEMBERS): remove one first")));
    }

    private static Membership newMembership(UUID userId, UUID companyId) {
        Membership membership = new Membership();
        membership.key = new Membership.Key(userId, companyId);
        membership.createdAt = Instant.now();
        return membership;
    }

    private Uni<Member> saveMember(UserAccount user, Membership membership, CompanyRole role) {
        membership.role = role.wireName();
        Uni<URI> link = user.passwordHash == null ? newSetupLink(user) : Uni.createFrom().nullItem();
        return memberships.persist(membership).flatMap(m -> link).map(url -> member(user, membership, url));
    }

    /** Removes the person from the company; 404 when it is no member. Its sessions stay, without that company. */
    @TenantTransaction
    public Uni<Void> removeMember(UUID companyId, String email) {
        String normalized = checkedEmail(email);
        return users.findByEmail(normalized).flatMap(user -> user == null ? Uni.createFrom().nullItem()
                        : memberships.findById(new Membership.Key(user.id, companyId)))
                .onItem().ifNull().failWith(() -> new ProblemException(404, "Not found", normalized
                        + " is not a member of company " + companyId, null))
                .call(memberships::delete)
                .call(membership -> audit.record(companyId, AuditRecord.MEMBER_REMOVED, new AuditRecord.Target("member",
                        membership.key.userId.toString(), normalized), AuditLog.details("role", membership.role)))
                .replaceWithVoid();
    }

    /** Makes {@code email} an operator, creating the account when there is none (with a setup link then). */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<SetupLink> putOperator(String email) {
        String normalized = checkedEmail(email);
        return users.findByEmail(normalized).flatMap(existing -> {
            // making an operator of one is no change: the bootstrap operator at every start, for one
            boolean already = existing != null && existing.operator;
            return accountOf(normalized, true).flatMap(user -> {
                user.operator = true;
                return (user.passwordHash == null ? newSetupLink(user) : Uni.createFrom().<URI>nullItem())
                        .map(url -> new SetupLink(user, url));
            }).call(link -> already ? Uni.createFrom().voidItem() : audit.record(null, AuditRecord.OPERATOR_PUT,
                    new AuditRecord.Target("operator", link.user().id.toString(), link.user().email),
                    AuditLog.details("setup_link_made", link.url() != null)));
        });
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
        String normalized = checkedEmail(email);
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
                return audit.record(null, AuditRecord.OPERATOR_REMOVED, new AuditRecord.Target("operator",
                        user.id.toString(), user.email), AuditLog.details()).replaceWithVoid();
            });
        });
    }

    /**
     * The bootstrap operator: the account of {@code email} made an operator, with a setup link while it has no
     * password (older links revoked). Runs in its own transaction.
     */
    public Uni<SetupLink> bootstrapOperator(String email) {
        return TenantTransactions.acrossCompanies(() -> putOperator(email));
    }

    private Uni<UserAccount> accountOf(String email, boolean operator) {
        return users.findByEmail(email).flatMap(user -> user != null ? Uni.createFrom().item(user)
                : users.persist(UserAccount.of(email, operator)));
    }

    private Uni<URI> newSetupLink(UserAccount user) {
        Instant now = Instant.now();
        String secret = BearerSecrets.generate(BearerSecrets.SETUP_PREFIX);
        Credential link = Credential.ofUser(Credential.SETUP, "setup link", user.id, BearerSecrets.hash(secret),
                "run-service", now, now.plus(config.auth().setupLinkTtl()));
        // The secret rides in the fragment: browsers send it to no server and no Referer carries it.
        URI url = URI.create(config.dashboard().url().toString().replaceAll("/+$", "") + "/setup#" + secret);
        // the user's own credentials carry no company: the caller's right to issue it was checked by the caller
        return TenantTransactions.acrossCompanies(() -> credentials.revokeAllOf(user.id, Credential.SETUP, now)
                .flatMap(n -> credentials.persist(link))).replaceWith(url);
    }

    private Uni<Boolean> check(String hash, String password) {
        int running = checking.incrementAndGet();
        if (running > config.auth().maxConcurrentPasswordChecks()) {
            checking.decrementAndGet();
            return Uni.createFrom().failure(new ProblemException(429, "Too many requests", "too many sign-ins at"
                    + " once; try again in a moment", null));
        }
        return vertx.executeBlocking(Uni.createFrom().item(() -> passwords.matches(hash, password.toCharArray())))
                .eventually(checking::decrementAndGet);
    }

    private Uni<OpenedSession> openSession(UserAccount user) {
        return TenantTransactions.acrossCompanies(() -> openSessionOf(user, AuditLog.details()));
    }

    /**
     * A new session of {@code user} (at most {@value #MAX_SESSIONS_PER_USER} open: the oldest beyond ends), recorded
     * with {@code details}; joins the caller's transaction.
     */
    public Uni<OpenedSession> openSessionOf(UserAccount user, java.util.Map<String, Object> details) {
        Instant now = Instant.now();
        String secret = BearerSecrets.generate(BearerSecrets.SESSION_PREFIX);
        Credential session = Credential.ofUser(Credential.SESSION, "sign-in", user.id, BearerSecrets.hash(secret),
                "user " + user.email, now, now.plus(config.session().ttl()));
        return credentials.persistAndFlush(session)
                .call(saved -> credentials.revokeSessionsBeyond(user.id, MAX_SESSIONS_PER_USER, now))
                .call(saved -> audit.record(userActor(user), null, AuditRecord.SESSION_OPENED, session(saved),
                        details))
                .flatMap(callers::callerOf)
                .map(caller -> new OpenedSession(secret, session.expiresAt, caller));
    }

    /** The user as the actor of an audit record. */
    public static AuditRecord.Actor userActor(UserAccount user) {
        return new AuditRecord.Actor(AuditRecord.Actor.USER, user.id, user.email);
    }

    /** A session in an audit record: its id, never its value. */
    private static AuditRecord.Target session(Credential session) {
        return new AuditRecord.Target("session", session.id.toString(), null);
    }

    private static Member member(UserAccount user, Membership membership, URI setupUrl) {
        return new Member(user.id, user.email, CompanyRole.parse(membership.role).orElseThrow(), membership.createdAt,
                user.passwordHash != null, setupUrl);
    }

    /** {@code email} lower-cased, or a 400 problem when it is no email address. */
    public static String checkedEmail(String email) {
        String normalized = email == null ? "" : email.strip().toLowerCase(Locale.ROOT);
        if (normalized.length() > 254 || !EMAIL.matcher(normalized).matches()) {
            throw ProblemException.invalid("email", "must be an email address (at most 254 characters)");
        }
        return normalized;
    }

    private static ProblemException wrongSignIn() {
        return new ProblemException(401, "Unauthorized", "wrong email or password", null);
    }

    private static ProblemException badSetupLink() {
        return new ProblemException(400, "Invalid request", "token: the setup link is unknown, used or expired;"
                + " ask an admin for a new one", "token");
    }
}
