package io.trimus.egress.policy;

/**
 * Whether this replica can vouch that its in-memory egress policy (allowlists and modes) is the stored one, as of a
 * moment at most TRIMUS_EGRESS_POLICY_STALE_AFTER ago. The resolver and the proxy refuse to decide by a policy it
 * cannot vouch for ({@code policy_stale}): a host removed or a company switched to enforce on another replica must not
 * stay open here. Read on every decision: one clock read.
 */
@FunctionalInterface
public interface PolicyCurrency {
    /** True while the policy in memory is confirmed current. */
    boolean isCurrent();
}
