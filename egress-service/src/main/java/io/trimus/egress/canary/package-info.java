/**
 * Canaries: per company, a probe sandbox that tries what the company's policy must refuse and one host it must let
 * through, scheduled ({@link io.trimus.egress.canary.CanarySchedule}, TRIMUS_EGRESS_CANARY_INTERVAL) or asked for
 * (POST /api/companies/{company_id}/egress/canary). Entry point: {@link io.trimus.egress.canary.CanaryService}. It
 * asks an adapter service on trimus.egress.canary.requests, stores what comes back on trimus.egress.canary.results
 * ({@link io.trimus.egress.canary.CanaryResultConsumer}) and raises anomaly {@code canary_breach} for each check that
 * got through. Uses allowlist, policy, anomaly and config; never the resolver's or the proxy's packages.
 */
package io.trimus.egress.canary;
