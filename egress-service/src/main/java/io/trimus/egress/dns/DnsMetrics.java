package io.trimus.egress.dns;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The resolver's Prometheus series: {@code trimus_egress_dns_queries_total{decision}},
 * {@code trimus_egress_dns_latency_seconds} (histogram), {@code trimus_egress_dns_malformed_total},
 * {@code trimus_egress_dns_cache_hits_total} / {@code _misses_total} and {@code trimus_egress_dns_cache_hit_ratio},
 * {@code trimus_egress_dns_upstream_failures_total}, {@code trimus_egress_dns_errors_total} and
 * {@code trimus_egress_dns_tcp_refused_total{limit}} (connections closed at accept). Meters are made
 * once, so the hot path only increments. The per-query count is a {@link LongAdder} per decision that Prometheus reads
 * when it scrapes (a {@link FunctionCounter}): Quarkus's registry is a composite, whose counters pass every increment
 * on to each registry behind it through an iterator allocated per call, a cost the resolver paid per query; for the
 * same reason the latency timer is recorded in the registries behind a composite directly ({@link #timers}).
 */
public final class DnsMetrics {
    private final LongAdder[] queries = new LongAdder[Verdict.values().length];
    private final Counter malformed;
    private final Counter upstreamFailures;
    private final Counter errors;
    private final Counter droppedAnswers;
    private final Counter tcpRefusedPerSource;
    private final Counter tcpRefusedTotal;
    /** The latency timer in each registry behind the one given (see {@link #timers}). */
    private final Timer[] latency;

    public DnsMetrics(MeterRegistry registry) {
        for (Verdict verdict : Verdict.values()) {
            LongAdder count = new LongAdder();
            queries[verdict.ordinal()] = count;
            // a resolver started again in the same process (tests) counts anew: the meter reads this one's adder
            FunctionCounter earlier = registry.find("trimus.egress.dns.queries").tag("decision", verdict.tag())
                    .functionCounter();
            if (earlier != null) {
                registry.remove(earlier);
            }
            FunctionCounter.builder("trimus.egress.dns.queries", count, LongAdder::sum)
                    .description("DNS queries by the resolver's decision")
                    .tag("decision", verdict.tag())
                    .register(registry);
        }
        malformed = Counter.builder("trimus.egress.dns.malformed")
                .description("Packets dropped because they were no well-formed DNS query")
                .register(registry);
        upstreamFailures = Counter.builder("trimus.egress.dns.upstream.failures")
                .description("Allowed queries answered SERVFAIL because the upstream did not answer")
                .register(registry);
        errors = Counter.builder("trimus.egress.dns.errors")
                .description("Queries that hit an unexpected error in the resolver (answered SERVFAIL or dropped)")
                .register(registry);
        droppedAnswers = Counter.builder("trimus.egress.dns.dropped.answers")
                .description("UDP answers dropped because the socket's send queue was full (the client asks again)")
                .register(registry);
        tcpRefusedPerSource = Counter.builder("trimus.egress.dns.tcp.refused")
                .description("DNS-over-TCP connections closed at accept because of a limit")
                .tag("limit", "per_sandbox")
                .register(registry);
        tcpRefusedTotal = Counter.builder("trimus.egress.dns.tcp.refused")
                .description("DNS-over-TCP connections closed at accept because of a limit")
                .tag("limit", "total")
                .register(registry);
        latency = timers(Timer.builder("trimus.egress.dns.latency")
                .description("Time from a query's arrival to its answer being ready")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofSeconds(5)), registry);
    }

    /** Adds the cache's hit and miss counters and its hit ratio. */
    public void bind(AnswerCache cache, MeterRegistry registry) {
        FunctionCounter.builder("trimus.egress.dns.cache.hits", cache, AnswerCache::hits)
                .description("Allowed queries answered from the TTL cache")
                .register(registry);
        FunctionCounter.builder("trimus.egress.dns.cache.misses", cache, AnswerCache::misses)
                .description("Allowed queries the TTL cache could not answer")
                .register(registry);
        Gauge.builder("trimus.egress.dns.cache.hit.ratio", cache, DnsMetrics::hitRatio)
                .description("Cache hits over all cache lookups since start")
                .register(registry);
        Gauge.builder("trimus.egress.dns.cache.entries", cache, AnswerCache::size)
                .description("Answers held in the TTL cache")
                .register(registry);
    }

    private static double hitRatio(AnswerCache cache) {
        long hits = cache.hits();
        long total = hits + cache.misses();
        return total == 0 ? 0 : (double) hits / total;
    }

    void counted(Verdict verdict) {
        queries[verdict.ordinal()].increment();
    }

    void droppedMalformed() {
        malformed.increment();
    }

    void upstreamFailed() {
        upstreamFailures.increment();
    }

    void droppedAnswer() {
        droppedAnswers.increment();
    }

    void failed() {
        errors.increment();
    }

    void refusedConnection(boolean perSource) {
        (perSource ? tcpRefusedPerSource : tcpRefusedTotal).increment();
    }

    /** TCP connections closed at accept so far: {@code perSource} for the per-sandbox limit, else the total one. */
    public long refusedConnections(boolean perSource) {
        return (long) (perSource ? tcpRefusedPerSource : tcpRefusedTotal).count();
    }

    void answered(long startNanos) {
        long nanos = System.nanoTime() - startNanos;
        for (Timer timer : latency) {
            timer.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * The timer registered in each registry a composite holds (recursively), or in {@code registry} itself: a
     * composite timer passes each recording on through an iterator and a lambda allocated per call. The timer is then
     * not listed by the composite itself, only by the registries that export it (Prometheus, the scrape).
     */
    static Timer[] timers(Timer.Builder timer, MeterRegistry registry) {
        if (registry instanceof CompositeMeterRegistry composite && !composite.getRegistries().isEmpty()) {
            return composite.getRegistries().stream().flatMap(inner -> Arrays.stream(timers(timer, inner)))
                    .toArray(Timer[]::new);
        }
        return new Timer[] {timer.register(registry)};
    }

    /** Queries counted with {@code verdict} so far. */
    public long queries(Verdict verdict) {
        return queries[verdict.ordinal()].sum();
    }

    /** Malformed packets dropped so far. */
    public long malformed() {
        return (long) malformed.count();
    }

    /** Queries that hit an unexpected error so far (the fuzz test holds this at zero). */
    public long errors() {
        return (long) errors.count();
    }
}
