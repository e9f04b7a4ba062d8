package io.trimus.run.service;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.AuditRecord;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.auth.Caller;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.Credential;
import io.trimus.run.repository.CredentialRepository;
import io.trimus.run.repository.UserAccount;
import io.trimus.run.repository.UserAccountRepository;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Built-in accounts: signing in with email and password (a session credential for the dashboard), and first passwords
 * set through one-time setup links ({@link SetupLinks} decides who gets one). Members are {@link MemberService}'s,
 * operators {@link OperatorService}'s.
 */
@ApplicationScoped
public class AccountService {
    private static final Logger LOG = Logger.getLogger(AccountService.class);
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[A-Za-z0-9.-]{1,189}");
    /** Most open sessions of one user; signing in once more ends the oldest. */
    public static final int MAX_SESSIONS_PER_USER = 20;

    private final UserAccountRepository users;
    private final CredentialRepository credentials;
    private final CallerDirectory callers;
    private final TrimusConfig config;
    private final PasswordChecks passwords;
    private final AuditLog audit;
    private final SignInThrottle throttle;

    AccountService(UserAccountRepository users, CredentialRepository credentials, CallerDirectory callers,
                   TrimusConfig config, PasswordChecks passwords, AuditLog audit, SignInThrottle throttle) {
        this.users = users;
        this.credentials = credentials;
        this.callers = callers;
        this.config = config;
        this.passwords = passwords;
        this.audit = audit;
        this.throttle = throttle;
    }

    /** A session just opened: its value (this once), its end, and who it speaks for. */
    public record OpenedSession(String secret, Instant expiresAt, Caller caller) {
    }

    /**
     * Signs in: a new session, or 401 for a wrong email or password (the same answer for both). The password check
     * waits its turn among those of {@code from}'s source ({@link PasswordChecks}).
     */
    public Uni<OpenedSession> signIn(String email, String password, AuditRecord.Source from) {
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
        return TenantTransactions.acrossCompanies(() -> users.findByEmail(normalized)).flatMap(user -> {
            String checked = user == null ? null : user.passwordHash;
            return passwords.matches(from, checked, password).flatMap(ok -> {
                if (!ok) {
                    LOG.infof("failed password sign-in for %s", normalized);
                    throttle.failed(normalized, Instant.now());
                    return Uni.createFrom().failure(wrongSignIn());
                }
                return openSession(user, checked);
            });
        });
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

    /**
     * Sets the first password through a setup link; the link is used up and older sessions end. A link that is
     * unknown, used or expired, or whose account has a password or signs in through the identity provider, is 400
     * before any bcrypt is spent.
     */
    public Uni<UserAccount> completeSetup(String secret, String password, AuditRecord.Source from) {
        Passwords.requireAcceptable(password);
        if (secret == null || secret.length() > 200) {
            return Uni.createFrom().failure(badSetupLink());
        }
        byte[] hashOfSecret = BearerSecrets.hash(secret);
        return TenantTransactions.acrossCompanies(() -> usableLink(hashOfSecret, Instant.now()))
                .flatMap(found -> passwords.hash(from, password))
                .flatMap(hash -> TenantTransactions.acrossCompanies(() -> usableLink(hashOfSecret, Instant.now())
                        .flatMap(found -> {
                            Instant now = Instant.now();
                            UserAccount user = found.user();
                            // used once: of two setups racing with one link, the second finds it revoked
                            return credentials.update("revokedAt = ?1 where id = ?2 and revokedAt is null", now,
                                            found.link().id)
                                    .flatMap(used -> used == 1 ? Uni.createFrom().voidItem()
                                            : Uni.createFrom().failure(badSetupLink()))
                                    .invoke(() -> user.passwordHash = hash)
                                    .flatMap(v -> credentials.revokeAllOf(user.id, Credential.SESSION, now))
                                    .call(n -> audit.record(userActor(user), null, AuditRecord.PASSWORD_SET,
                                            new AuditRecord.Target("account", user.id.toString(), user.email),
                                            AuditLog.details("through", "setup link")))
                                    .replaceWith(user);
                        })));
    }

    private record UsableLink(Credential link, UserAccount user) {
    }

    private Uni<UsableLink> usableLink(byte[] hashOfSecret, Instant now) {
        return credentials.findByHash(hashOfSecret).flatMap(link -> {
            if (link == null || !Credential.SETUP.equals(link.kind) || !link.isActive(now)) {
                return Uni.createFrom().failure(badSetupLink());
            }
            return users.findById(link.userId).flatMap(user -> user == null || !user.awaitsSetup()
                    ? Uni.createFrom().failure(badSetupLink())
                    : Uni.createFrom().item(new UsableLink(link, user)));
        });
    }

    /**
     * The session of a password sign-in, opened only while the password checked ({@code checked}) still holds: the
     * account's row is held until the session is in, so a vouch that ends the password (it locks the row first) either
     * waits for this session and ends it, or has ended the password and this sign-in gets 401.
     */
    private Uni<OpenedSession> openSession(UserAccount user, String checked) {
        return TenantTransactions.acrossCompanies(() -> users.passwordHashHeld(user.id).flatMap(held ->
                checked.equals(held) ? openSessionOf(user, AuditLog.details())
                        : Uni.createFrom().failure(wrongSignIn())));
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
                + " ask an operator for a new one", "token");
    }
}
