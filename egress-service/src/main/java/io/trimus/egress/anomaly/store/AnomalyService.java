package io.trimus.egress.anomaly.store;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.EgressAnomaly;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Persists anomaly events exactly once per event id, a batch per transaction, and serves a company's latest ones. A
 * stored event is counted ({@code trimus_egress_anomalies_persisted_total}) and published to {@link AnomalyBroadcast}
 * after commit.
 */
@ApplicationScoped
public class AnomalyService {
    private static final Logger LOG = Logger.getLogger(AnomalyService.class);

    private final AnomalyEventRepository anomalies;
    private final AnomalyBroadcast broadcast;
    private final Counter persisted;
    private final Counter duplicates;
    private final Counter malformed;
    private final Counter failed;

    AnomalyService(AnomalyEventRepository anomalies, AnomalyBroadcast broadcast, MeterRegistry metrics) {
        this.anomalies = anomalies;
        this.broadcast = broadcast;
        this.persisted = Counter.builder("trimus.egress.anomalies.persisted")
                .description("Anomaly events stored in egress_anomaly_events (each event id once)")
                .register(metrics);
        this.duplicates = skipped(metrics, "duplicate");
        this.malformed = skipped(metrics, "malformed");
        this.failed = skipped(metrics, "failed");
    }

    /**
     * The rows to store for a batch of events as they were read, each id once: a malformed event is logged and
     * skipped, a repeat of an id earlier in the batch is counted as a duplicate.
     */
    public List<AnomalyEvent> wellFormed(List<EgressAnomaly> events) {
        Instant receivedAt = Instant.now();
        Map<UUID, AnomalyEvent> rows = new LinkedHashMap<>();
        for (EgressAnomaly event : events) {
            String problem = malformation(event);
            if (problem != null) {
                malformed.increment();
                LOG.warnf("Skipping an anomaly event that is not a valid io.trimus.egress.anomaly.v1 event: %s",
                        problem);
            } else if (rows.putIfAbsent(event.id(), row(event, receivedAt)) != null) {
                duplicates.increment();
            }
        }
        return new ArrayList<>(rows.values());
    }

    /**
     * Stores the rows in one transaction, each unless its id is stored already (a duplicate, counted); the stored
     * ones are counted and published to {@link AnomalyBroadcast} once the transaction has committed.
     */
    public Uni<Void> store(List<AnomalyEvent> rows) {
        return TenantTransactions.acrossCompanies(() -> anomalies.insertAbsent(rows))
                .invoke(inserted -> {
                    for (AnomalyEvent row : rows) {
                        if (inserted.contains(row.id)) {
                            persisted.increment();
                            broadcast.publish(row);
                        } else {
                            duplicates.increment();
                        }
                    }
                })
                .replaceWithVoid();
    }

    /** Records that the row could not be stored however often it was tried: logged and counted, never silent. */
    public void givenUp(AnomalyEvent row, Throwable failure) {
        failed.increment();
        LOG.errorf(failure, "Giving up on anomaly event %s: it could not be stored", row.id);
    }

    /** The company's latest anomalies that pass {@code filter}, newest last_seen first. */
    @TenantTransaction
    public Uni<List<AnomalyEvent>> latest(UUID companyId, AnomalyFilter filter, int limit) {
        return anomalies.latest(companyId, filter, limit);
    }

    /** Every company's anomalies since {@code since}, grouped by company and name, most recent group first. */
    @TenantTransaction
    public Uni<List<AnomalyGroup>> summary(Instant since, int offset, int limit) {
        return anomalies.summary(since, offset, limit);
    }

    /** Denied lookups and anomaly events since {@code since}, of every company or of one. */
    @TenantTransaction
    public Uni<AnomalyCount> countSince(Instant since, UUID companyId) {
        return anomalies.countSince(since, companyId);
    }

    private static String malformation(EgressAnomaly e) {
        if (e == null) {
            return "the record value is no JSON anomaly";
        }
        if (e.id() == null) {
            return "id is missing";
        }
        if (blank(e.sourceIp()) || e.qname() == null || blank(e.qtype()) || blank(e.reason())) {
            return "event " + e.id() + " lacks source_ip, qname, qtype or reason";
        }
        if (e.count() < 1 || e.firstSeen() == null || e.lastSeen() == null) {
            return "event " + e.id() + " lacks a count of at least 1, first_seen or last_seen";
        }
        return null;
    }

    private static AnomalyEvent row(EgressAnomaly e, Instant receivedAt) {
        AnomalyEvent row = new AnomalyEvent();
        row.id = e.id();
        row.companyId = e.companyId();
        row.agentId = e.agentId();
        row.runId = e.runId();
        row.containerId = text(e.containerId());
        row.sourceIp = text(e.sourceIp());
        row.qname = text(e.qname());
        row.qtype = text(e.qtype());
        row.reason = text(e.reason());
        row.count = e.count();
        row.firstSeen = e.firstSeen();
        row.lastSeen = e.lastSeen();
        row.receivedAt = receivedAt;
        row.enforced = e.enforced();
        row.method = e.method() == null ? null : text(cut(e.method(), 64));
        row.path = e.path() == null ? null : text(cut(e.path(), 512));
        // a score outside 0..1 (not this service's) would be refused by the column's check with the whole anomaly:
        // the anomaly is kept, without the score
        boolean scored = e.score() != null && e.score() >= 0 && e.score() <= 1;
        row.score = scored ? e.score() : null;
        row.signals = scored ? AnomalyEvent.joinSignals(e.signals() == null ? List.of() : e.signals()) : null;
        return row;
    }

    // PostgreSQL text cannot hold NUL: a name full of them must still be stored, not retried forever
    private static String text(String value) {
        return value == null ? null : value.replace('\u0000', '\uFFFD');
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static Counter skipped(MeterRegistry metrics, String reason) {
        return Counter.builder("trimus.egress.anomalies.skipped")
                .description("Anomaly events not stored: a redelivered id (duplicate), an invalid record (malformed) "
                        + "or one the database kept refusing (failed)")
                .tag("reason", reason)
                .register(metrics);
    }

    /** A value cut to its column's length (an event from elsewhere may be longer than this service writes). */
    private static String cut(String value, int length) {
        return value.length() <= length ? value : value.substring(0, length);
    }
}
