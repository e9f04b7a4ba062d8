package io.trimus.egress.audit;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Publishes the staged audit records on {@code trimus.audit} in the order they were written, each deleted once Kafka
 * acknowledged it. While Kafka is away a pass stops at the first record that does not go out and the next pass tries
 * again; a record published twice (acknowledged, then the delete failed) is recognised by consumers through its id.
 */
@ApplicationScoped
public class AuditRelay {
    private static final Logger LOG = Logger.getLogger(AuditRelay.class);
    private static final URI SOURCE = CloudEventRecords.source("egress-service");
    private static final int BATCH = 100;
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(15);

    private final MutinyEmitter<String> emitter;
    private final AuditOutboxRepository rows;

    AuditRelay(@Channel(Topics.AUDIT) MutinyEmitter<String> emitter, AuditOutboxRepository rows) {
        this.emitter = emitter;
        this.rows = rows;
    }

    @Scheduled(every = "1s", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> drain() {
        return TenantTransactions.acrossCompanies(() -> rows.oldest(BATCH))
                .flatMap(batch -> publishFrom(batch, 0))
                .onFailure().invoke(e -> LOG.warnf("Audit records not published yet, will retry: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    private Uni<Void> publishFrom(List<AuditOutboxRow> batch, int index) {
        if (index == batch.size()) {
            return Uni.createFrom().voidItem();
        }
        AuditOutboxRow row = batch.get(index);
        return Uni.createFrom().deferred(() -> emitter.sendMessage(CloudEventRecords.message(row.payload,
                        Envelope.of(row.id, EventTypes.AUDIT_RECORD, SOURCE, row.messageKey, row.createdAt))))
                .ifNoItem().after(SEND_TIMEOUT).fail()
                .chain(() -> TenantTransactions.acrossCompanies(() -> rows.deleteById(row.seq)))
                .chain(() -> publishFrom(batch, index + 1));
    }
}
