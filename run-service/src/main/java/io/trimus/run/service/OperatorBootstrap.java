package io.trimus.run.service;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.Credential;
import io.trimus.run.repository.CredentialRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The first operator of a fresh deployment, ensured at every start: the TRIMUS_BOOTSTRAP_OPERATOR_TOKEN API token
 * (exactly that value, stored hashed; revoked when the variable is unset or changed) and the
 * TRIMUS_BOOTSTRAP_OPERATOR_EMAIL account, whose one-time setup link is logged while it has no password. There is
 * never a default password.
 */
@ApplicationScoped
public class OperatorBootstrap {
    /** Name of the bootstrap token in token lists. */
    public static final String TOKEN_NAME = "bootstrap (TRIMUS_BOOTSTRAP_OPERATOR_TOKEN)";
    static final int MIN_TOKEN_CHARS = 32;
    private static final Logger LOG = Logger.getLogger(OperatorBootstrap.class);

    private final CredentialRepository credentials;
    private final AccountService accounts;
    private final TrimusConfig config;

    OperatorBootstrap(CredentialRepository credentials, AccountService accounts, TrimusConfig config) {
        this.credentials = credentials;
        this.accounts = accounts;
        this.config = config;
    }

    void onStart(@Observes StartupEvent start) throws Throwable {
        Optional<String> token = config.bootstrap().operatorToken().filter(t -> !t.isBlank());
        token.ifPresent(OperatorBootstrap::requireStrong);
        VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.acrossCompanies(() -> ensureToken(token)));
        Optional<String> email = config.bootstrap().operatorEmail().filter(e -> !e.isBlank());
        if (email.isPresent()) {
            AccountService.SetupLink link = VertxContextSupport.subscribeAndAwait(
                    () -> accounts.bootstrapOperator(email.get()));
            if (link.url() != null) {
                LOG.infof("First sign-in: open %s to set the password of operator %s (one use, valid %s)", link.url(),
                        link.user().email, config.auth().setupLinkTtl());
            }
        }
    }

    /** Makes the bootstrap token exactly {@code token}: present and active when set, revoked when not. */
    Uni<Void> ensureToken(Optional<String> token) {
        byte[] hash = token.map(BearerSecrets::hash).orElse(null);
        Instant now = Instant.now();
        return credentials.list("kind = ?1 and name = ?2", Credential.TOKEN, TOKEN_NAME).flatMap(existing -> {
            boolean present = false;
            for (Credential credential : existing) {
                if (hash != null && java.util.Arrays.equals(credential.secretHash, hash)) {
                    credential.revokedAt = null;
                    credential.expiresAt = null;
                    present = true;
                } else if (credential.revokedAt == null) {
                    credential.revokedAt = now;
                }
            }
            if (hash == null || present) {
                return Uni.createFrom().voidItem();
            }
            return credentials.findByHash(hash).flatMap(clash -> {
                if (clash != null) {
                    throw new IllegalStateException("TRIMUS_BOOTSTRAP_OPERATOR_TOKEN equals another credential;"
                            + " choose a new random value");
                }
                Credential created = new Credential();
                created.id = UUID.randomUUID();
                created.kind = Credential.TOKEN;
                created.name = TOKEN_NAME;
                created.role = Credential.OPERATOR_ROLE;
                created.secretHash = hash;
                created.createdBy = "run-service at start";
                created.createdAt = now;
                return credentials.persist(created).replaceWithVoid();
            });
        });
    }

    private static void requireStrong(String token) {
        if (token.length() < MIN_TOKEN_CHARS || token.length() > 512
                || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalStateException("TRIMUS_BOOTSTRAP_OPERATOR_TOKEN must be " + MIN_TOKEN_CHARS + " to 512"
                    + " printable characters without spaces (e.g. `openssl rand -hex 32`)");
        }
    }
}
