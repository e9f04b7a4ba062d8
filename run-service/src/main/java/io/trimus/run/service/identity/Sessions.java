package io.trimus.run.service.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.AuditRecord;
import io.trimus.events.auth.Caller;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.repository.identity.CredentialRepository;
import io.trimus.run.repository.identity.UserAccount;
import io.trimus.run.repository.identity.UserAccountRepository;
import io.trimus.run.service.audit.AuditLog;
import io.trimus.run.service.identity.password.PasswordChecks;
import io.trimus.run.service.identity.password.SignInThrottle;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Dashboard sessions of built-in accounts: signing in with email and password, signing out, and opening the session
 * of a person another sign-in vouched for (the identity provider's). First passwords are {@link PasswordSetup}'s,
 * members {@link MemberService}'s, operators {@link OperatorService}'s.
 */
@ApplicationScoped
public class Sessions {
    private static final Logger LOG = Logger.getLogger(Sessions.class);
    /** Most open sessions of one user; signing in once more ends the oldest. */
    public static final int MAX_SESSIONS_PER_USER = 20;

    private final UserAccountRepository users;
    private final CredentialRepository credentials;
    private final CallerDirectory callers;
    private final TrimusConfig config;
    private final PasswordChecks passwords;
    private final AuditLog audit;
    private final SignInThrottle throttle;

    Sessions(UserAccountRepository users, CredentialRepository credentials, CallerDirectory callers,
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
    public Uni<OpenedSession> openSessionOf(UserAccount user, Map<String, Object> details) {
        Instant now = Instant.now();
        String secret = BearerSecrets.generate(BearerSecrets.SESSION_PREFIX);
        Credential session = Credential.ofUser(Credential.SESSION, "sign-in", user.id, BearerSecrets.hash(secret),
                "user " + user.email, now, now.plus(config.session().ttl()));
        return credentials.persistAndFlush(session)
                .call(saved -> credentials.revokeSessionsBeyond(user.id, MAX_SESSIONS_PER_USER, now))
                .call(saved -> audit.record(Accounts.userActor(user), null, AuditRecord.SESSION_OPENED, session(saved),
                        details))
                .flatMap(callers::callerOf)
                .map(caller -> new OpenedSession(secret, session.expiresAt, caller));
    }

    /** A session in an audit record: its id, never its value. */
    private static AuditRecord.Target session(Credential session) {
        return new AuditRecord.Target("session", session.id.toString(), null);
    }

    private static ProblemException wrongSignIn() {
        return new ProblemException(401, "Unauthorized", "wrong email or password", null);
    }
}
