package io.trimus.egress.anomaly.store;

import java.time.Instant;

/**
 * Which of a company's anomalies a list shows; every part optional (null).
 *
 * @param before    only anomalies last seen strictly before this instant (keyset paging)
 * @param reason    only this reason, matched exactly ({@code not_allowlisted}, {@code qtype_denied}, …)
 * @param qnamePart only names that contain this text, ignoring case
 * @param minScore  only anomalies with a tunnelling score of at least this (0 to 1); those without a score never pass
 */
public record AnomalyFilter(Instant before, String reason, String qnamePart, Double minScore) {
    /** No filter: the latest anomalies. */
    public static final AnomalyFilter NONE = new AnomalyFilter(null, null, null, null);
}
