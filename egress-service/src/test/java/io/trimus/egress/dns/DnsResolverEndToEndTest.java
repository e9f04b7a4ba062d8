package io.trimus.egress.dns;

import io.trimus.egress.anomaly.RecordingAnomalies;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.ClientSubnetOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import static io.trimus.egress.dns.DnsTestClient.SANDBOX;
import static io.trimus.egress.dns.DnsTestClient.UNKNOWN;
import static io.trimus.egress.dns.DnsTestClient.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The resolver over real sockets on loopback, against a real upstream DNS server: company A's sandbox is
 * 127.0.0.1, company B's is 127.0.0.3, and 127.0.0.2 is nobody. Every denial is checked against the upstream's own
 * log of the names it received.
 */
class DnsResolverEndToEndTest {
    private static final InetAddress SANDBOX_B = address("127.0.0.3");
    private static final int BIG_RECORDS = 40;

    private static Vertx vertx;
    private static TestUpstreamDns upstream;

    private ResolverFixture resolver;
    private UpstreamResolver upstreamResolver;
    private DnsServer server;
    private DnsTestClient client;

    @BeforeAll
    static void startUpstream() {
        vertx = Vertx.vertx();
        upstream = new TestUpstreamDns()
                .a("answer.example.test", "192.0.2.10")
                .aaaa("answer.example.test", "2001:db8::10", 300)
                .a("mixedcase.example.test", "192.0.2.11")
                .a("qtype.example.test", "192.0.2.12")
                .txt("qtype.example.test", "exfiltrated-secret")
                .a("other.example.test", "192.0.2.20")
                .a("denied.example.test", "192.0.2.66")
                .a("cached.example.test", "192.0.2.30", 300)
                .cname("alias.example.test", "answer.example.test", 600)
                .a("tcp.example.test", "192.0.2.40")
                .a("sections.example.test", "192.0.2.50")
                .a("x.cdn.example.test", "192.0.2.60")
                .silent("silent.example.test")
                .truncateOverUdp("big.example.test");
        for (int i = 1; i <= BIG_RECORDS; i++) {
            upstream.a("big.example.test", "198.51.100." + i);
        }
        upstream.start();
    }

    @AfterAll
    static void stopUpstream() {
        upstream.close();
        ResolverFixture.await(vertx.close());
    }

    @BeforeEach
    void startResolver() {
        upstream.clearQueries();
        upstreamResolver = new UpstreamResolver(vertx, new InetSocketAddress("127.0.0.1", upstream.port()),
                Duration.ofMillis(800), 64);
        resolver = new ResolverFixture(upstreamResolver,
                List.of("answer.example.test", "mixedcase.example.test", "qtype.example.test", "cached.example.test",
                        "alias.example.test", "tcp.example.test", "sections.example.test", "big.example.test",
                        "silent.example.test", "missing.example.test", "*.cdn.example.test",
                        "*.barrier.example.test", QueryPolicy.DOH_CANARY),
                List.of("other.example.test"));
        server = resolver.serve(vertx, new DnsServer.Limits(16, Duration.ofSeconds(5)));
        client = new DnsTestClient(server.port(), Duration.ofSeconds(5));
    }

    @AfterEach
    void stopResolver() {
        ResolverFixture.await(server.close());
        ResolverFixture.await(upstreamResolver.close());
    }

    @Test
    void allowedNameResolvesToTheUpstreamsAnswer() {
        Message query = DnsTestClient.query("answer.example.test", Type.A);

        Message answer = client.udp(SANDBOX, query);

        assertThat(answer.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(answer.getHeader().getID()).isEqualTo(query.getHeader().getID());
        assertThat(answer.getHeader().getFlag(Flags.QR)).isTrue();
        assertThat(answer.getHeader().getFlag(Flags.RD)).isTrue();
        assertThat(answer.getHeader().getFlag(Flags.RA)).isTrue();
        assertThat(answer.getQuestion()).isEqualTo(query.getQuestion());
        assertThat(addresses(answer)).containsExactly("192.0.2.10");
        assertThat(upstream.namesSeen()).containsExactly("answer.example.test");
        assertThat(resolver.anomalies.all()).isEmpty();
    }

    @Test
    void allowedAaaaAndCnameQuestionsResolve() {
        assertThat(addresses(client.udp(SANDBOX, DnsTestClient.query("answer.example.test", Type.AAAA))))
                .containsExactly("2001:db8:0:0:0:0:0:10");
        Message alias = client.udp(SANDBOX, DnsTestClient.query("alias.example.test", Type.A));
        assertThat(alias.getSection(Section.ANSWER)).extracting(Record::getType).containsExactly(Type.CNAME, Type.A);
        assertThat(client.udp(SANDBOX, DnsTestClient.query("alias.example.test", Type.CNAME))
                .getSection(Section.ANSWER)).extracting(Record::getType).containsExactly(Type.CNAME);
    }

    @Test
    void wildcardEntryResolvesASubName() {
        assertThat(addresses(client.udp(SANDBOX, DnsTestClient.query("X.CDN.example.test.", Type.A))))
                .containsExactly("192.0.2.60");
    }

    @Test
    void answerEchoesTheQuestionExactlyAsAsked() {
        Message query = DnsTestClient.query("MiXeDcAsE.Example.TEST", Type.A);

        Message answer = client.udp(SANDBOX, query);

        assertThat(answer.getQuestion().getName().toString()).isEqualTo("MiXeDcAsE.Example.TEST.");
        assertThat(addresses(answer)).containsExactly("192.0.2.11");
    }

    @Test
    void unlistedNameIsNxdomainAndNeverReachesTheUpstream() {
        Message answer = client.udp(SANDBOX, DnsTestClient.query("denied.example.test", Type.A));

        assertThat(answer.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(answer.getSection(Section.ANSWER)).isEmpty();
        assertThat(resolver.anomalies.all()).containsExactly(new RecordingAnomalies.Recorded(
                ResolverFixture.SANDBOX_A, "127.0.0.1", "denied.example.test", "A", "not_allowlisted"));
        assertNothingReachedTheUpstream();
    }

    @Test
    void anotherCompanysAllowedNameIsNxdomain() {
        Message asA = client.udp(SANDBOX, DnsTestClient.query("other.example.test", Type.A));

        assertThat(asA.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertNothingReachedTheUpstream();

        Message asB = client.udp(SANDBOX_B, DnsTestClient.query("other.example.test", Type.A));
        assertThat(addresses(asB)).containsExactly("192.0.2.20");
        assertThat(upstream.namesSeen()).containsOnlyOnce("other.example.test");
    }

    @Test
    void unknownSourceIsRefused() {
        Message answer = client.udp(UNKNOWN, DnsTestClient.query("answer.example.test", Type.A));

        assertThat(answer.getRcode()).isEqualTo(Rcode.REFUSED);
        assertThat(resolver.anomalies.all()).containsExactly(new RecordingAnomalies.Recorded(
                null, "127.0.0.2", "answer.example.test", "A", "unattributed_source"));
        assertNothingReachedTheUpstream();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TXT", "ANY", "MX", "HTTPS", "SVCB", "NULL", "SRV", "PTR"})
    void otherQueryTypesOnAnAllowedNameAreRefusedAndNeverForwarded(String qtype) {
        Message answer = client.udp(SANDBOX, DnsTestClient.query("qtype.example.test", Type.value(qtype)));

        assertThat(answer.getRcode()).isEqualTo(Rcode.REFUSED);
        assertThat(answer.getSection(Section.ANSWER)).isEmpty();
        assertNothingReachedTheUpstream();
        assertThat(resolver.anomalies.all()).extracting(RecordingAnomalies.Recorded::qtype,
                        RecordingAnomalies.Recorded::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(qtype, "qtype_denied"));
    }

    @Test
    void recordsAClientPutInItsQueryNeverReachTheUpstream() throws Exception {
        Message query = DnsTestClient.query("sections.example.test", Type.A);
        query.addRecord(new ARecord(name("sections.example.test"), DClass.IN, 60,
                InetAddress.getByName("203.0.113.66")), Section.ANSWER);
        query.addRecord(new NSRecord(name("example.test"), DClass.IN, 60, name("smuggled.attacker.example")),
                Section.AUTHORITY);
        query.addRecord(new ARecord(name("smuggled.attacker.example"), DClass.IN, 60,
                InetAddress.getByName("203.0.113.67")), Section.ADDITIONAL);
        query.addRecord(new OPTRecord(1232, 0, 0, 0,
                new ClientSubnetOption(24, InetAddress.getByName("203.0.113.0"))), Section.ADDITIONAL);

        Message answer = client.udp(SANDBOX, query);

        assertThat(addresses(answer)).containsExactly("192.0.2.50");
        assertThat(upstream.queriesSeen()).hasSize(1);
        Message forwarded = upstream.queriesSeen().get(0).message();
        assertThat(forwarded.getSection(Section.QUESTION)).containsExactly(query.getQuestion());
        assertThat(forwarded.getSection(Section.ANSWER)).isEmpty();
        assertThat(forwarded.getSection(Section.AUTHORITY)).isEmpty();
        assertThat(forwarded.getSection(Section.ADDITIONAL)).extracting(Record::getType).containsExactly(Type.OPT);
        assertThat(forwarded.getOPT().getOptions()).isEmpty();
        assertThat(forwarded.getHeader().getID()).isNotEqualTo(query.getHeader().getID());
        assertThat(forwarded.toString()).doesNotContain("attacker", "203.0.113");
    }

    @Test
    void tcpQueriesAreAnsweredAndDeniedLikeUdpOnes() {
        Message allowed = client.tcp(SANDBOX, DnsTestClient.query("tcp.example.test", Type.A));
        Message denied = client.tcp(SANDBOX, DnsTestClient.query("denied.example.test", Type.A));
        Message unknown = client.tcp(UNKNOWN, DnsTestClient.query("tcp.example.test", Type.A));

        assertThat(addresses(allowed)).containsExactly("192.0.2.40");
        assertThat(denied.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(unknown.getRcode()).isEqualTo(Rcode.REFUSED);
        assertThat(upstream.namesSeen()).containsExactly("tcp.example.test");
    }

    @Test
    void truncatedUpstreamAnswerIsFetchedAgainOverTcp() {
        Message answer = client.udp(SANDBOX, DnsTestClient.ednsQuery("big.example.test", Type.A));

        assertThat(answer.getHeader().getFlag(Flags.TC)).isFalse();
        assertThat(addresses(answer)).hasSize(BIG_RECORDS);
        assertThat(upstream.queriesSeen())
                .extracting(TestUpstreamDns.SeenQuery::transport, TestUpstreamDns.SeenQuery::name)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("udp", "big.example.test"),
                        org.assertj.core.groups.Tuple.tuple("tcp", "big.example.test"));
        assertThat(upstreamResolver.tcpFallbacks()).isEqualTo(1);
    }

    @Test
    void answerTooBigForAClassicUdpClientIsTruncatedAndServedWholeOverTcp() {
        Message overUdp = client.udp(SANDBOX, DnsTestClient.query("big.example.test", Type.A));
        Message overTcp = client.tcp(SANDBOX, DnsTestClient.query("big.example.test", Type.A));

        assertThat(overUdp.getHeader().getFlag(Flags.TC)).isTrue();
        assertThat(overUdp.toWire().length).isLessThanOrEqualTo(512);
        assertThat(overTcp.getHeader().getFlag(Flags.TC)).isFalse();
        assertThat(addresses(overTcp)).hasSize(BIG_RECORDS);
    }

    @Test
    void secondIdenticalQueryIsServedFromTheCacheWithItsTtlDecremented() {
        Message first = client.udp(SANDBOX, DnsTestClient.query("cached.example.test", Type.A));
        resolver.advance(Duration.ofSeconds(5));
        Message second = client.udp(SANDBOX, DnsTestClient.query("Cached.Example.Test", Type.A));

        assertThat(first.getSection(Section.ANSWER).get(0).getTTL()).isEqualTo(300);
        assertThat(second.getSection(Section.ANSWER).get(0).getTTL()).isEqualTo(295);
        assertThat(addresses(second)).containsExactly("192.0.2.30");
        assertThat(upstream.namesSeen()).containsExactly("cached.example.test");
        assertThat(resolver.cache.hits()).isEqualTo(1);
    }

    @Test
    void upstreamNxdomainIsPassedOnAndCachedNegatively() {
        Message first = client.udp(SANDBOX, DnsTestClient.query("missing.example.test", Type.A));
        Message second = client.udp(SANDBOX, DnsTestClient.query("missing.example.test", Type.A));

        assertThat(first.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(first.getSection(Section.AUTHORITY)).extracting(Record::getType).containsExactly(Type.SOA);
        assertThat(second.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(upstream.namesSeen()).containsExactly("missing.example.test");
        assertThat(resolver.anomalies.all()).isEmpty();
    }

    @Test
    void silentUpstreamMeansServfailAfterTheTimeout() {
        long start = System.nanoTime();
        Message answer = client.udp(SANDBOX, DnsTestClient.query("silent.example.test", Type.A));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(answer.getRcode()).isEqualTo(Rcode.SERVFAIL);
        assertThat(took).isBetween(Duration.ofMillis(800), Duration.ofSeconds(4));
        assertThat(upstreamResolver.inFlight()).isZero();
    }

    @Test
    void firefoxDohCanaryIsNxdomainEvenWhenListed() {
        Message answer = client.udp(SANDBOX, DnsTestClient.query(QueryPolicy.DOH_CANARY, Type.A));

        assertThat(answer.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(resolver.anomalies.all()).isEmpty();
        assertThat(resolver.metrics.queries(Verdict.DOH_CANARY)).isEqualTo(1);
        assertNothingReachedTheUpstream();
    }

    @ParameterizedTest
    @ValueSource(strings = {"no question", "two questions", "opcode NOTIFY", "opcode STATUS", "class CH"})
    void malformedQuestionsAreFormerrAndNeverForwarded(String kind) {
        Message query = formerrQuery(kind).get();

        Message answer = client.udp(SANDBOX, query);

        assertThat(answer.getRcode()).isEqualTo(Rcode.FORMERR);
        assertThat(answer.getHeader().getID()).isEqualTo(query.getHeader().getID());
        assertNothingReachedTheUpstream();
    }

    @Test
    void garbageGetsNoAnswerAndIsCounted() {
        byte[] answer = new DnsTestClient(server.port(), Duration.ofMillis(300))
                .udpRaw(SANDBOX, new byte[] {0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0x07});

        assertThat(answer).isNull();
        // counted on the server's event loop, which a loaded machine may reach after the client gave up waiting
        await().atMost(Duration.ofSeconds(5)).until(() -> resolver.metrics.malformed() >= 1);
        assertThat(resolver.metrics.malformed()).isEqualTo(1);
        assertNothingReachedTheUpstream();
    }

    @Test
    void decisionsAreCountedByKind() {
        client.udp(SANDBOX, DnsTestClient.query("answer.example.test", Type.A));
        client.udp(SANDBOX, DnsTestClient.query("denied.example.test", Type.A));
        client.udp(SANDBOX, DnsTestClient.query("denied.example.test", Type.TXT));
        client.udp(UNKNOWN, DnsTestClient.query("denied.example.test", Type.A));

        assertThat(resolver.registry.get("trimus.egress.dns.queries").tag("decision", "allowed").functionCounter().count())
                .isEqualTo(1);
        assertThat(resolver.metrics.queries(Verdict.NOT_ALLOWLISTED)).isEqualTo(1);
        assertThat(resolver.metrics.queries(Verdict.QTYPE_DENIED)).isEqualTo(1);
        assertThat(resolver.metrics.queries(Verdict.UNATTRIBUTED_SOURCE)).isEqualTo(1);
        assertThat(resolver.registry.get("trimus.egress.dns.latency").timer().count()).isEqualTo(4);
        assertThat(resolver.registry.get("trimus.egress.dns.cache.hit.ratio").gauge().value()).isZero();
    }

    /**
     * Proves that nothing the test sent so far reached the upstream: an allowed query sent afterwards has been
     * answered by it (so anything forwarded before would be in its log), and it is the only name in the log.
     */
    private void assertNothingReachedTheUpstream() {
        String barrier = "b" + System.nanoTime() + ".barrier.example.test";
        Message answer = client.udp(SANDBOX, DnsTestClient.query(barrier, Type.A));
        assertThat(answer.getRcode()).as("the barrier query's answer").isEqualTo(Rcode.NXDOMAIN);
        assertThat(upstream.namesSeen()).as("names the upstream received").containsExactly(barrier);
    }

    private static Supplier<Message> formerrQuery(String kind) {
        return switch (kind) {
            case "no question" -> () -> new Message(4711);
            case "two questions" -> () -> {
                Message query = DnsTestClient.query("answer.example.test", Type.A);
                query.addRecord(Record.newRecord(name("tcp.example.test"), Type.A, DClass.IN), Section.QUESTION);
                return query;
            };
            case "opcode NOTIFY" -> () -> withOpcode(Opcode.NOTIFY);
            case "opcode STATUS" -> () -> withOpcode(Opcode.STATUS);
            case "class CH" -> () -> {
                Message query = new Message(4712);
                query.addRecord(Record.newRecord(name("answer.example.test"), Type.A, DClass.CH), Section.QUESTION);
                return query;
            };
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static Message withOpcode(int opcode) {
        Message query = DnsTestClient.query("answer.example.test", Type.A);
        query.getHeader().setOpcode(opcode);
        return query;
    }

    private static List<String> addresses(Message answer) {
        return answer.getSection(Section.ANSWER).stream()
                .filter(r -> r.getType() == Type.A || r.getType() == Type.AAAA)
                .map(Record::rdataToString)
                .toList();
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (Exception e) {
            throw new IllegalArgumentException(ip, e);
        }
    }
}
