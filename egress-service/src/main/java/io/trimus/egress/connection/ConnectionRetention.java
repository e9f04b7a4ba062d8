package io.trimus.egress.connection;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.egress.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;

/**
 * Keeps {@code egress_connection} to its retention: every hour, the records of connections that started longer ago
 * than {@code TRIMUS_EGRESS_CONNECTIONS_RETENTION} (30 days) are deleted.
 */
@ApplicationScoped
public class ConnectionRetention {
    private static final Logger LOG = Logger.getLogger(ConnectionRetention.class);

    private final ConnectionRepository connections;
    private final Duration retention;
    private final Counter deleted;

    ConnectionRetention(ConnectionRepository connections, TrimusConfig config, MeterRegistry registry) {
        this.connections = connections;
        this.retention = config.egress().connections().retention();
        this.deleted = Counter.builder("trimus.egress.connections.expired")
                .description("Proxy connection records deleted because they were older than the retention")
                .register(registry);
    }

    @Scheduled(identity = "trimus-egress-connection-retention", every = "1h", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> onSchedule() {
        return purge().onFailure().invoke(e -> LOG.warnf("Deleting expired proxy connection records failed, "
                + "next try in an hour: %s", e.getMessage())).onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Deletes the records older than the retention; how many were deleted. */
    public Uni<Integer> purge() {
        Instant cutoff = Instant.now().minus(retention);
        return TenantTransactions.acrossCompanies(() -> connections.deleteStartedBefore(cutoff))
                .invoke(n -> deleted.increment(n));
    }
}
