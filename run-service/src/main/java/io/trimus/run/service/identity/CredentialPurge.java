package io.trimus.run.service.identity;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.repository.identity.CredentialRepository;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;

/**
 * Deletes sessions and setup links a day after they expired or were revoked, so signing in again and again cannot
 * grow the credential table without end. API tokens stay (their lists show revoked and expired ones).
 */
@ApplicationScoped
public class CredentialPurge {
    static final Duration KEEP_ENDED = Duration.ofDays(1);
    private static final Logger LOG = Logger.getLogger(CredentialPurge.class);

    private final CredentialRepository credentials;

    CredentialPurge(CredentialRepository credentials) {
        this.credentials = credentials;
    }

    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> onTick() {
        return purge(Instant.now()).onFailure().invoke(e -> LOG.warnf("could not purge ended sessions: %s",
                e.getMessage())).onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Deletes the sessions and setup links that ended before {@code now} minus a day; returns how many. */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Long> purge(Instant now) {
        Instant before = now.minus(KEEP_ENDED);
        return credentials.delete("kind in (?1, ?2) and (revokedAt < ?3 or expiresAt < ?3)", Credential.SESSION,
                Credential.SETUP, before);
    }
}
