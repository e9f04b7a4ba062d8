package io.trimus.egress.proxy;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.dns.DnsServerLifecycle;
import io.trimus.egress.dns.Upstream;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import org.jboss.logging.Logger;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts the explicit egress proxy after the resolver, on the resolver's host and TRIMUS_EGRESS_PROXY_PORT, with the
 * resolver's upstream; no resolver, no proxy. A proxy that cannot bind fails the start: a sandbox must never be left
 * with a resolver that answers and no way out it was promised.
 */
@ApplicationScoped
public class ProxyLifecycle {
    private static final Logger LOG = Logger.getLogger(ProxyLifecycle.class);
    /** The ports a CONNECT may tunnel to: those whose ClientHello the proxy checks. */
    private static final Set<Integer> TLS_PORTS = Set.of(443);

    private final TrimusConfig config;
    private final Vertx vertx;
    private final DnsServerLifecycle resolver;
    private final SandboxRegistry sandboxes;
    private final AllowlistCache allowlists;
    private final AnomalyRecorder anomalies;
    private final DestinationAddressPolicy addresses;
    private volatile ProxyServer server;

    @Inject
    public ProxyLifecycle(TrimusConfig config, Vertx vertx, DnsServerLifecycle resolver, SandboxRegistry sandboxes,
                          AllowlistCache allowlists, AnomalyRecorder anomalies, DestinationAddressPolicy addresses) {
        this.config = config;
        this.vertx = vertx;
        this.resolver = resolver;
        this.sandboxes = sandboxes;
        this.allowlists = allowlists;
        this.anomalies = anomalies;
        this.addresses = addresses;
    }

    // after DnsServerLifecycle (default priority), which gives the proxy its host and upstream
    void onStart(@Observes @Priority(Interceptor.Priority.APPLICATION + 600) StartupEvent event) {
        Optional<String> host = resolver.listenHost();
        Optional<Upstream> upstream = resolver.upstream();
        if (host.isEmpty() || upstream.isEmpty()) {
            LOG.info("the DNS resolver is not served: no egress proxy either");
            return;
        }
        start(host.get(), upstream.get());
    }

    /** Binds the proxy to {@code host} and TRIMUS_EGRESS_PROXY_PORT; throws when it cannot serve. */
    void start(String host, Upstream upstream) {
        start(host, config.egress().proxy().port(), upstream);
    }

    /** Binds the proxy to {@code host:port} (0: any free port); throws when it cannot serve. */
    synchronized void start(String host, int port, Upstream upstream) {
        TrimusConfig.Proxy proxy = config.egress().proxy();
        Set<Integer> ports = new HashSet<>(proxy.ports());
        ProxyServer starting = new ProxyServer(vertx, new ProxyPolicy(sandboxes, allowlists, ports, TLS_PORTS),
                new DestinationResolver(upstream, addresses), anomalies,
                new ProxyServer.Limits(proxy.maxHeadBytes(), proxy.maxConnectionsPerSandbox(), proxy.idleTimeout(),
                        proxy.totalTimeout(), proxy.connectTimeout()));
        try {
            starting.start(host, port).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            starting.close();
            throw new IllegalStateException(e.getCause().getMessage()
                    + " (TRIMUS_EGRESS_PROXY_PORT; is another proxy listening there?)", e.getCause());
        } catch (TimeoutException e) {
            starting.close();
            throw new IllegalStateException("binding the egress proxy to " + host + ":" + port
                    + " took over 30 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding the egress proxy", e);
        }
        server = starting;
        LOG.infof("egress proxy serving on %s:%d (CONNECT and absolute-form HTTP) to ports %s", host,
                starting.port(), ports);
    }

    // before the resolver stops and closes the upstream the proxy resolves with
    void onStop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        stop();
    }

    synchronized void stop() {
        if (server != null) {
            try {
                server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                LOG.warnf("closing the egress proxy: %s", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server = null;
        }
    }

    /** The port the proxy serves on, once started. */
    public Optional<Integer> port() {
        ProxyServer running = server;
        return running == null ? Optional.empty() : Optional.of(running.port());
    }
}
