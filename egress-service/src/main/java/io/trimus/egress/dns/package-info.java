/**
 * The resolver sandboxes use: UDP and TCP sockets, the wire codec, the one query policy (deny by default), the
 * upstream and its answer cache, one folder for the whole DNS path. Entry point:
 * {@link io.trimus.egress.dns.DnsServerLifecycle}, then {@link io.trimus.egress.dns.DnsQueryHandler} per packet.
 * Never imports the proxy or rest.
 */
package io.trimus.egress.dns;
