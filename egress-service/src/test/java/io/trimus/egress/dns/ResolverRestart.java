package io.trimus.egress.dns;

import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.proxy.ProxyControl;
import io.trimus.egress.proxy.ProxyLifecycle;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.egress.sandbox.replica.SandboxRegistryLoader;

import java.util.List;

/**
 * A restart of egress-service's resolver inside a running test application, along the path a new process takes: the
 * old process's sockets close and its memory is gone; the new one loads the stored registrations
 * ({@link SandboxRegistryLoader}, which runs before the resolver at start), then binds and answers. Sandboxes keep
 * running meanwhile, as they do on a real restart.
 */
public final class ResolverRestart {
    private ResolverRestart() {
    }

    /**
     * Stops the proxy and the resolver, forgets every registration in memory, then starts as a new process would:
     * the proxy resolves with the resolver's upstream, so it goes and comes back with it.
     */
    public static void restart(DnsServerLifecycle resolver, ProxyLifecycle proxy, SandboxRegistry registry,
                               SandboxRegistryLoader loader) throws Throwable {
        restart(resolver, proxy, registry, loader, new MaskedSecrets());
    }

    /** The same, and the sandboxes' masked secrets, which live in memory only, are gone too. */
    public static void restart(DnsServerLifecycle resolver, ProxyLifecycle proxy, SandboxRegistry registry,
                               SandboxRegistryLoader loader, MaskedSecrets masked) throws Throwable {
        ProxyControl.stop(proxy);
        resolver.stop();
        masked.reset();
        registry.load(List.of());
        loader.load();
        resolver.onStart(null);
        ProxyControl.start(proxy);
    }
}
