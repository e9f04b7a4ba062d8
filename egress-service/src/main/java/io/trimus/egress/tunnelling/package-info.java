/**
 * Tunnelling through names: every name a sandbox uses (the resolver's allowed, steered and denied lookups, the
 * proxy's CONNECT targets, SNIs and Hosts) scored per sandbox and base domain ({@link io.trimus.egress.tunnelling.TunnellingWatch}),
 * a {@code suspected_tunnelling} anomaly when a score crosses the operator's threshold, and in block mode that base
 * domain refused to the sandbox for the rest of its run. Allocation-free per name once a base domain is known.
 * Imports the sandbox registry, the anomaly recorder and the configuration, never the resolver or the proxy (they
 * call it).
 */
package io.trimus.egress.tunnelling;
