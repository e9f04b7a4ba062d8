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
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.trimus.egress.dns.DnsTestClient.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The upstream client against an upstream the test drives packet by packet, including forged replies. */
class UpstreamResolverTest {
    private static Vertx vertx;
    private DatagramSocket fakeUpstream;
    private UpstreamResolver resolver;

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopVertx() {
        ResolverFixture.await(vertx.close());
    }

    @BeforeEach
    void start() throws Exception {
        fakeUpstream = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        fakeUpstream.setSoTimeout(10_000);
        resolver = new UpstreamResolver(vertx, new InetSocketAddress("127.0.0.1", fakeUpstream.getLocalPort()),
                Duration.ofSeconds(2), 1);
    }

    @AfterEach
    void stop() {
        fakeUpstream.close();
        ResolverFixture.await(resolver.close());
    }

    @Test
    void repliesWithTheWrongIdQuestionOrSourceAreIgnored() throws Exception {
        Future<Message> answer = resolver.resolve(name("www.example.test"), Type.A);
        DatagramPacket received = receive();
        Message query = DnsTestClient.parse(java.util.Arrays.copyOf(received.getData(), received.getLength()));
        InetSocketAddress resolverAddress = (InetSocketAddress) received.getSocketAddress();
        int id = query.getHeader().getID();

        send(fakeUpstream, resolverAddress, reply((id + 1) & 0xFFFF, "www.example.test", Type.A, "192.0.2.66"));
        send(fakeUpstream, resolverAddress, reply(id, "evil.example.test", Type.A, "192.0.2.67"));
        send(fakeUpstream, resolverAddress, reply(id, "www.example.test", Type.AAAA, "192.0.2.68"));
        try (DatagramSocket forger = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            send(forger, resolverAddress, reply(id, "www.example.test", Type.A, "192.0.2.69"));
        }
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !answer.isComplete());
        send(fakeUpstream, resolverAddress, reply(id, "www.example.test", Type.A, "192.0.2.1"));

        Message resolved = answer.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(resolved.getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("192.0.2.1");
    }

    @Test
    void everyQueryGoesOutWithAFreshRandomId() throws Exception {
        Set<Integer> ids = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            // the in-flight slot of the previous question is given back by a listener of its future, which may run
            // just after the test saw the answer; with a limit of 1 the next question must wait for it
            await().atMost(Duration.ofSeconds(5)).until(() -> resolver.inFlight() == 0);
            Future<Message> answer = resolver.resolve(name("www.example.test"), Type.A);
            assertThat(answer.failed()).as("question %d refused: %s", i, answer.cause()).isFalse();
            DatagramPacket received;
            try {
                received = receive();
            } catch (java.net.SocketTimeoutException lost) {
                throw new AssertionError("question " + i + " never reached the upstream; its answer: "
                        + (answer.isComplete() ? answer.cause() : "pending"), lost);
            }
            Message query = DnsTestClient.parse(java.util.Arrays.copyOf(received.getData(), received.getLength()));
            ids.add(query.getHeader().getID());
            send(fakeUpstream, (InetSocketAddress) received.getSocketAddress(),
                    reply(query.getHeader().getID(), "www.example.test", Type.A, "192.0.2.1"));
            answer.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        }

        assertThat(ids).hasSizeGreaterThan(15);
    }

    @Test
    void questionsBeyondTheInFlightLimitFailAtOnce() throws Exception {
        Future<Message> first = resolver.resolve(name("slow.example.test"), Type.A);
        receive();

        Future<Message> second = resolver.resolve(name("other.example.test"), Type.A);

        assertThat(second.failed()).isTrue();
        assertThat(second.cause()).isInstanceOf(UpstreamException.class);
        assertThatThrownBy(() -> first.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(UpstreamException.class)
                .hasMessageContaining("did not answer within 2000 ms");
        assertThat(resolver.inFlight()).isZero();
    }

    private DatagramPacket receive() throws Exception {
        byte[] buffer = new byte[65535];
        DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        fakeUpstream.receive(packet);
        return packet;
    }

    private static byte[] reply(int id, String qname, int type, String address) throws Exception {
        Message reply = new Message(id);
        reply.getHeader().setFlag(Flags.QR);
        reply.addRecord(Record.newRecord(name(qname), type, DClass.IN), Section.QUESTION);
        reply.addRecord(new ARecord(name(qname), DClass.IN, 60, InetAddress.getByName(address)), Section.ANSWER);
        return reply.toWire();
    }

    private static void send(DatagramSocket from, InetSocketAddress to, byte[] packet) throws Exception {
        from.send(new DatagramPacket(packet, packet.length, to));
    }
}
