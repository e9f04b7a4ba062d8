/**
 * Recording denials: where the resolver and the proxy report a denied lookup or connection
 * ({@link io.trimus.egress.anomaly.AnomalyRecorder}), folded per window without flooding and published on
 * {@code trimus.egress.anomalies}. Entry point: {@link io.trimus.egress.anomaly.RateLimitedAnomalyRecorder#record}.
 * Never imports {@code anomaly.store} (what happens to an event once published), dns, proxy or rest.
 */
package io.trimus.egress.anomaly;
