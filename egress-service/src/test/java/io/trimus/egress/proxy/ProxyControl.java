package io.trimus.egress.proxy;

/**
 * Stops and starts egress-service's proxy inside a running test application, as a process stop and start would:
 * for tests in other packages that take the proxy away from sandboxes, or restart the resolver it resolves with.
 */
public final class ProxyControl {
    private ProxyControl() {
    }

    /** Closes every listener and connection of the proxy. */
    public static void stop(ProxyLifecycle proxy) {
        proxy.stop();
    }

    /** Starts the proxy as the service's start does, on the resolver's address and upstream. */
    public static void start(ProxyLifecycle proxy) {
        proxy.onStart(null);
    }
}
