/**
 * Carrying a proxied connection's bytes between its two sockets with backpressure, every byte counted. Entry points:
 * {@link io.trimus.egress.proxy.relay.Relay} (Vert.x buffers: plain HTTP, the interceptor) and
 * {@link io.trimus.egress.proxy.relay.Splice} (an opaque tunnel: Netty's buffers as read, no copy). Imports nothing of
 * egress-service: only sockets.
 */
package io.trimus.egress.proxy.relay;
