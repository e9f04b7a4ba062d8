package io.trimus.egress.dns;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.trimus.egress.dns.DnsTestClient.SANDBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The server's sockets: binding, and the TCP side's framing, pipelining and limits. */
class DnsServerTest {
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

    @BeforeEach
    void start() {
        resolver = new ResolverFixture(DnsServerTest::answerWithTheFirstOctetOfTheName,
                List.of("*.example.test"), List.of());
        server = resolver.serve(vertx, new DnsServer.Limits(2, Duration.ofSeconds(1)));
    }

    @AfterEach
    void stop() {
        ResolverFixture.await(server.close());
    }

    @Test
    void oneTcpConnectionCarriesSeveralQueriesSentAtOnce() throws Exception {
        try (Socket socket = client().connect(SANDBOX)) {
            Map<Integer, String> asked = new HashMap<>();
            for (int i = 1; i <= 5; i++) {
                Message query = DnsTestClient.query(i + ".example.test", Type.A);
                asked.put(query.getHeader().getID(), "192.0.2." + i);
                DnsTestClient.write(socket, query.toWire());
            }
            DnsTestClient.write(socket, DnsTestClient.query("denied.example.org", Type.A).toWire());

            Map<Integer, String> answered = new HashMap<>();
            for (int i = 1; i <= 5; i++) {
                Message answer = DnsTestClient.parse(DnsTestClient.read(socket));
                answered.put(answer.getHeader().getID(), answer.getSection(Section.ANSWER).get(0).rdataToString());
            }
            Message denied = DnsTestClient.parse(DnsTestClient.read(socket));

            assertThat(answered).isEqualTo(asked);
            assertThat(denied.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        }
    }

    @Test
    void queryArrivingByteByByteIsAnswered() throws Exception {
        byte[] query = DnsTestClient.query("7.example.test", Type.A).toWire();
        byte[] framed = new byte[query.length + 2];
        framed[0] = (byte) (query.length >> 8);
        framed[1] = (byte) query.length;
        System.arraycopy(query, 0, framed, 2, query.length);
        try (Socket socket = client().connect(SANDBOX)) {
            socket.setTcpNoDelay(true);
            for (byte b : framed) {
                socket.getOutputStream().write(b);
                socket.getOutputStream().flush();
            }
            Message answer = DnsTestClient.parse(DnsTestClient.read(socket));

            assertThat(answer.getSection(Section.ANSWER).get(0).rdataToString()).isEqualTo("192.0.2.7");
        }
    }

    @Test
    void emptyTcpFrameClosesTheConnectionAndIsCounted() throws Exception {
        try (Socket socket = client().connect(SANDBOX)) {
            socket.getOutputStream().write(new byte[] {0, 0});
            socket.getOutputStream().flush();

            assertThat(readsEndOfStream(socket)).isTrue();
            assertThat(resolver.metrics.malformed()).isEqualTo(1);
        }
    }

    @Test
    void malformedQueryOnTcpIsDroppedAndTheConnectionStaysUsable() throws Exception {
        try (Socket socket = client().connect(SANDBOX)) {
            DnsTestClient.write(socket, new byte[] {1, 2, 3});
            Message answer = DnsTestClient.parse(DnsTestClient.exchange(socket,
                    DnsTestClient.query("3.example.test", Type.A).toWire()));

            assertThat(answer.getRcode()).isEqualTo(Rcode.NOERROR);
            assertThat(resolver.metrics.malformed()).isEqualTo(1);
        }
    }

    @Test
    void connectionsBeyondTheLimitAreClosedAtOnce() throws Exception {
        try (Socket first = client().connect(SANDBOX); Socket second = client().connect(SANDBOX)) {
            // Both are served: the limit counts them once the server has accepted them.
            DnsTestClient.exchange(first, DnsTestClient.query("1.example.test", Type.A).toWire());
            DnsTestClient.exchange(second, DnsTestClient.query("2.example.test", Type.A).toWire());
            try (Socket third = client().connect(SANDBOX)) {
                assertThat(readsEndOfStream(third)).isTrue();
            }
        }
        // Closed connections free their slots.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            try (Socket again = client().connect(SANDBOX)) {
                assertThat(DnsTestClient.parse(DnsTestClient.exchange(again,
                        DnsTestClient.query("4.example.test", Type.A).toWire())).getRcode()).isEqualTo(Rcode.NOERROR);
            }
        });
    }

    @Test
    void idleConnectionIsClosed() throws Exception {
        try (Socket socket = client().connect(SANDBOX)) {
            DnsTestClient.exchange(socket, DnsTestClient.query("1.example.test", Type.A).toWire());
            long start = System.nanoTime();

            assertThat(readsEndOfStream(socket)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isBetween(Duration.ofMillis(500), Duration.ofSeconds(3));
        }
    }

    /**
     * The UDP sockets are served on event loops of the resolver's own: on Vert.x's shared loops an API request, a
     * metrics scrape or a batch of anomaly rows being stored held the queries of that loop up behind it.
     */
    @Test
    void udpIsServedOnTheResolversOwnEventLoopsNotOnVertxsShared() throws Exception {
        Vertx epoll = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        try {
            DnsServer own = new DnsServer(epoll, resolver.handler, new DnsServer.Limits(8, Duration.ofSeconds(1)));
            ResolverFixture.await(own.start("127.0.0.1", 0, 2));
            try {
                assertThat(own.udpThreads()).hasSize(2).doesNotHaveDuplicates()
                        .allMatch(name -> name.startsWith(DnsServer.LOOP_THREAD), "a thread of the resolver's own");
                DnsTestClient client = new DnsTestClient(own.port(), Duration.ofSeconds(3));
                for (int i = 1; i <= 8; i++) {
                    assertThat(client.udp(SANDBOX, DnsTestClient.query(i + ".example.test", Type.A))).isNotNull();
                    assertThat(client.tcp(SANDBOX, DnsTestClient.query(i + ".example.test", Type.A))).isNotNull();
                }
            } finally {
                ResolverFixture.await(own.close());
            }
        } finally {
            ResolverFixture.await(epoll.close());
        }
    }

    @Test
    void severalEventLoopsShareTheAddressAndEveryQueryIsAnswered() throws Exception {
        Vertx epoll = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        try {
            assertThat(epoll.isNativeTransportEnabled()).as("the native (epoll) transport is on the classpath").isTrue();
            DnsServer shared = new DnsServer(epoll, resolver.handler, new DnsServer.Limits(8, Duration.ofSeconds(1)));
            ResolverFixture.await(shared.start("127.0.0.1", 0, 4));
            try {
                assertThat(shared.udpSockets()).isEqualTo(4);
                DnsTestClient client = new DnsTestClient(shared.port(), Duration.ofSeconds(3));
                // every query from a new source port: the kernel spreads them over the four sockets
                for (int i = 1; i <= 64; i++) {
                    Message answer = client.udp(SANDBOX, DnsTestClient.query((i % 9 + 1) + ".example.test", Type.A));
                    assertThat(answer).as("answer %d", i).isNotNull();
                    assertThat(answer.getSection(Section.ANSWER).get(0).rdataToString())
                            .isEqualTo("192.0.2." + (i % 9 + 1));
                }
                for (int i = 1; i <= 8; i++) {
                    assertThat(client.tcp(SANDBOX, DnsTestClient.query(i + ".example.test", Type.A))).isNotNull();
                }
                // a socket that did not ask to share cannot join the address
                assertThatThrownBy(() -> new DatagramSocket(new InetSocketAddress(InetAddress.getByName(
                        "127.0.0.1"), shared.port()))).isInstanceOf(java.net.BindException.class);
            } finally {
                ResolverFixture.await(shared.close());
            }
        } finally {
            ResolverFixture.await(epoll.close());
        }
    }

    @Test
    void aSecondReplicaOnItsOwnEventLoopsSharesTheAddressAndServesAloneOnceTheFirstIsGone() throws Exception {
        Vertx first = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        Vertx second = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        try {
            DnsServer one = new DnsServer(first, resolver.handler, new DnsServer.Limits(8, Duration.ofSeconds(1)));
            ResolverFixture.await(one.start("127.0.0.1", 0, 1));
            DnsServer two = new DnsServer(second, resolver.handler, new DnsServer.Limits(8, Duration.ofSeconds(1)));
            ResolverFixture.await(two.start("127.0.0.1", one.port(), 1));
            DnsTestClient client = new DnsTestClient(one.port(), Duration.ofSeconds(3));

            ResolverFixture.await(one.close());

            assertThat(client.udp(SANDBOX, DnsTestClient.query("1.example.test", Type.A))).isNotNull();
            assertThat(client.tcp(SANDBOX, DnsTestClient.query("2.example.test", Type.A))).isNotNull();
            ResolverFixture.await(two.close());
        } finally {
            ResolverFixture.await(first.close());
            ResolverFixture.await(second.close());
        }
    }

    /** Queries sent back to back: well within the sockets' default buffers, so none is lost on loopback. */
    private static final int BURST = 100;

    @Test
    void aBurstIsReadInBatchesAndEveryQueryAnsweredOnceALongOneToo() throws Exception {
        Vertx epoll = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        try {
            DnsServer batched = new DnsServer(epoll, resolver.handler, new DnsServer.Limits(8, Duration.ofSeconds(1)));
            ResolverFixture.await(batched.start("127.0.0.1", 0, 1));
            try (java.nio.channels.DatagramChannel client = java.nio.channels.DatagramChannel.open()) {
                client.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 1 << 20);
                client.bind(new InetSocketAddress(SANDBOX, 0));
                client.connect(new InetSocketAddress(SANDBOX, batched.port()));
                // sent back to back, so the listener finds many of them per read (recvmmsg)
                Map<Integer, Integer> expectedRcodes = new HashMap<>();
                for (int i = 0; i < BURST; i++) {
                    boolean allowed = i % 3 == 0;
                    Message query = DnsTestClient.query(allowed ? (i % 9 + 1) + ".example.test" : "x" + i + ".denied",
                            Type.A);
                    query.getHeader().setID(i);
                    expectedRcodes.put(i, allowed ? Rcode.NOERROR : Rcode.NXDOMAIN);
                    client.write(java.nio.ByteBuffer.wrap(query.toWire()));
                }
                // longer than a read slice: cut there, and what is left is read as usual (trailing bytes ignored)
                Message longQuery = DnsTestClient.query("y.denied", Type.A);
                longQuery.getHeader().setID(BURST);
                expectedRcodes.put(BURST, Rcode.NXDOMAIN);
                client.write(java.nio.ByteBuffer.wrap(java.util.Arrays.copyOf(longQuery.toWire(),
                        UdpListener.MAX_QUERY + 100)));
                client.configureBlocking(true);
                client.socket().setSoTimeout(5000);
                java.net.DatagramSocket socket = client.socket();
                for (int answered = 0; answered <= BURST; answered++) {
                    java.net.DatagramPacket packet = new java.net.DatagramPacket(new byte[1232], 1232);
                    socket.receive(packet);
                    Message answer = DnsTestClient.parse(java.util.Arrays.copyOf(packet.getData(), packet.getLength()));
                    Integer rcode = expectedRcodes.remove(answer.getHeader().getID());
                    assertThat(rcode).as("answer to query %d, once", answer.getHeader().getID()).isNotNull();
                    assertThat(answer.getRcode()).isEqualTo(rcode);
                }
                assertThat(expectedRcodes).isEmpty();
            } finally {
                ResolverFixture.await(batched.close());
            }
        } finally {
            ResolverFixture.await(epoll.close());
        }
    }

    @Test
    void addressInUseFailsTheStartWithAClearMessage() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            DnsServer second = new DnsServer(vertx, resolver.handler, new DnsServer.Limits(2, Duration.ofSeconds(1)));
            Future<Void> started = second.start("127.0.0.1", taken.getLocalPort());

            assertThatThrownBy(() -> started.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .hasMessageStartingWith("cannot serve DNS on 127.0.0.1:" + taken.getLocalPort() + " (UDP): ");
        }
    }

    @Test
    void tcpPortTakenFailsTheStartAndReleasesUdp() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            DnsServer second = new DnsServer(vertx, resolver.handler, new DnsServer.Limits(2, Duration.ofSeconds(1)));

            assertThatThrownBy(() -> second.start("127.0.0.1", port).toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS))
                    .cause()
                    .hasMessageStartingWith("cannot serve DNS on 127.0.0.1:" + port + " (TCP): ");
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                InetSocketAddress same = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port);
                try (DatagramSocket free = new DatagramSocket(same)) {
                    assertThat(free.getLocalPort()).isEqualTo(port);
                }
            });
        }
    }

    @Test
    void udpAnswerLargerThanTheClientsLimitIsTruncatedNotDropped() {
        DnsTestClient client = client();
        Message big = client.udp(SANDBOX, DnsTestClient.query("200.example.test", Type.A));

        assertThat(big.getHeader().getFlag(Flags.TC)).isTrue();
        assertThat(big.getSection(Section.ANSWER)).isEmpty();
    }

    private DnsTestClient client() {
        return new DnsTestClient(server.port(), Duration.ofSeconds(3));
    }

    /** True when the server closed the connection (end of stream or reset) before the read timeout. */
    private static boolean readsEndOfStream(Socket socket) throws IOException {
        socket.setSoTimeout(4000);
        InputStream in = socket.getInputStream();
        try {
            return in.read() == -1;
        } catch (SocketException reset) {
            return true;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        }
    }

    /**
     * A stand-in upstream: N.example.test has N A records 192.0.2.1 … 192.0.2.N (up to 254) — the first is
     * 192.0.2.N for N ≤ 9 so a test can tell answers apart — enough to overflow a 512-byte UDP answer at 200.
     */
    private static Future<Message> answerWithTheFirstOctetOfTheName(org.xbill.DNS.Name name, int type) {
        int n = Integer.parseInt(name.getLabelString(0));
        Message answer = new Message(1);
        answer.getHeader().setFlag(Flags.QR);
        answer.addRecord(Record.newRecord(name, type, DClass.IN), Section.QUESTION);
        try {
            if (n < 10) {
                answer.addRecord(new ARecord(name, DClass.IN, 60, InetAddress.getByName("192.0.2." + n)),
                        Section.ANSWER);
            } else {
                for (int i = 1; i <= Math.min(n, 254); i++) {
                    answer.addRecord(new ARecord(name, DClass.IN, 60, InetAddress.getByName("192.0.2." + i)),
                            Section.ANSWER);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Future.succeededFuture(answer);
    }
}
