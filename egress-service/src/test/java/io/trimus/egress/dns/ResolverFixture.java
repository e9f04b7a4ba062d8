package io.trimus.egress.dns;

import io.trimus.egress.anomaly.RecordingAnomalies;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModes;
import io.trimus.egress.policy.PolicyCurrency;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The resolver's parts built by hand, as the service wires them, with in-memory registries, a recording anomaly
 * recorder and a clock the test can move forward: company A's sandbox at 127.0.0.1, company B's at 127.0.0.3.
 */
final class ResolverFixture {
    static final UUID COMPANY_A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    static final UUID COMPANY_B = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    static final Sandbox SANDBOX_A = new Sandbox("127.0.0.1", COMPANY_A, UUID.randomUUID(), UUID.randomUUID(), "ca");
    static final Sandbox SANDBOX_B = new Sandbox("127.0.0.3", COMPANY_B, UUID.randomUUID(), UUID.randomUUID(), "cb");

    final SandboxRegistry sandboxes = new SandboxRegistry();
    final AllowlistCache allowlists = new AllowlistCache();
    final RecordingAnomalies anomalies = new RecordingAnomalies();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final DnsMetrics metrics = new DnsMetrics(registry);
    private final AtomicLong clockOffset = new AtomicLong();
    final AnswerCache cache = new AnswerCache(1000, Duration.ofMinutes(5), () -> System.nanoTime() + clockOffset.get());
    final DnsQueryHandler handler;

    ResolverFixture(Upstream upstream, List<String> allowedForA, List<String> allowedForB) {
        this(upstream, allowedForA, allowedForB, SourceQueryBudget.off());
    }

    /** With a per-source query budget. */
    ResolverFixture(Upstream upstream, List<String> allowedForA, List<String> allowedForB, SourceQueryBudget budget) {
        this(upstream, allowedForA, allowedForB, budget, company -> EgressMode.ENFORCE, null);
    }

    /** Steering allowed names to {@code steering} (null: forwarding them), each company in its {@code modes}. */
    ResolverFixture(Upstream upstream, List<String> allowedForA, List<String> allowedForB, SourceQueryBudget budget,
                    EgressModes modes, DnsQueryHandler.Steering steering) {
        this(upstream, allowedForA, allowedForB, budget, modes, () -> true, steering);
    }

    /** As above, on a replica whose policy is current while {@code current} says so. */
    ResolverFixture(Upstream upstream, List<String> allowedForA, List<String> allowedForB, SourceQueryBudget budget,
                    EgressModes modes, PolicyCurrency current, DnsQueryHandler.Steering steering) {
        sandboxes.register(SANDBOX_A);
        sandboxes.register(SANDBOX_B);
        allowlists.replace(COMPANY_A, allowedForA);
        allowlists.replace(COMPANY_B, allowedForB);
        metrics.bind(cache, registry);
        handler = new DnsQueryHandler(new QueryPolicy(sandboxes, allowlists, modes, current), anomalies, cache, upstream, metrics,
                budget, steering);
    }

    /** A server on 127.0.0.1, any free port, UDP and TCP. */
    DnsServer serve(Vertx vertx, DnsServer.Limits limits) {
        // port 0 lets the kernel pick a free UDP port; the same TCP port can be taken by another socket of the
        // machine meanwhile (an outgoing connection's ephemeral port), so try a few ports before giving up
        IllegalStateException lastFailure = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            DnsServer server = new DnsServer(vertx, handler, limits);
            try {
                await(server.start("127.0.0.1", 0));
                return server;
            } catch (IllegalStateException e) {
                lastFailure = e;
            }
        }
        throw lastFailure;
    }

    /** Moves the cache's clock forward. */
    void advance(Duration by) {
        clockOffset.addAndGet(TimeUnit.NANOSECONDS.convert(by));
    }

    static <T> T await(io.vertx.core.Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
