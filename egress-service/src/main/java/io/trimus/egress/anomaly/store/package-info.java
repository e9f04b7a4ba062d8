/**
 * Anomaly events once published: read back from {@code trimus.egress.anomalies} and persisted exactly once
 * ({@link io.trimus.egress.anomaly.store.AnomalyConsumer}), served per company, filtered and grouped, and broadcast
 * live to the REST stream. Entry point: {@link io.trimus.egress.anomaly.store.AnomalyService}. Never imports the
 * recording side ({@code anomaly}), dns, proxy or rest.
 */
package io.trimus.egress.anomaly.store;
