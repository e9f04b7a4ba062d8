package io.trimus.egress.dns;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.tunnelling.TunnellingWatch;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.policy.EgressModes;
import io.trimus.egress.policy.PolicyCurrency;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts the DNS resolver with the service when TRIMUS_EGRESS_DNS_ADDR is set, and stops it at shutdown. A resolver
 * that cannot bind its address, or has no upstream, fails the start: the sandboxes' DNS must not silently be absent.
 * It starts only after the stored sandbox registrations are in memory (SandboxRegistryLoader runs first), so a
 * sandbox that kept running while egress-service restarted is attributed by the first answer.
 */
@ApplicationScoped
public class DnsServerLifecycle {
    private static final Logger LOG = Logger.getLogger(DnsServerLifecycle.class);
    static final Path RESOLV_CONF = Path.of("/etc/resolv.conf");
    /** A steered answer never changes while the service runs; short anyway, so a moved proxy is found soon. */
    static final long STEERED_TTL_SECONDS = 60;

    private final TrimusConfig config;
    private final Vertx vertx;
    private final SandboxRegistry sandboxes;
    private final AllowlistCache allowlists;
    private final AgentAllowlistCache agentAllowlists;
    private final AnomalyRecorder anomalies;
    private final MeterRegistry registry;
    private final EgressModes modes;
    private final PolicyCurrency current;
    private final TunnellingWatch tunnelling;
    private volatile DnsServer server;
    private volatile UpstreamResolver upstream;
    private volatile String listenHost;

    /** A resolver that decides by the companies' lists alone (no agent has a list of its own). */
    public DnsServerLifecycle(TrimusConfig config, Vertx vertx, SandboxRegistry sandboxes, AllowlistCache allowlists,
                              AnomalyRecorder anomalies, MeterRegistry registry, EgressModes modes,
                              PolicyCurrency current) {
        this(config, vertx, sandboxes, allowlists, new AgentAllowlistCache(), anomalies, registry, modes, current, null);
    }

    /** @param tunnelling scores the names sandboxes ask for; null scores none */
    @Inject
    public DnsServerLifecycle(TrimusConfig config, Vertx vertx, SandboxRegistry sandboxes, AllowlistCache allowlists,
                              AgentAllowlistCache agentAllowlists, AnomalyRecorder anomalies, MeterRegistry registry,
                              EgressModes modes, PolicyCurrency current, TunnellingWatch tunnelling) {
        this.tunnelling = tunnelling;
        this.config = config;
        this.vertx = vertx;
        this.sandboxes = sandboxes;
        this.allowlists = allowlists;
        this.agentAllowlists = agentAllowlists;
        this.anomalies = anomalies;
        this.registry = registry;
        this.modes = modes;
        this.current = current;
    }

    void onStart(@Observes StartupEvent event) {
        Optional<String> addr = config.egress().dns().addr().filter(value -> !value.isBlank());
        if (addr.isEmpty()) {
            LOG.info("TRIMUS_EGRESS_DNS_ADDR is not set: no DNS resolver is served");
            return;
        }
        start(DnsAddresses.parse("TRIMUS_EGRESS_DNS_ADDR", addr.get()));
    }

    /** Builds the resolver from the configuration and binds it to {@code listen}; throws when it cannot serve. */
    synchronized void start(InetSocketAddress listen) {
        if (!sandboxes.isLoaded()) {
            // answering now would refuse every sandbox that kept running while egress-service restarted
            throw new IllegalStateException("the stored sandbox registrations are not loaded: the resolver does not"
                    + " answer before it can attribute every running sandbox");
        }
        TrimusConfig.Dns dns = config.egress().dns();
        InetSocketAddress upstreamAddress = resolved("TRIMUS_EGRESS_DNS_UPSTREAM", dns.upstream()
                .filter(value -> !value.isBlank())
                .map(value -> DnsAddresses.parse("TRIMUS_EGRESS_DNS_UPSTREAM", value))
                .or(() -> DnsAddresses.firstNameserver(RESOLV_CONF))
                .orElseThrow(() -> new IllegalStateException(
                        "TRIMUS_EGRESS_DNS_UPSTREAM is not set and " + RESOLV_CONF + " names no nameserver")));
        if (upstreamAddress.getPort() == listen.getPort()
                && upstreamAddress.getAddress().equals(resolved("TRIMUS_EGRESS_DNS_ADDR", listen).getAddress())) {
            throw new IllegalStateException("TRIMUS_EGRESS_DNS_UPSTREAM " + upstreamAddress
                    + " is the resolver's own address: every allowed query would loop");
        }

        DnsMetrics metrics = new DnsMetrics(registry);
        AnswerCache cache = new AnswerCache(dns.cacheMaxEntries(), dns.cacheMaxTtl(), System::nanoTime);
        metrics.bind(cache, registry);
        upstream = new UpstreamResolver(vertx, upstreamAddress, dns.upstreamTimeout(), dns.upstreamMaxInFlight());
        if (dns.perSandboxTcpConnections() < 1) {
            throw new IllegalStateException("TRIMUS_EGRESS_DNS_PER_SANDBOX_TCP_CONNECTIONS must be at least 1, got "
                    + dns.perSandboxTcpConnections());
        }
        SourceQueryBudget budget = new SourceQueryBudget(dns.perSandboxQps(), dns.perSandboxBurst(), System::nanoTime);
        DnsQueryHandler.Steering steering = steering(listen);
        DnsQueryHandler handler = new DnsQueryHandler(new QueryPolicy(sandboxes, allowlists, agentAllowlists, modes,
                current), anomalies,
                cache, upstream, metrics, budget, steering, tunnelling);
        server = new DnsServer(vertx, handler, new DnsServer.Limits(dns.tcpMaxConnections(),
                dns.perSandboxTcpConnections(), dns.tcpIdleTimeout()));
        try {
            server.start(listen.getHostString(), listen.getPort(),
                            dns.listeners().orElse(Runtime.getRuntime().availableProcessors()))
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            server = null;
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            server = null;
            throw new IllegalStateException("binding the DNS resolver to " + listen + " took over 30 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding the DNS resolver to " + listen, e);
        }
        listenHost = listen.getHostString();
        if (steering != null) {
            LOG.infof("DNS resolver serving on %s:%d (UDP and TCP, %d event loops), steering allowed names to the"
                            + " egress proxy at %s; the proxy resolves them with %s:%d", listen.getHostString(),
                    server.port(), server.udpSockets(),
                    steering.proxy().getHostAddress(), upstreamAddress.getAddress().getHostAddress(),
                    upstreamAddress.getPort());
        } else {
            LOG.infof("DNS resolver serving on %s:%d (UDP and TCP), forwarding allowed names to %s:%d"
                            + " (TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT=-1: no transparent proxy to steer them to)",
                    listen.getHostString(), server.port(), upstreamAddress.getAddress().getHostAddress(),
                    upstreamAddress.getPort());
        }
    }

    /**
     * Where allowed names are steered: TRIMUS_EGRESS_PROXY_ADDRESS, else the resolver's own address, where the proxy's
     * transparent listeners are; null when the transparent proxy is off. It must be one IPv4 address sandboxes can
     * dial, not a wildcard.
     */
    private DnsQueryHandler.Steering steering(InetSocketAddress listen) {
        TrimusConfig.Proxy proxy = config.egress().proxy();
        if (proxy.transparentHttpsPort() < 0) {
            return null;
        }
        Optional<String> configured = proxy.address().map(String::trim).filter(value -> !value.isEmpty());
        String setting = configured.isPresent() ? "TRIMUS_EGRESS_PROXY_ADDRESS" : "TRIMUS_EGRESS_DNS_ADDR";
        String host = configured.orElse(listen.getHostString());
        java.net.InetAddress address = resolved(setting, new InetSocketAddress(host, 0)).getAddress();
        if (!(address instanceof java.net.Inet4Address steered) || address.isAnyLocalAddress()) {
            throw new IllegalStateException(setting + " " + host + " is no single IPv4 address the resolver can steer"
                    + " allow-listed names to (the transparent egress proxy, which sandboxes must reach there); set"
                    + " TRIMUS_EGRESS_PROXY_ADDRESS to the address sandboxes reach egress-service at, e.g. 172.30.0.1,"
                    + " or TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT=-1");
        }
        return new DnsQueryHandler.Steering(steered, STEERED_TTL_SECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        stop();
    }

    /** Closes the sockets. */
    synchronized void stop() {
        if (server != null) {
            try {
                server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                LOG.warnf("closing the DNS resolver's sockets: %s", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server = null;
            listenHost = null;
        }
        if (upstream != null) {
            upstream.close();
            upstream = null;
        }
    }

    /** The port the resolver serves on, once started. */
    public Optional<Integer> port() {
        DnsServer running = server;
        return running == null ? Optional.empty() : Optional.of(running.port());
    }

    /** The host the resolver serves on, once started: the egress proxy listens there too. */
    public Optional<String> listenHost() {
        return Optional.ofNullable(listenHost);
    }

    /** The resolver's upstream, once started: the egress proxy resolves allowed hosts with it. */
    public Optional<Upstream> upstream() {
        return Optional.ofNullable(upstream);
    }

    private static InetSocketAddress resolved(String setting, InetSocketAddress address) {
        InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
        if (resolved.isUnresolved()) {
            throw new IllegalStateException(setting + ": cannot resolve host '" + address.getHostString() + "'");
        }
        return resolved;
    }
}
