package io.trimus.run.messaging;

import io.smallrye.mutiny.Uni;
import io.trimus.events.AuditRecord;
import io.trimus.run.service.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Stores the {@code trimus.audit} records of the other services (egress-service) for GET /api/audit, each once; the
 * records run-service published itself arrive too and are known already. The channel has a name of its own: one named
 * like the topic would be wired in-process to the relay's emitter instead of to Kafka.
 */
@ApplicationScoped
public class AuditConsumer {
    /** The incoming channel of trimus.audit (group trimus-run-service-audit, see application.properties). */
    static final String CHANNEL = "audit-in";
    private static final Logger LOG = Logger.getLogger(AuditConsumer.class);

    private final AuditLog audit;

    AuditConsumer(AuditLog audit) {
        this.audit = audit;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(AuditRecord record) {
        if (record == null) {
            LOG.warn("Skipping a trimus.audit record that is not a valid io.trimus.audit.record.v1 event");
            return Uni.createFrom().voidItem();
        }
        return audit.store(record).replaceWithVoid();
    }
}
