package io.trimus.egress.dns;

import io.trimus.egress.anomaly.RecordingAnomalies.Recorded;
import io.trimus.egress.policy.EgressMode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.Message;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.trimus.egress.dns.DnsTestClient.SANDBOX;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the transparent proxy on, the resolver never hands out an allowed name's real address: an A question is
 * answered with the proxy's address, AAAA and CNAME with no data, and the upstream is never asked. In report mode an
 * unlisted name is answered the same way and recorded as a denial that was not enforced; enforce mode still says
 * NXDOMAIN. Over real sockets on loopback, against a real upstream that logs what it is asked.
 */
class SteeredAnswersTest {
    private static final Inet4Address PROXY = (Inet4Address) address("172.30.0.1");

    private static Vertx vertx;
    private static TestUpstreamDns upstream;

    private final Map<UUID, EgressMode> modes = new ConcurrentHashMap<>();
    private final AtomicBoolean current = new AtomicBoolean(true);
    private ResolverFixture resolver;
    private UpstreamResolver upstreamResolver;
    private DnsServer server;
    private DnsTestClient client;

    @BeforeAll
    static void startUpstream() {
        vertx = Vertx.vertx();
        upstream = new TestUpstreamDns()
                .a("api.example.test", "192.0.2.10")
                .aaaa("api.example.test", "2001:db8::10", 300)
                .a("unlisted.example.test", "192.0.2.66")
                .start();
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
        resolver = new ResolverFixture(upstreamResolver, List.of("api.example.test", "*.cdn.example.test"),
                List.of(), SourceQueryBudget.off(),
                company -> modes.getOrDefault(company, EgressMode.ENFORCE), current::get,
                new DnsQueryHandler.Steering(PROXY, 60));
        server = resolver.serve(vertx, new DnsServer.Limits(16, Duration.ofSeconds(5)));
        client = new DnsTestClient(server.port(), Duration.ofSeconds(5));
    }

    @AfterEach
    void stopResolver() {
        ResolverFixture.await(server.close());
        ResolverFixture.await(upstreamResolver.close());
    }

    @Test
    void anAllowedNamesAQuestionIsAnsweredWithTheProxysAddressAndNeverForwarded() {
        Message query = DnsTestClient.query("API.example.test", Type.A);

        Message answer = client.udp(SANDBOX, query);

        assertThat(answer.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(answer.getQuestion()).isEqualTo(query.getQuestion());
        List<Record> records = answer.getSection(Section.ANSWER);
        assertThat(records).hasSize(1);
        ARecord a = (ARecord) records.get(0);
        assertThat(a.getAddress()).isEqualTo(PROXY);
        assertThat(a.getTTL()).isEqualTo(60);
        assertThat(a.getName()).isEqualTo(query.getQuestion().getName());
        assertThat(upstream.namesSeen()).isEmpty();
        assertThat(resolver.anomalies.all()).isEmpty();
    }

    @Test
    void aaaaAndCnameQuestionsOfAnAllowedNameHaveNoData() {
        for (int type : new int[] {Type.AAAA, Type.CNAME}) {
            Message answer = client.udp(SANDBOX, DnsTestClient.query("x.cdn.example.test", type));

            assertThat(answer.getRcode()).as(Type.string(type)).isEqualTo(Rcode.NOERROR);
            assertThat(answer.getSection(Section.ANSWER)).as(Type.string(type)).isEmpty();
        }
        Message overTcp = client.tcp(SANDBOX, DnsTestClient.query("api.example.test", Type.AAAA));
        assertThat(overTcp.getSection(Section.ANSWER)).isEmpty();
        assertThat(upstream.namesSeen()).isEmpty();
    }

    @Test
    void anEdnsQueryGetsItsSteeredAnswerWithAnOptRecord() {
        Message answer = client.udp(SANDBOX, DnsTestClient.ednsQuery("api.example.test", Type.A));

        assertThat(answer.getOPT()).isNotNull();
        assertThat(((ARecord) answer.getSection(Section.ANSWER).get(0)).getAddress()).isEqualTo(PROXY);
    }

    @Test
    void enforceModeStillAnswersAnUnlistedNameNxdomain() {
        Message answer = client.udp(SANDBOX, DnsTestClient.query("unlisted.example.test", Type.A));

        assertThat(answer.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(resolver.anomalies.all()).containsExactly(new Recorded(ResolverFixture.SANDBOX_A,
                "127.0.0.1", "unlisted.example.test", "A", "not_allowlisted", true));
    }

    @Test
    void aReplicaThatCannotConfirmItsPolicyAnswersServfailForEveryNameAndRecordsNothing() {
        modes.put(ResolverFixture.COMPANY_A, EgressMode.REPORT);
        current.set(false);

        for (String name : List.of("api.example.test", "unlisted.example.test")) {
            Message answer = client.udp(SANDBOX, DnsTestClient.query(name, Type.A));

            assertThat(answer.getRcode()).as(name).isEqualTo(Rcode.SERVFAIL);
            assertThat(answer.getSection(Section.ANSWER)).as(name).isEmpty();
        }
        assertThat(client.udp(SANDBOX, DnsTestClient.query("api.example.test", Type.TXT)).getRcode())
                .as("refused whatever the policy").isEqualTo(Rcode.REFUSED);
        assertThat(resolver.anomalies.all()).extracting(Recorded::reason).containsExactly("qtype_denied");
        assertThat(upstream.namesSeen()).isEmpty();

        current.set(true);
        assertThat(client.udp(SANDBOX, DnsTestClient.query("api.example.test", Type.A)).getRcode())
                .isEqualTo(Rcode.NOERROR);
    }

    @Test
    void reportModeSteersAnUnlistedNameAndRecordsItAsNotEnforced() {
        modes.put(ResolverFixture.COMPANY_A, EgressMode.REPORT);

        Message answer = client.udp(SANDBOX, DnsTestClient.query("unlisted.example.test", Type.A));

        assertThat(answer.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(((ARecord) answer.getSection(Section.ANSWER).get(0)).getAddress()).isEqualTo(PROXY);
        assertThat(resolver.anomalies.all()).containsExactly(new Recorded(ResolverFixture.SANDBOX_A,
                "127.0.0.1", "unlisted.example.test", "A", "not_allowlisted", false));
        assertThat(upstream.namesSeen()).isEmpty();
    }

    @Test
    void reportModeStillRefusesOtherQueryTypes() {
        modes.put(ResolverFixture.COMPANY_A, EgressMode.REPORT);

        Message answer = client.udp(SANDBOX, DnsTestClient.query("unlisted.example.test", Type.TXT));

        assertThat(answer.getRcode()).isEqualTo(Rcode.REFUSED);
        assertThat(resolver.anomalies.all()).extracting(Recorded::reason, Recorded::enforced)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("qtype_denied", true));
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
