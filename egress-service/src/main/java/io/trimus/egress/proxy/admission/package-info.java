/**
 * The proxy's first stage: who may connect where, decided without a socket. The strict reading of what a connection
 * says (request heads and body framing, TLS ClientHellos), the policy's checks (sandbox, allowlist, policy currency,
 * port), the refusals and the limits. Entry point: {@link io.trimus.egress.proxy.admission.ProxyPolicy#admit}.
 * Pure; never imports the other proxy packages.
 */
package io.trimus.egress.proxy.admission;
