package io.trimus.egress.anomaly.store;

/**
 * How much was denied in a window.
 *
 * @param lookups denied lookups: the sum of the anomaly events' counts
 * @param events  anomaly events (rows), each one sandbox asking for one name within the rate-limit window
 */
public record AnomalyCount(long lookups, long events) {
}
