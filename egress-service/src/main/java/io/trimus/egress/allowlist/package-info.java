/**
 * Each company's allowlist: its entries' rules and normalisation ({@link io.trimus.egress.allowlist.AllowlistRule},
 * {@link io.trimus.egress.allowlist.DomainNames}), stored and audited by the service, held in memory for the resolver
 * and the proxy ({@link io.trimus.egress.allowlist.AllowlistCache}). Entry point:
 * {@link io.trimus.egress.allowlist.AllowlistService}. An agent's own list, which narrows its company's, is stored,
 * audited and held the same way ({@link io.trimus.egress.allowlist.AgentAllowlistService},
 * {@link io.trimus.egress.allowlist.AgentAllowlistCache}). Never imports dns, proxy, policy or rest.
 */
package io.trimus.egress.allowlist;
