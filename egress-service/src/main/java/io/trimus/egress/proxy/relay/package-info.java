/**
 * Carrying a proxied connection's bytes between its two sockets with backpressure, every byte counted. Entry point:
 * {@link io.trimus.egress.proxy.relay.Relay}. Imports nothing of egress-service: only sockets.
 */
package io.trimus.egress.proxy.relay;
