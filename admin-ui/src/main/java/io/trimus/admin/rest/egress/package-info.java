/**
 * A company's egress page (mode, allowlist editor, hourly chart, recent and live denials) and the operators' view of
 * every company's anomalies. Entry points: {@link io.trimus.admin.rest.egress.EgressResource},
 * {@link io.trimus.admin.rest.egress.AnomaliesResource}. Uses {@code rest.live} for its stream; no other feature.
 */
package io.trimus.admin.rest.egress;
