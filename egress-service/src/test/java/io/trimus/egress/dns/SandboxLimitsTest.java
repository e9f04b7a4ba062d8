package io.trimus.egress.dns;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.trimus.egress.dns.DnsTestClient.SANDBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fair shares of the resolver: one sandbox (one source address) flooding it gets REFUSED past its query budget and
 * cannot hold every TCP connection, while another sandbox's lookups and connections still go through.
 */
class SandboxLimitsTest {
    /** Company B's sandbox in the fixture. */
    private static final InetAddress OTHER_SANDBOX = address("127.0.0.3");
    private static final int BURST = 20;

    private static Vertx vertx;

    private ResolverFixture resolver;
    private DnsServer server;

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopVertx() {
        ResolverFixture.await(vertx.close());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            ResolverFixture.await(server.close());
        }
    }

    @Test
    void aFloodFromOneSandboxIsRefusedPastItsBudgetWhileAnotherSandboxStillResolves() throws Exception {
        // 1 question a second after the burst: the flood below outruns it by far
        serve(new SourceQueryBudget(1, BURST, System::nanoTime), new DnsServer.Limits(16, Duration.ofSeconds(5)));
        DnsTestClient client = client();

        List<Integer> rcodes = new ArrayList<>();
        for (int i = 0; i < 3 * BURST; i++) {
            rcodes.add(client.udp(SANDBOX, DnsTestClient.query("api.example.test", Type.A)).getRcode());
        }

        long answered = rcodes.stream().filter(rcode -> rcode == Rcode.NOERROR).count();
        long refused = rcodes.stream().filter(rcode -> rcode == Rcode.REFUSED).count();
        assertThat(answered).isBetween((long) BURST, BURST + 3L);
        assertThat(refused).isEqualTo(3L * BURST - answered);
        assertThat(rcodes.subList(0, BURST)).containsOnly(Rcode.NOERROR);
        assertThat(resolver.metrics.queries(Verdict.RATE_LIMITED)).isEqualTo(refused);
        // the budget counts TCP and UDP together
        assertThat(client.tcp(SANDBOX, DnsTestClient.query("api.example.test", Type.A)).getRcode())
                .isEqualTo(Rcode.REFUSED);

        Message other = client.udp(OTHER_SANDBOX, DnsTestClient.query("api.example.test", Type.A));
        assertThat(other.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(other.getSection(Section.ANSWER)).hasSize(1);
        assertThat(client.tcp(OTHER_SANDBOX, DnsTestClient.query("api.example.test", Type.A)).getRcode())
                .isEqualTo(Rcode.NOERROR);
    }

    @Test
    void deniedQueriesPastTheBudgetBecomeNoAnomalies() {
        serve(new SourceQueryBudget(1, BURST, System::nanoTime), new DnsServer.Limits(16, Duration.ofSeconds(5)));
        DnsTestClient client = client();

        for (int i = 0; i < 3 * BURST; i++) {
            client.udp(SANDBOX, DnsTestClient.query("q" + i + ".denied.test", Type.A));
        }

        // each denial within the budget is one anomaly (the recorder folds them later); past it, none
        assertThat(resolver.anomalies.all()).hasSizeBetween(BURST, BURST + 3);
        assertThat(resolver.metrics.queries(Verdict.NOT_ALLOWLISTED)).isEqualTo(resolver.anomalies.all().size());
        assertThat(resolver.metrics.queries(Verdict.RATE_LIMITED))
                .isEqualTo(3L * BURST - resolver.anomalies.all().size());
    }

    @Test
    void aSandboxBeyondItsTcpConnectionsIsClosedAtAcceptWhileAnotherSandboxConnects() throws Exception {
        serve(SourceQueryBudget.off(), new DnsServer.Limits(16, 2, Duration.ofSeconds(5)));
        DnsTestClient client = client();

        try (Socket first = client.connect(SANDBOX); Socket second = client.connect(SANDBOX)) {
            // both are served: the limit counts them once the server has accepted them
            assertThat(exchange(first)).isEqualTo(Rcode.NOERROR);
            assertThat(exchange(second)).isEqualTo(Rcode.NOERROR);
            try (Socket third = client.connect(SANDBOX)) {
                assertThat(readsEndOfStream(third)).isTrue();
            }
            assertThat(resolver.metrics.refusedConnections(true)).isEqualTo(1);

            try (Socket other = client.connect(OTHER_SANDBOX); Socket another = client.connect(OTHER_SANDBOX)) {
                assertThat(exchange(other)).isEqualTo(Rcode.NOERROR);
                assertThat(exchange(another)).isEqualTo(Rcode.NOERROR);
            }
        }
        // closed connections give the sandbox its share back
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            try (Socket again = client.connect(SANDBOX)) {
                assertThat(exchange(again)).isEqualTo(Rcode.NOERROR);
            }
        });
        assertThat(resolver.metrics.refusedConnections(false)).isZero();
    }

    @Test
    void aBudgetRefillsAtItsRateAndARestedSourceGetsItsBurstAgain() {
        AtomicLong clock = new AtomicLong(TimeUnit.HOURS.toNanos(1));
        SourceQueryBudget budget = new SourceQueryBudget(10, 3, clock::get);

        assertThat(acquired(budget, "172.30.0.5", 5)).isEqualTo(3);
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(acquired(budget, "172.30.0.5", 5)).isEqualTo(1);
        assertThat(acquired(budget, "172.30.0.6", 5)).isEqualTo(3);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(10));
        assertThat(acquired(budget, "172.30.0.5", 5)).isEqualTo(3);
    }

    @Test
    void aFloodOfSpoofedSourcesCannotGrowTheBudgetsState() {
        SourceQueryBudget budget = new SourceQueryBudget(200, 400, System::nanoTime);

        for (int i = 0; i < 3 * SourceQueryBudget.MAX_SOURCES; i++) {
            assertThat(budget.tryAcquire("10." + (i >> 16 & 0xff) + "." + (i >> 8 & 0xff) + "." + (i & 0xff)))
                    .isTrue();
        }

        assertThat(budget.trackedSources()).isLessThanOrEqualTo(SourceQueryBudget.MAX_SOURCES);
    }

    private static int acquired(SourceQueryBudget budget, String source, int asked) {
        int granted = 0;
        for (int i = 0; i < asked; i++) {
            granted += budget.tryAcquire(source) ? 1 : 0;
        }
        return granted;
    }

    private void serve(SourceQueryBudget budget, DnsServer.Limits limits) {
        resolver = new ResolverFixture(SandboxLimitsTest::oneAddress, List.of("*.example.test"),
                List.of("*.example.test"), budget);
        server = resolver.serve(vertx, limits);
    }

    private DnsTestClient client() {
        return new DnsTestClient(server.port(), Duration.ofSeconds(3));
    }

    private static int exchange(Socket socket) throws IOException {
        return DnsTestClient.parse(DnsTestClient.exchange(socket,
                DnsTestClient.query("api.example.test", Type.A).toWire())).getRcode();
    }

    private static boolean readsEndOfStream(Socket socket) throws IOException {
        socket.setSoTimeout(4000);
        InputStream in = socket.getInputStream();
        try {
            return in.read() == -1;
        } catch (SocketException reset) {
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        }
    }

    private static Future<Message> oneAddress(Name name, int type) {
        Message answer = new Message(1);
        answer.getHeader().setFlag(Flags.QR);
        answer.addRecord(Record.newRecord(name, type, DClass.IN), Section.QUESTION);
        answer.addRecord(new ARecord(name, DClass.IN, 60, address("192.0.2.1")), Section.ANSWER);
        return Future.succeededFuture(answer);
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(ip, e);
        }
    }
}
