package io.trimus.egress.proxy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.RecordingAnomalies;
import io.trimus.egress.connection.ConnectionRecord;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.dns.UpstreamResolver;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.destination.OutsideAddresses;
import io.trimus.egress.proxy.destination.TestDestinations;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.impl.VertxByteBufAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An open tunnel carries bytes exactly: random payloads of many megabytes both ways at once through a real tunnel
 * (a port the allowlist names, so the tunnel opens at once and carries raw bytes), each side's MD5 checked against
 * what the other sent, the connection record's byte counts checked, and a side that closes right after its last
 * write still has every byte delivered before the other side sees the end. A relay that copies, reorders, drops or
 * keeps a buffer fails here: the digests, the counts, or the pooled direct memory still in use afterwards.
 *
 * <p>Here with Netty's native transport (epoll), as deployed ({@code quarkus.vertx.prefer-native-transport}). The idle
 * timeout both closes an idle tunnel and
 * leaves one that trickles past it open.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RelayIntegrityTest {
    private static final String SANDBOX_IP = "127.0.0.2";
    private static final String OUTSIDE_IP = "127.0.0.5";
    private static final String HOST = "raw.example.test";
    private static final UUID COMPANY = UUID.randomUUID();
    private static final int MIB = 1024 * 1024;

    /** Threads of the test's own for the blocking sides (the common pool may have one thread on two cores). */
    private static final ExecutorService SIDES = Executors.newCachedThreadPool();

    private Vertx vertx;
    private TestUpstreamDns dns;
    private UpstreamResolver upstream;

    private final SandboxRegistry sandboxes = new SandboxRegistry();
    private final AllowlistCache allowlists = new AllowlistCache();
    private final List<ConnectionRecord> connections = new CopyOnWriteArrayList<>();
    private ServerSocket outside;
    private ProxyServer proxy;

    /** Whether the proxy runs on Netty's native transport (epoll), as deployed. */
    boolean nativeTransport() {
        return true;
    }

    @BeforeAll
    void startDns() throws Exception {
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(nativeTransport()));
        assertThat(vertx.isNativeTransportEnabled()).isEqualTo(nativeTransport());
        dns = new TestUpstreamDns().a(HOST, OUTSIDE_IP).start();
        upstream = new UpstreamResolver(vertx, new InetSocketAddress("127.0.0.1", dns.port()), Duration.ofSeconds(2),
                64);
    }

    @AfterAll
    void stopDns() {
        OutsideServers.await(upstream.close());
        dns.close();
        OutsideServers.await(vertx.close());
    }

    @BeforeEach
    void startProxy() throws IOException {
        connections.clear();
        outside = new ServerSocket(0, 50, InetAddress.getByName(OUTSIDE_IP));
        sandboxes.register(new Sandbox(SANDBOX_IP, COMPANY, UUID.randomUUID(), UUID.randomUUID(), "c1"));
        allowlists.replace(COMPANY, List.of(HOST + ":" + outside.getLocalPort()));
        proxy = proxy(Duration.ofMinutes(1));
    }

    private ProxyServer proxy(Duration idleTimeout) {
        ProxyServer server = PlainProxies.server(vertx,
                new ProxyPolicy(sandboxes, allowlists, company -> EgressMode.ENFORCE, () -> true, Set.of(443),
                        Set.of(443)),
                TestDestinations.uncached(upstream, new OutsideAddresses(OUTSIDE_IP)), new RecordingAnomalies(),
                connections::add,
                new ProxyLimits(8192, 8, idleTimeout, Duration.ofMinutes(5), Duration.ofSeconds(5),
                        Duration.ofSeconds(10)));
        OutsideServers.await(server.start("127.0.0.1", 0));
        return server;
    }

    @AfterEach
    void stopProxy() throws IOException {
        OutsideServers.await(proxy.close());
        outside.close();
    }

    @Test
    void randomMegabytesCrossBothWaysAtOnceUnchangedAndCounted() throws Exception {
        int up = 48 * MIB + 12_345;
        int down = 40 * MIB + 678;
        long directBefore = pooledDirectMemory();
        CompletableFuture<String> outsideSide = CompletableFuture.supplyAsync(() -> serve(accepted -> {
            CompletableFuture<String> sent = sendAsync(accepted.getOutputStream(), 2, down);
            String received = digestOf(accepted.getInputStream(), up);
            sent.get(60, TimeUnit.SECONDS);
            return received;
        }), SIDES);
        try (Socket socket = tunnel()) {
            CompletableFuture<String> sent = sendAsync(socket.getOutputStream(), 1, up);
            String received = digestOf(socket.getInputStream(), down);

            assertThat(received).isEqualTo(digest(2, down));
            assertThat(sent.get(60, TimeUnit.SECONDS)).isEqualTo(digest(1, up));
            assertThat(outsideSide.get(60, TimeUnit.SECONDS)).isEqualTo(digest(1, up));
        }
        ConnectionRecord record = awaitRecord();
        assertThat(record.decision()).isEqualTo("allowed");
        assertThat(record.bytesOut()).isEqualTo(up);
        assertThat(record.bytesIn()).isEqualTo(down);
        // every buffer read was released by its write: the pool holds far less than the 88 MiB carried
        assertThat(pooledDirectMemory() - directBefore).isLessThan(24L * MIB);
    }

    @Test
    void aClientThatClosesRightAfterItsLastWriteHasEveryByteDelivered() throws Exception {
        int up = 8 * MIB + 3;
        CompletableFuture<String> outsideSide = CompletableFuture.supplyAsync(() -> serve(accepted -> {
            String received = digestOf(accepted.getInputStream(), up);
            // then the end of the stream: the proxy closes its side once the client's last bytes are written
            return accepted.getInputStream().read() < 0 ? received : "more than was sent";
        }), SIDES);
        try (Socket socket = tunnel()) {
            send(socket.getOutputStream(), 3, up);
            socket.shutdownOutput();
            assertThat(outsideSide.get(60, TimeUnit.SECONDS)).isEqualTo(digest(3, up));
        }
        assertThat(awaitRecord().bytesOut()).isEqualTo(up);
    }

    @Test
    void aHostThatClosesRightAfterItsLastWriteHasEveryByteDelivered() throws Exception {
        int down = 8 * MIB + 5;
        CompletableFuture<String> outsideSide = CompletableFuture.supplyAsync(() -> serve(accepted -> {
            send(accepted.getOutputStream(), 4, down);
            return "sent";
        }), SIDES);
        try (Socket socket = tunnel()) {
            String received = digestOf(socket.getInputStream(), down);

            assertThat(received).isEqualTo(digest(4, down));
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(outsideSide.get(60, TimeUnit.SECONDS)).isEqualTo("sent");
        }
        assertThat(awaitRecord().bytesIn()).isEqualTo(down);
    }

    @Test
    void aTunnelIdleForTheIdleTimeoutIsClosedOnBothSides() throws Exception {
        OutsideServers.await(proxy.close());
        proxy = proxy(Duration.ofMillis(500));
        CompletableFuture<String> outsideSide = CompletableFuture.supplyAsync(() -> serve(accepted -> {
            accepted.getOutputStream().write(7);
            accepted.getOutputStream().flush();
            InputStream in = accepted.getInputStream();
            // the two bytes the client sent, then nothing moves until the idle timeout ends the tunnel
            return in.read() + "," + in.read() + "," + in.read();
        }), SIDES);
        try (Socket socket = tunnel()) {
            assertThat(socket.getInputStream().read()).isEqualTo(7);
            socket.getOutputStream().write(new byte[] {1, 2});
            socket.getOutputStream().flush();

            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(outsideSide.get(30, TimeUnit.SECONDS)).isEqualTo("1,2,-1");
        }
        ConnectionRecord record = awaitRecord();
        assertThat(record.bytesOut()).isEqualTo(2);
        assertThat(record.bytesIn()).isEqualTo(1);
    }

    @Test
    void aTunnelThatTricklesLongerThanTheIdleTimeoutStaysOpen() throws Exception {
        OutsideServers.await(proxy.close());
        proxy = proxy(Duration.ofMillis(500));
        int pieces = 15;
        CompletableFuture<String> outsideSide = CompletableFuture.supplyAsync(() -> serve(accepted -> {
            InputStream in = accepted.getInputStream();
            StringBuilder got = new StringBuilder();
            for (int i = 0; i < pieces; i++) {
                got.append(in.read()).append(' ');
            }
            // the answer after 1.5 s of trickling, three idle timeouts: the tunnel was not closed meanwhile
            accepted.getOutputStream().write(9);
            accepted.getOutputStream().flush();
            return got.toString().trim() + "|" + in.read();
        }), SIDES);
        java.util.concurrent.ScheduledExecutorService pace =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try (Socket socket = tunnel()) {
            // the trickle itself, the test's input: a byte every 100 ms, 15 of them (the task's exception ends it)
            java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
            pace.scheduleAtFixedRate(() -> {
                int next = sent.incrementAndGet();
                if (next > pieces) {
                    throw new java.util.concurrent.CancellationException("all sent");
                }
                try {
                    socket.getOutputStream().write(next);
                    socket.getOutputStream().flush();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, 0, 100, TimeUnit.MILLISECONDS);
            assertThat(socket.getInputStream().read()).isEqualTo(9);
            // then quiet: the idle timeout ends it
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(outsideSide.get(30, TimeUnit.SECONDS)).isEqualTo("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15|-1");
        } finally {
            pace.shutdownNow();
        }
        ConnectionRecord record = awaitRecord();
        assertThat(record.bytesOut()).isEqualTo(pieces);
        assertThat(record.bytesIn()).isEqualTo(1);
    }

    /** A CONNECT to the outside server's port, answered 200: from here on the socket is the tunnel. */
    private Socket tunnel() throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(SANDBOX_IP, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", proxy.port()), 5000);
        socket.setSoTimeout(60_000);
        String authority = HOST + ":" + outside.getLocalPort();
        assertThat(ProxySockets.send(socket, "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n"))
                .startsWith("HTTP/1.1 200 ");
        return socket;
    }

    private interface Side {
        String run(Socket accepted) throws Exception;
    }

    /** Accepts the proxy's connection to the outside server and runs {@code side} on it, then closes it. */
    private String serve(Side side) {
        try (Socket accepted = outside.accept()) {
            accepted.setSoTimeout(60_000);
            return side.run(accepted);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static CompletableFuture<String> sendAsync(OutputStream out, long seed, int length) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return send(out, seed, length);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, SIDES);
    }

    /** Writes {@code length} pseudo-random bytes of {@code seed} in uneven pieces; their MD5. */
    private static String send(OutputStream out, long seed, int length) throws IOException {
        Random random = new Random(seed);
        Random pieces = new Random(~seed);
        MessageDigest md5 = md5();
        byte[] chunk = new byte[256 * 1024];
        for (int left = length; left > 0; ) {
            int n = Math.min(left, 1 + pieces.nextInt(chunk.length));
            fill(random, chunk, n);
            md5.update(chunk, 0, n);
            out.write(chunk, 0, n);
            left -= n;
        }
        out.flush();
        return HexFormat.of().formatHex(md5.digest());
    }

    /** The MD5 of what {@link #send} writes for {@code seed} and {@code length}. */
    private static String digest(long seed, int length) throws IOException {
        return send(OutputStream.nullOutputStream(), seed, length);
    }

    /** Reads exactly {@code length} bytes (failing at an early end); their MD5. */
    private static String digestOf(InputStream in, int length) throws IOException {
        MessageDigest md5 = md5();
        byte[] buffer = new byte[64 * 1024];
        for (int left = length; left > 0; ) {
            int n = in.read(buffer, 0, Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("the stream ended " + left + " bytes early");
            }
            md5.update(buffer, 0, n);
            left -= n;
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    private static void fill(Random random, byte[] chunk, int n) {
        for (int i = 0; i < n; i += 8) {
            long value = random.nextLong();
            for (int j = 0; j < 8 && i + j < n; j++) {
                chunk[i + j] = (byte) (value >>> (8 * j));
            }
        }
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Direct memory the pools Vert.x's channels allocate their reads from hold now. */
    private static long pooledDirectMemory() {
        long used = 0;
        for (ByteBufAllocator allocator : Stream.of(VertxByteBufAllocator.POOLED_ALLOCATOR,
                PooledByteBufAllocator.DEFAULT).distinct().toList()) {
            if (allocator instanceof PooledByteBufAllocator pooled) {
                used += pooled.metric().usedDirectMemory();
            }
        }
        return used;
    }

    private ConnectionRecord awaitRecord() {
        await().atMost(Duration.ofSeconds(10)).until(() -> connections.size() == 1);
        return connections.get(0);
    }
}
