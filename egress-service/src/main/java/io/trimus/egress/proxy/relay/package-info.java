/**
 * Carrying a proxied connection's bytes between its two sockets with backpressure, every byte counted. Entry points:
 * {@link io.trimus.egress.proxy.relay.Relay} (Vert.x buffers: plain HTTP, the interceptor) and
 * {@link io.trimus.egress.proxy.relay.Tunnel} (an opaque tunnel, both directions): on Netty's native transport, with
 * both sockets on one event loop, each direction is carried by the kernel with {@code splice(2)}
 * ({@code KernelSplice}: Netty's {@code spliceTo}, its bytes counted from its task, the end of a stream read as
 * buffers, the tunnel's own idle watch in place of Vert.x's idle handlers, which spliced bytes never pass); elsewhere
 * as Netty's buffers as read, no copy ({@code Splice}). Imports nothing of egress-service: only sockets.
 */
package io.trimus.egress.proxy.relay;
