package io.trimus.egress.dns;

import io.trimus.egress.config.TunnellingAction;
import io.trimus.egress.tunnelling.TunnellingWatch;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.RateLimitedAnomalyRecorder;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.lang.management.ManagementFactory;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-place path allocates nothing per query once warm: denials (with their anomaly, folded into the open window
 * of the real {@link RateLimitedAnomalyRecorder}, fresh names of a flood into the sandbox's overflow window),
 * steered answers and budget charges, measured with the JVM's
 * per-thread allocation counter over many queries. A String, an Instant or a boxed key per query would show as
 * dozens of bytes each. Every name is scored for tunnelling on the way ({@link TunnellingWatch}), the flood crossing
 * the threshold.
 */
class InPlaceAnswersAllocationTest {
    private static final UUID COMPANY = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final int WARM_UP = 400_000;
    private static final int MEASURED = 300_000;
    /** Per query, on average: room for the odd lazily grown table, none for an object per query. */
    private static final double MAX_BYTES_PER_QUERY = 2.0;

    private final AtomicInteger published = new AtomicInteger();

    @Test
    void deniedAndSteeredQueriesAreAnsweredWithoutAllocating() throws Exception {
        assertAnsweredWithoutAllocating(new SimpleMeterRegistry());
    }

    /**
     * Quarkus hands out a composite registry (Prometheus behind it), whose counters and timers allocate an iterator
     * per increment and recording: the resolver's meters must not go through it per query.
     */
    @Test
    void deniedAndSteeredQueriesAreAnsweredWithoutAllocatingBehindACompositeRegistry() throws Exception {
        assertAnsweredWithoutAllocating(new CompositeMeterRegistry(io.micrometer.core.instrument.Clock.SYSTEM,
                List.of(new SimpleMeterRegistry())));
    }

    private void assertAnsweredWithoutAllocating(MeterRegistry registry) throws Exception {
        SandboxRegistry sandboxes = new SandboxRegistry();
        sandboxes.register(new Sandbox("10.1.0.7", COMPANY, UUID.randomUUID(), UUID.randomUUID(), "c"));
        AllowlistCache allowlists = new AllowlistCache();
        allowlists.replace(COMPANY, List.of("registry.npmjs.org", "*.pythonhosted.org"));
        RateLimitedAnomalyRecorder anomalies = new RateLimitedAnomalyRecorder(event -> published.incrementAndGet(),
                Duration.ofHours(1), 10_000, RateLimitedAnomalyRecorder.DEFAULT_MAX_NAMES_PER_SANDBOX,
                Clock.systemUTC(), registry);
        DnsQueryHandler handler = new DnsQueryHandler(new QueryPolicy(sandboxes, allowlists,
                company -> EgressMode.ENFORCE, () -> true), anomalies, new AnswerCache(10, Duration.ofMinutes(1), System::nanoTime),
                (name, type) -> Future.failedFuture(new UpstreamException("none")), new DnsMetrics(registry),
                new SourceQueryBudget(1_000_000_000, 1_000_000, System::nanoTime),
                new DnsQueryHandler.Steering((Inet4Address) InetAddress.getByName("10.1.0.2"), 5),
                new TunnellingWatch(0.8, TunnellingAction.ALERT, anomalies, System::nanoTime));
        InPlaceAnswers answers = handler.inPlace();
        InetAddress sandbox = InetAddress.getByName("10.1.0.7");
        InetAddress stranger = InetAddress.getByName("10.1.0.8");
        List<ByteBuf> queries = new ArrayList<>();
        for (String name : List.of("Registry.npmjs.org.", "files.pythonhosted.org.", "exfil.attacker.example.",
                "x.y.z.tunnel.example.")) {
            for (int type : new int[] {Type.A, Type.AAAA, Type.TXT}) {
                queries.add(Unpooled.directBuffer().writeBytes(query(name, type, false)));
                queries.add(Unpooled.directBuffer().writeBytes(query(name, type, true)));
            }
        }
        // a tunnelling flood: every name fresh, far beyond the sandbox's budget of names with events of their own
        for (int i = 0; i < 5_000; i++) {
            queries.add(Unpooled.directBuffer().writeBytes(query("c" + i + ".tunnel.example.", Type.A, i % 2 == 0)));
        }
        ByteBuf out = Unpooled.directBuffer(512);

        run(answers, queries, sandbox, stranger, out, WARM_UP);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        int answered = run(answers, queries, sandbox, stranger, out, MEASURED);
        long allocated = threads.getThreadAllocatedBytes(thread) - before;

        assertThat(answered).as("queries answered in place").isEqualTo(MEASURED);
        assertThat((double) allocated / MEASURED).as("bytes allocated per query (%d in all)", allocated)
                .isLessThanOrEqualTo(MAX_BYTES_PER_QUERY);
        assertThat(anomalies.trackedKeys()).as("denials folded into their windows").isGreaterThan(0);
        assertThat(published.get()).as("first denials published at once: 100 names per source (two sources)")
                .isLessThanOrEqualTo(200);
    }

    private static int run(InPlaceAnswers answers, List<ByteBuf> queries, InetAddress sandbox, InetAddress stranger,
                           ByteBuf out, int count) {
        int answered = 0;
        for (int i = 0; i < count; i++) {
            out.clear();
            if (answers.answer(queries.get(i % queries.size()), i % 7 == 0 ? stranger : sandbox, out)) {
                answered++;
            }
        }
        return answered;
    }

    private static byte[] query(String name, int type, boolean edns) throws Exception {
        Message query = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
        if (edns) {
            query.addRecord(new OPTRecord(1232, 0, 0), Section.ADDITIONAL);
        }
        return query.toWire();
    }
}
