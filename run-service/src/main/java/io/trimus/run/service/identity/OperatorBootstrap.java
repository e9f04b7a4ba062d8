package io.trimus.run.service.identity;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.repository.identity.CredentialRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The first operator of a fresh deployment, ensured at every start: the TRIMUS_BOOTSTRAP_OPERATOR_TOKEN API token
 * (exactly that value, stored hashed; revoked when the variable is unset or changed) and the
 * TRIMUS_BOOTSTRAP_OPERATOR_EMAIL account, whose one-time setup link is written, while it has no password, to
 * TRIMUS_BOOTSTRAP_SETUP_LINK_FILE, readable by run-service's user only: never to the log, which more people and
 * systems read than should hold an operator's first sign-in. There is never a default password.
 */
@ApplicationScoped
public class OperatorBootstrap {
    /** Name of the bootstrap token in token lists. */
    public static final String TOKEN_NAME = "bootstrap (TRIMUS_BOOTSTRAP_OPERATOR_TOKEN)";
    static final int MIN_TOKEN_CHARS = 32;
    private static final Logger LOG = Logger.getLogger(OperatorBootstrap.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final CredentialRepository credentials;
    private final OperatorService operators;
    private final TrimusConfig config;

    OperatorBootstrap(CredentialRepository credentials, OperatorService operators, TrimusConfig config) {
        this.credentials = credentials;
        this.operators = operators;
        this.config = config;
    }

    void onStart(@Observes StartupEvent start) throws Throwable {
        Optional<String> token = config.bootstrap().operatorToken().filter(t -> !t.isBlank());
        token.ifPresent(OperatorBootstrap::requireStrong);
        VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.acrossCompanies(() -> ensureToken(token)));
        Optional<String> email = config.bootstrap().operatorEmail().filter(e -> !e.isBlank());
        if (email.isPresent()) {
            ensureOperator(email.get(), Path.of(config.bootstrap().setupLinkFile()));
        }
    }

    /**
     * Makes {@code email} an operator and, while it has no password, writes its fresh setup link to {@code linkFile}
     * (the file is deleted once it has one). A file that cannot be written is a warning, not a failed start: an
     * operator token can issue a link (POST /api/accounts/{email}/setup-link).
     */
    public void ensureOperator(String email, Path linkFile) throws Throwable {
        OperatorService.OperatorAccount account = VertxContextSupport.subscribeAndAwait(
                () -> operators.bootstrapOperator(email));
        String who = account.user().email;
        try {
            if (account.link() == null) {
                Files.deleteIfExists(linkFile);
                return;
            }
            writeOwnerOnly(linkFile, account.link().url() + "\n");
            LOG.infof("First sign-in: the one-time setup link of operator %s is in %s (readable by this user only;"
                    + " valid %s, a new one at each start until a password is set)", who, linkFile.toAbsolutePath(),
                    config.auth().setupLinkTtl());
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warnf("operator %s has no password yet, and its setup link could not be written to %s (%s): set"
                    + " TRIMUS_BOOTSTRAP_SETUP_LINK_FILE to a writable place, or issue one with an operator token:"
                    + " POST /api/accounts/%s/setup-link", who, linkFile.toAbsolutePath(), e.getMessage(), who);
        }
    }

    // A new file of our own, renamed over the old: never written through a link or into a file someone else made.
    private static void writeOwnerOnly(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path fresh = Files.createTempFile(dir, ".trimus-setup-link", ".tmp",
                PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
            Files.writeString(fresh, text, StandardCharsets.UTF_8);
            Files.move(fresh, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(fresh);
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
