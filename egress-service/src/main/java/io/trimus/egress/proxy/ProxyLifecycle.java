package io.trimus.egress.proxy;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.connection.ConnectionRecorder;
import io.trimus.egress.dns.AnswerCache;
import io.trimus.egress.dns.DnsServerLifecycle;
import io.trimus.egress.dns.Upstream;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.policy.EgressModes;
import io.trimus.egress.policy.PolicyCurrency;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyWay;
import io.trimus.egress.proxy.destination.DestinationAddressPolicy;
import io.trimus.egress.proxy.destination.DestinationResolver;
import io.trimus.egress.proxy.intercept.LeafKeys;
import io.trimus.egress.proxy.intercept.MaskingInterceptor;
import io.trimus.egress.proxy.intercept.UpstreamTrust;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.egress.tunnelling.TunnellingWatch;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import org.jboss.logging.Logger;

import javax.net.ssl.X509ExtendedTrustManager;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts the egress proxy after the resolver, on the resolver's host: the explicit proxy on TRIMUS_EGRESS_PROXY_PORT
 * and the transparent listeners the resolver steers allow-listed names to (TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT,
 * _HTTP_PORT), with the resolver's upstream; no resolver, no proxy. A proxy that cannot bind fails the start: a
 * sandbox must never be left with a resolver that answers and no way out it was promised.
 */
@ApplicationScoped
public class ProxyLifecycle {
    private static final Logger LOG = Logger.getLogger(ProxyLifecycle.class);
    /** The ports a CONNECT may tunnel to: those whose ClientHello the proxy checks. */
    private static final Set<Integer> TLS_PORTS = Set.of(443);
    /** Where a steered connection goes at its destination: the port the client dialled the proxy on. */
    private static final int HTTPS = 443;
    private static final int HTTP = 80;

    private final TrimusConfig config;
    private final Vertx vertx;
    private final DnsServerLifecycle resolver;
    private final SandboxRegistry sandboxes;
    private final AllowlistCache allowlists;
    private final AgentAllowlistCache agentAllowlists;
    private final AnomalyRecorder anomalies;
    private final DestinationAddressPolicy addresses;
    private final EgressModes modes;
    private final PolicyCurrency current;
    private final ConnectionRecorder connections;
    private final MaskedSecrets masked;
    private final LeafKeys leafKeys;
    private final X509ExtendedTrustManager upstreamTrust;
    private final TunnellingWatch tunnelling;
    private volatile ProxyServer server;

    /** A proxy that decides by the companies' lists alone (no agent has a list of its own). */
    public ProxyLifecycle(TrimusConfig config, Vertx vertx, DnsServerLifecycle resolver, SandboxRegistry sandboxes,
                          AllowlistCache allowlists, AnomalyRecorder anomalies, DestinationAddressPolicy addresses,
                          EgressModes modes, PolicyCurrency current, ConnectionRecorder connections,
                          MaskedSecrets masked, LeafKeys leafKeys) {
        this(config, vertx, resolver, sandboxes, allowlists, new AgentAllowlistCache(), anomalies, addresses, modes,
                current, connections, masked, leafKeys, null);
    }

    /** @param tunnelling scores the hosts sandboxes connect to; null scores none */
    @Inject
    public ProxyLifecycle(TrimusConfig config, Vertx vertx, DnsServerLifecycle resolver, SandboxRegistry sandboxes,
                          AllowlistCache allowlists, AgentAllowlistCache agentAllowlists, AnomalyRecorder anomalies,
                          DestinationAddressPolicy addresses, EgressModes modes, PolicyCurrency current,
                          ConnectionRecorder connections, MaskedSecrets masked, LeafKeys leafKeys,
                          TunnellingWatch tunnelling) {
        this.tunnelling = tunnelling;
        this.config = config;
        this.vertx = vertx;
        this.resolver = resolver;
        this.sandboxes = sandboxes;
        this.allowlists = allowlists;
        this.agentAllowlists = agentAllowlists;
        this.anomalies = anomalies;
        this.addresses = addresses;
        this.modes = modes;
        this.current = current;
        this.connections = connections;
        this.masked = masked;
        this.leafKeys = leafKeys;
        // a file that cannot be read stops the service at start, not at the first masked request
        this.upstreamTrust = UpstreamTrust.of(config.egress().proxy().upstreamCaFile());
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

    /** Binds the proxy to {@code host} and its configured ports; throws when it cannot serve. */
    void start(String host, Upstream upstream) {
        TrimusConfig.Proxy proxy = config.egress().proxy();
        start(host, proxy.port(), proxy.transparentHttpsPort(), proxy.transparentHttpPort(), upstream);
    }

    /** Binds the explicit proxy alone to {@code host:port} (0: any free port); throws when it cannot serve. */
    void start(String host, int port, Upstream upstream) {
        start(host, port, -1, -1, upstream);
    }

    /**
     * Binds the explicit proxy to {@code host:port} and the transparent listeners to their ports (0: any free port,
     * -1: not served); throws when one cannot be bound, and then serves none.
     */
    synchronized void start(String host, int port, int httpsPort, int httpPort, Upstream upstream) {
        TrimusConfig.Proxy proxy = config.egress().proxy();
        Set<Integer> ports = new HashSet<>(proxy.ports());
        ProxyLimits limits = new ProxyLimits(proxy.maxHeadBytes(), proxy.maxConnectionsPerSandbox(),
                proxy.idleTimeout(), proxy.totalTimeout(), proxy.connectTimeout(), proxy.headTimeout());
        ProxyServer starting = new ProxyServer(vertx,
                new ProxyPolicy(sandboxes, allowlists, agentAllowlists, modes, current, ports, TLS_PORTS),
                new DestinationResolver(upstream, addresses, new AnswerCache(config.egress().dns().cacheMaxEntries(),
                        config.egress().dns().cacheMaxTtl(), System::nanoTime)), anomalies, connections, limits,
                Runtime.getRuntime().availableProcessors(), masked,
                new MaskingInterceptor(vertx, leafKeys, anomalies, upstreamTrust, limits), tunnelling);
        bind(starting, starting.start(host, port), host, port, "TRIMUS_EGRESS_PROXY_PORT");
        if (httpsPort >= 0) {
            bind(starting, starting.listen(ProxyWay.TRANSPARENT_TLS, host, httpsPort, HTTPS), host, httpsPort,
                    "TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT");
        }
        if (httpPort >= 0) {
            bind(starting, starting.listen(ProxyWay.TRANSPARENT_HTTP, host, httpPort, HTTP), host, httpPort,
                    "TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTP_PORT");
        }
        server = starting;
        LOG.infof("egress proxy serving on %s: explicit %d (CONNECT and absolute-form HTTP), transparent TLS %s,"
                        + " transparent HTTP %s; destination ports %s", host, starting.port(),
                starting.port(ProxyWay.TRANSPARENT_TLS).map(String::valueOf).orElse("off"),
                starting.port(ProxyWay.TRANSPARENT_HTTP).map(String::valueOf).orElse("off"), ports);
    }

    private static void bind(ProxyServer starting, Future<Void> listening, String host, int port, String setting) {
        try {
            listening.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            starting.close();
            throw new IllegalStateException(e.getCause().getMessage()
                    + " (" + setting + "; is another server listening there?)", e.getCause());
        } catch (TimeoutException e) {
            starting.close();
            throw new IllegalStateException("binding the egress proxy to " + host + ":" + port
                    + " took over 30 s (" + setting + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            starting.close();
            throw new IllegalStateException("interrupted while binding the egress proxy", e);
        }
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

    /** The port the explicit proxy serves on, once started. */
    public Optional<Integer> port() {
        ProxyServer running = server;
        return running == null ? Optional.empty() : Optional.of(running.port());
    }

    /** The port {@code way} is served on, once started and when it is served at all. */
    public Optional<Integer> port(ProxyWay way) {
        ProxyServer running = server;
        return running == null ? Optional.empty() : running.port(way);
    }
}
