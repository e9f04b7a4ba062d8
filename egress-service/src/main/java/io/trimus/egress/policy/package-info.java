/**
 * A company's egress policy: its mode (enforce or report), stored, audited and held in memory by every replica
 * ({@link io.trimus.egress.policy.EgressModeCache}), and {@link io.trimus.egress.policy.PolicyCurrency}, which the
 * resolver and the proxy ask before they decide. Entry point: {@link io.trimus.egress.policy.EgressPolicyService}.
 * Never imports {@code policy.replica} (which keeps the copy current), dns, the proxy or rest.
 */
package io.trimus.egress.policy;
