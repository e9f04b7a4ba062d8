package io.trimus.egress.dns;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Message;
import org.xbill.DNS.Rcode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-place path proven equal to dnsjava's: the same packets go to a resolver that tries {@link InPlaceAnswers}
 * first (as the UDP listener does) and to one that only has {@link DnsQueryHandler#handle}, each with its own
 * registries, query budget, metrics and anomaly recorder built alike. Every answer must be byte-identical (or both
 * dropped), every reported anomaly the same, and the metrics equal at the end. The packets: over a million random
 * queries — names allow-listed, wildcard-matched, steered in report mode, denied, odd (escapes, edge hyphens, 63-byte
 * labels, 253-character names, compression pointers), all query types and classes, every header flag, EDNS with
 * and without options (cookies, client subnet, keep-alive, extended errors, garbage), trailing bytes — then
 * truncated, bit-flipped, overwritten, spliced; and the captured corpus of real stub resolvers' queries
 * ({@code dns-corpus/}: dig, glibc, musl, Node, Go), each as captured and mutated.
 */
class InPlaceAnswersDifferentialTest {
    private static final long SEED = 0x1A_D1FFL;
    private static final int GENERATED = 1_000_000;
    private static final int MUTATIONS_PER_CORPUS_PACKET = 200;

    private static final UUID COMPANY_A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID COMPANY_B = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final Sandbox SANDBOX_A = new Sandbox("127.0.0.1", COMPANY_A, UUID.randomUUID(),
            UUID.randomUUID(), "ca");
    private static final Sandbox SANDBOX_B = new Sandbox("127.0.0.3", COMPANY_B, UUID.randomUUID(),
            UUID.randomUUID(), "cb");
    private static final InetAddress[] SOURCES = {address("127.0.0.1"), address("127.0.0.3"), address("127.0.0.2"),
            address("::1")};
    private static final String[] NAMES = {
            "allowed.example.test", "ALLOWED.Example.Test", "a.cdn.example.test", "deep.x-y.cdn.example.test",
            "cdn.example.test", "git.example.test", "b-only.example.test", "other.example.test", "example.test",
            "use-application-dns.net", "Use-Application-DNS.NET", "resolver-check.trimus.invalid",
            "RESOLVER-CHECK.trimus.INVALID", "_srv._tcp.allowed.example.test", "x_y.allowed.example.test",
            "-lead.example.test", "trail-.example.test", "a--b.example.test", "localhost", "com", "1.2.3.4",
            "a" + "b".repeat(62) + ".example.test", "a" + "b".repeat(63) + ".example.test",
            ("x".repeat(63) + ".").repeat(3) + "y".repeat(61), ("x".repeat(63) + ".").repeat(3) + "y".repeat(62),
            "tunnel-0123456789abcdef.attacker.example",
    };
    private static final int[] TYPES = {1, 1, 1, 28, 28, 5, 16, 15, 65, 64, 255, 33, 12, 2, 6, 0, 41, 250, 251, 252,
            99, 1234, 65535};

    /** One resolver's parts, built alike for both sides. */
    private static final class World {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final DnsMetrics metrics = new DnsMetrics(registry);
        final Ledger anomalies = new Ledger();
        final DnsQueryHandler handler;
        final InPlaceAnswers inPlace;

        World(long[] clock, io.trimus.egress.config.TunnellingAction action) {
            SandboxRegistry sandboxes = new SandboxRegistry();
            sandboxes.register(SANDBOX_A);
            sandboxes.register(SANDBOX_B);
            AllowlistCache allowlists = new AllowlistCache();
            allowlists.replace(COMPANY_A, List.of("allowed.example.test", "*.cdn.example.test", "git.example.test:22",
                    "*.ports.example.test:8443"));
            allowlists.replace(COMPANY_B, List.of("b-only.example.test"));
            QueryPolicy policy = new QueryPolicy(sandboxes, allowlists,
                    company -> company.equals(COMPANY_B) ? EgressMode.REPORT : EgressMode.ENFORCE, () -> true);
            AnswerCache cache = new AnswerCache(100, java.time.Duration.ofMinutes(5), System::nanoTime);
            Upstream upstream = (name, type) -> Future.failedFuture(new UpstreamException("no upstream here"));
            // 100 questions a second per source, bursts of 10, on a clock that moves 1 ms per packet: some refused
            SourceQueryBudget budget = new SourceQueryBudget(100, 10, () -> clock[0]);
            // a low threshold: the names under example.test cross it early, so the anomaly raised at the crossing is
            // compared too, and with BLOCK the refusals that follow
            handler = new DnsQueryHandler(policy, anomalies, cache, upstream, metrics, budget,
                    new DnsQueryHandler.Steering((Inet4Address) address("10.0.0.53"), 5),
                    new io.trimus.egress.tunnelling.TunnellingWatch(0.3, action, anomalies, () -> clock[0]));
            inPlace = handler.inPlace();
        }
    }

    /** Keeps what each packet reported, to compare per packet. */
    private static final class Ledger implements AnomalyRecorder {
        final List<String> reported = new ArrayList<>();

        @Override
        public void record(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason,
                           boolean enforced) {
            reported.add(sandbox + " " + sourceIp + " " + qname + " " + qtype + " " + reason + " " + enforced);
        }
    }

    private final long[] clock = {0};
    private World both = new World(clock, io.trimus.egress.config.TunnellingAction.ALERT);
    private World dnsjavaOnly = new World(clock, io.trimus.egress.config.TunnellingAction.ALERT);
    private final ByteBuf out = Unpooled.buffer(512);
    private final Map<Verdict, Integer> inPlaceByVerdict = new EnumMap<>(Verdict.class);
    private int fed;
    private int answeredInPlace;

    @Test
    void generatedAndMutatedPacketsGetTheSameAnswersAsFromDnsjava() {
        Random random = new Random(SEED);
        for (int i = 0; i < GENERATED; i++) {
            byte[] packet = query(random);
            if (random.nextInt(5) < 2) {
                packet = DnsPacketFuzzTest.mutate(packet, random);
            }
            feed(packet, SOURCES[random.nextInt(SOURCES.length)]);
        }

        assertSameSideEffects();
        // The comparison means something only if the in-place path took a large share, of every kind of answer.
        assertThat(answeredInPlace).as("packets answered in place").isGreaterThan(GENERATED / 4);
        for (Verdict verdict : List.of(Verdict.FORWARD, Verdict.REPORTED, Verdict.NOT_ALLOWLISTED,
                Verdict.QTYPE_DENIED, Verdict.UNATTRIBUTED_SOURCE, Verdict.RATE_LIMITED, Verdict.DOH_CANARY,
                Verdict.RESOLVER_CHECK)) {
            assertThat(inPlaceByVerdict.getOrDefault(verdict, 0)).as("answered in place as %s (%s; all: %s)", verdict,
                            inPlaceByVerdict, both.metrics.queries(verdict))
                    .isGreaterThan(100);
        }
        assertThat(both.metrics.malformed()).as("malformed packets").isGreaterThan(1000);
        assertThat(both.metrics.errors()).isZero();
    }

    /**
     * A tunnel under an allow-listed wildcard, with the operator blocking: the names are steered until the score
     * crosses, then refused (REFUSED, suspected_tunnelling), the same way on both paths, for every type.
     */
    @Test
    void aTunnelBlockedMidwayGetsTheSameAnswersBothWays() throws Exception {
        both = new World(clock, io.trimus.egress.config.TunnellingAction.BLOCK);
        dnsjavaOnly = new World(clock, io.trimus.egress.config.TunnellingAction.BLOCK);
        Random random = new Random(SEED + 2);
        int[] types = {1, 28, 16, 5};
        for (int i = 0; i < 400; i++) {
            byte[] data = new byte[20];
            random.nextBytes(data);
            String name = HexFormat.of().formatHex(data) + ".cdn.example.test.";
            clock[0] += 50_000_000;     // within the budget of 100 a second
            feed(Message.newQuery(org.xbill.DNS.Record.newRecord(org.xbill.DNS.Name.fromString(name), types[i % types.length],
                    org.xbill.DNS.DClass.IN)).toWire(), SOURCES[0]);
        }

        assertSameSideEffects();
        assertThat(both.metrics.queries(Verdict.FORWARD)).as("steered before the crossing").isGreaterThan(0);
        assertThat(both.metrics.queries(Verdict.TUNNELLING)).as("refused after it").isGreaterThan(100);
        assertThat(answeredInPlace).as("answered in place").isGreaterThan(200);
    }

    @Test
    void realResolversQueriesGetTheSameAnswersAsFromDnsjava() throws Exception {
        List<byte[]> corpus = corpus();
        assertThat(corpus).as("captured queries in dns-corpus/").hasSizeGreaterThan(100);
        Random random = new Random(SEED + 1);
        int corpusAnsweredInPlace = 0;
        for (byte[] captured : corpus) {
            for (InetAddress source : SOURCES) {
                int before = answeredInPlace;
                feed(captured, source);
                corpusAnsweredInPlace += answeredInPlace - before;
            }
            for (int i = 0; i < MUTATIONS_PER_CORPUS_PACKET; i++) {
                feed(DnsPacketFuzzTest.mutate(captured, random), SOURCES[random.nextInt(SOURCES.length)]);
            }
        }

        assertSameSideEffects();
        assertThat(corpusAnsweredInPlace).as("captured queries answered in place (of %d)", corpus.size() * 4)
                .isGreaterThan(corpus.size() * 2);
    }

    private void feed(byte[] packet, InetAddress source) {
        fed++;
        clock[0] += 1_000_000;
        byte[] viaBoth = answerTryingInPlaceFirst(packet, source);
        byte[] viaDnsjava = dnsjavaOnly.handler.handle(source.getHostAddress(), packet.clone(),
                DnsQueryHandler.Transport.UDP).result();
        if (!Arrays.equals(viaBoth, viaDnsjava) || !both.anomalies.reported.equals(dnsjavaOnly.anomalies.reported)) {
            throw new AssertionError("packet " + fed + " from " + source.getHostAddress() + ": "
                    + HexFormat.of().formatHex(packet) + "\n in place: " + hex(viaBoth) + " " + both.anomalies.reported
                    + "\n dnsjava:  " + hex(viaDnsjava) + " " + dnsjavaOnly.anomalies.reported);
        }
        both.anomalies.reported.clear();
        dnsjavaOnly.anomalies.reported.clear();
    }

    private byte[] answerTryingInPlaceFirst(byte[] packet, InetAddress source) {
        out.clear();
        ByteBuf query = Unpooled.wrappedBuffer(packet.clone());
        if (both.inPlace.answer(query, source, out)) {
            answeredInPlace++;
            byte[] answer = ByteBufUtil.getBytes(out);
            inPlaceByVerdict.merge(verdictOf(answer), 1, Integer::sum);
            return answer;
        }
        return both.handler.handle(source.getHostAddress(), packet.clone(), DnsQueryHandler.Transport.UDP).result();
    }

    /** Roughly which verdict an in-place answer carries, to show each kind was compared. */
    private Verdict verdictOf(byte[] answer) {
        Message message = DnsTestClient.parse(answer);
        String name = message.getQuestion().getName().toString(true).toLowerCase();
        int rcode = message.getRcode();
        if (name.equals("resolver-check.trimus.invalid")) {
            return Verdict.RESOLVER_CHECK;
        }
        if (name.equals("use-application-dns.net") && rcode == Rcode.NXDOMAIN) {
            return Verdict.DOH_CANARY;
        }
        return switch (rcode) {
            case Rcode.NXDOMAIN -> Verdict.NOT_ALLOWLISTED;
            case Rcode.REFUSED -> both.anomalies.reported.isEmpty() ? Verdict.RATE_LIMITED
                    : both.anomalies.reported.get(0).startsWith("null ") ? Verdict.UNATTRIBUTED_SOURCE
                    : Verdict.QTYPE_DENIED;
            default -> both.anomalies.reported.isEmpty() ? Verdict.FORWARD : Verdict.REPORTED;
        };
    }

    private void assertSameSideEffects() {
        for (Verdict verdict : Verdict.values()) {
            assertThat(both.metrics.queries(verdict)).as("queries counted %s", verdict)
                    .isEqualTo(dnsjavaOnly.metrics.queries(verdict));
        }
        assertThat(both.metrics.malformed()).isEqualTo(dnsjavaOnly.metrics.malformed());
        assertThat(both.metrics.errors()).isEqualTo(dnsjavaOnly.metrics.errors());
        assertThat(both.registry.get("trimus.egress.dns.latency").timer().count())
                .isEqualTo(dnsjavaOnly.registry.get("trimus.egress.dns.latency").timer().count());
    }

    /** A query as a client might send it, mostly well formed, sometimes odd in one or more ways. */
    static byte[] query(Random random) {
        Packet packet = new Packet();
        packet.u16(random.nextInt(0x10000));
        int flags = random.nextInt(4) == 0 ? 0 : 0x0100;
        if (random.nextInt(20) == 0) {
            flags = random.nextInt(0x10000);
        } else if (random.nextInt(10) == 0) {
            flags |= 1 << random.nextInt(16);
        }
        packet.u16(flags);
        int questions = random.nextInt(25) == 0 ? random.nextInt(3) : 1;
        int answers = random.nextInt(40) == 0 ? 1 : 0;
        int authority = random.nextInt(40) == 0 ? 1 : 0;
        int edns = random.nextInt(3);
        int additional = random.nextInt(30) == 0 ? random.nextInt(3) : edns == 0 ? 0 : 1;
        packet.u16(questions).u16(answers).u16(authority).u16(additional);
        for (int q = 0; q < Math.max(1, questions); q++) {
            name(packet, random);
            packet.u16(TYPES[random.nextInt(TYPES.length)] == 1234 ? random.nextInt(0x10000)
                    : TYPES[random.nextInt(TYPES.length)]);
            packet.u16(random.nextInt(12) == 0 ? new int[] {3, 4, 254, 255, 0, 2}[random.nextInt(6)] : 1);
        }
        for (int r = 0; r < answers + authority; r++) {
            name(packet, random);
            packet.u16(1).u16(1).u32(60).u16(4).bytes(new byte[] {10, 0, 0, 1});
        }
        for (int r = 0; r < additional; r++) {
            if (random.nextInt(8) == 0) {
                otherAdditional(packet, random);
            } else {
                opt(packet, random);
            }
        }
        if (random.nextInt(15) == 0) {
            byte[] trailing = new byte[1 + random.nextInt(20)];
            random.nextBytes(trailing);
            packet.bytes(trailing);
        }
        return packet.toArray();
    }

    private static void name(Packet packet, Random random) {
        switch (random.nextInt(30)) {
            case 0 -> packet.u8(0); // the root
            case 1 -> packet.u16(0xC00C); // a pointer (to itself, or to the question)
            case 2 -> { // a label with a byte no host name has
                packet.u8(3).u8('a').u8(new int[] {'.', ' ', 0, 0xC3, '\\', '*', '"'}[random.nextInt(7)]).u8('b');
                labels(packet, "example.test");
            }
            case 3 -> packet.u8(0x41).u8('x').u8(0); // extended label type
            case 4 -> { // a random name, maybe ending in a pointer
                for (int i = random.nextInt(4); i >= 0; i--) {
                    byte[] label = new byte[1 + random.nextInt(10)];
                    random.nextBytes(label);
                    packet.u8(label.length).bytes(label);
                }
                if (random.nextBoolean()) {
                    packet.u16(0xC000 | random.nextInt(64));
                } else {
                    packet.u8(0);
                }
            }
            default -> labels(packet, randomCase(NAMES[random.nextInt(NAMES.length)], random)
                    + (random.nextInt(6) == 0 ? "." + randomLabel(random) : ""));
        }
    }

    private static void labels(Packet packet, String dotted) {
        for (String label : dotted.split("\\.")) {
            packet.u8(label.length()).bytes(label.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        packet.u8(0);
    }

    private static String randomCase(String name, Random random) {
        if (random.nextInt(3) != 0) {
            return name;
        }
        StringBuilder mixed = new StringBuilder(name);
        for (int i = 0; i < mixed.length(); i++) {
            if (random.nextBoolean()) {
                mixed.setCharAt(i, Character.toUpperCase(mixed.charAt(i)));
            }
        }
        return mixed.toString();
    }

    private static String randomLabel(Random random) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
        StringBuilder label = new StringBuilder();
        for (int i = 1 + random.nextInt(20); i > 0; i--) {
            label.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return label.toString();
    }

    private static void opt(Packet packet, Random random) {
        if (random.nextInt(30) == 0) {
            labels(packet, "opt.example"); // OPT away from the root
        } else {
            packet.u8(0);
        }
        packet.u16(41).u16(new int[] {512, 1232, 4096, 0, 65535}[random.nextInt(5)]);
        packet.u32(random.nextInt(10) == 0 ? random.nextInt() : random.nextInt(4) == 0 ? 0x8000 : 0);
        Packet options = new Packet();
        for (int i = random.nextInt(4) == 0 ? random.nextInt(3) : random.nextInt(2); i > 0; i--) {
            option(options, random);
        }
        byte[] data = options.toArray();
        int length = random.nextInt(25) == 0 ? Math.max(0, data.length + random.nextInt(5) - 2) : data.length;
        packet.u16(length).bytes(data);
    }

    private static void option(Packet options, Random random) {
        switch (random.nextInt(8)) {
            case 0, 1 -> { // cookie: client only, client + server, or a length dnsjava refuses
                int length = new int[] {8, 8, 16, 24, 40, 9, 7, 41, 15}[random.nextInt(9)];
                options.u16(10).u16(length).bytes(randomBytes(random, length));
            }
            case 2 -> { // client subnet, good or bad
                int prefix = random.nextInt(33);
                byte[] address = randomBytes(random, (prefix + 7) / 8);
                options.u16(8).u16(4 + address.length).u16(random.nextInt(8) == 0 ? 3 : 1).u8(prefix)
                        .u8(random.nextInt(3) == 0 ? 40 : 0).bytes(address);
            }
            case 3 -> { // padding
                int length = random.nextInt(64);
                options.u16(12).u16(length).bytes(new byte[length]);
            }
            case 4 -> { // TCP keep-alive with 0, 2 or a wrong number of bytes
                int length = new int[] {0, 2, 1, 3}[random.nextInt(4)];
                options.u16(11).u16(length).bytes(randomBytes(random, length));
            }
            case 5 -> { // extended DNS error, too short or with text
                int length = random.nextInt(6);
                options.u16(15).u16(length).bytes(randomBytes(random, length));
            }
            case 6 -> { // DAU / NSID / padding / unknown
                int code = new int[] {3, 5, 6, 7, 12, 65001, random.nextInt(0x10000)}[random.nextInt(7)];
                int length = random.nextInt(12);
                options.u16(code).u16(length).bytes(randomBytes(random, length));
            }
            default -> options.u16(random.nextInt(0x10000)).u16(random.nextInt(3)); // cut short (no data)
        }
    }

    private static void otherAdditional(Packet packet, Random random) {
        packet.u8(0).u16(new int[] {250, 24, 1, 16}[random.nextInt(4)]).u16(random.nextBoolean() ? 255 : 1).u32(0);
        byte[] data = randomBytes(random, random.nextInt(20));
        packet.u16(data.length).bytes(data);
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static List<byte[]> corpus() throws IOException, URISyntaxException {
        URL directory = InPlaceAnswersDifferentialTest.class.getResource("/dns-corpus");
        assertThat(directory).as("the dns-corpus test resource").isNotNull();
        try (Stream<Path> files = Files.list(Path.of(directory.toURI()))) {
            return files.filter(file -> file.toString().endsWith(".bin")).sorted().map(file -> {
                try (InputStream in = Files.newInputStream(file)) {
                    return in.readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        }
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? "(dropped)" : HexFormat.of().formatHex(bytes);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A growing packet. */
    private static final class Packet {
        private byte[] bytes = new byte[64];
        private int length;

        Packet u8(int value) {
            ensure(1);
            bytes[length++] = (byte) value;
            return this;
        }

        Packet u16(int value) {
            return u8(value >> 8).u8(value);
        }

        Packet u32(int value) {
            return u16(value >>> 16).u16(value);
        }

        Packet bytes(byte[] more) {
            ensure(more.length);
            System.arraycopy(more, 0, bytes, length, more.length);
            length += more.length;
            return this;
        }

        byte[] toArray() {
            return Arrays.copyOf(bytes, length);
        }

        private void ensure(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }
    }
}
