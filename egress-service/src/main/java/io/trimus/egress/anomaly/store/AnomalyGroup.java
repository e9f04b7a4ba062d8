package io.trimus.egress.anomaly.store;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * The anomalies of one company for one name in a time window, aggregated by PostgreSQL.
 *
 * @param companyId null for lookups from an unattributed source
 * @param lookups   the denied lookups: the sum of the events' counts
 * @param events    how many anomaly events (rows) were folded into this group
 * @param lastSeen  the latest last_seen of the group
 */
public record AnomalyGroup(UUID companyId, String qname, long lookups, long events, Instant lastSeen) {

    /** A row of {@link AnomalyEventRepository#summary}: company_id, qname, lookups, events, last_seen. */
    static AnomalyGroup of(Object[] row) {
        return new AnomalyGroup((UUID) row[0], (String) row[1], number(row[2]), number(row[3]), instant(row[4]));
    }

    private static long number(Object value) {
        return value instanceof BigDecimal big ? big.longValueExact() : ((Number) value).longValue();
    }

    // the reactive driver's type for timestamptz depends on the Hibernate version: accept each it may use
    private static Instant instant(Object value) {
        if (value instanceof Instant i) {
            return i;
        }
        if (value instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (value instanceof Timestamp t) {
            return t.toInstant();
        }
        if (value instanceof LocalDateTime l) {
            return l.toInstant(ZoneOffset.UTC);
        }
        throw new IllegalStateException("unexpected type for last_seen: " + value.getClass());
    }
}
