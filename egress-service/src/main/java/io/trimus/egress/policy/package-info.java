/**
 * A company's egress policy: its mode (enforce or report), stored and held in memory by every replica, and how every
 * replica keeps its copy of the policy (modes and allowlists) current: {@link io.trimus.egress.policy.PolicyFeed},
 * started by {@link io.trimus.egress.policy.PolicyLoader}, which the resolver and the proxy ask through
 * {@link io.trimus.egress.policy.PolicyCurrency} before they decide. Entry point:
 * {@link io.trimus.egress.policy.EgressPolicyService}. Never imports dns, proxy or rest.
 */
package io.trimus.egress.policy;
