/**
 * How every replica keeps its copy of the egress policy (modes and allowlists) current: loaded at start, then read
 * again on every announcement and confirmed every check period, or refused as stale. Entry point:
 * {@link io.trimus.egress.policy.replica.PolicyLoader}, this replica's {@link io.trimus.egress.policy.PolicyCurrency}.
 * Never imports dns, the proxy or rest.
 */
package io.trimus.egress.policy.replica;
