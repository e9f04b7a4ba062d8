/**
 * The egress proxy's entry point: the explicit port and the transparent 443 and 80 a sandbox's connections arrive on
 * ({@link io.trimus.egress.proxy.ProxyLifecycle}, {@link io.trimus.egress.proxy.ProxyServer}), and each connection
 * from its first byte to its close ({@link io.trimus.egress.proxy.ProxyConnection}), which drives the stages in order:
 * {@code admission} (where it may go), {@code destination} (the address it may reach), {@code intercept} (TLS ended
 * for masked secrets), the bytes carried by {@code relay}. No stage imports this package.
 */
package io.trimus.egress.proxy;
