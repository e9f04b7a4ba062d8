package io.trimus.egress.dns;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.SocketAddress;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Resolves allowed questions at the upstream resolver, without blocking: each question goes out over UDP from its
 * own socket (a fresh source port) with a fresh random id, and a reply counts only when it comes from the upstream's
 * address and matches id and question, which makes a spoofed answer a guess of 32 bits. A truncated reply is asked
 * again over TCP. No answer within the timeout fails the future (the client gets SERVFAIL).
 */
public final class UpstreamResolver implements Upstream {
    private final Vertx vertx;
    private final InetSocketAddress upstream;
    private final String host;
    private final long timeoutMillis;
    private final int maxInFlight;
    private final NetClient tcp;
    private final SecureRandom random = new SecureRandom();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder sent = new LongAdder();
    private final LongAdder tcpFallbacks = new LongAdder();

    /**
     * @param upstream    the resolver allowed questions go to
     * @param timeout     how long one question may take, UDP and TCP fallback together
     * @param maxInFlight questions outstanding at once; beyond it a question fails at once
     */
    public UpstreamResolver(Vertx vertx, InetSocketAddress upstream, Duration timeout, int maxInFlight) {
        this.vertx = vertx;
        this.upstream = upstream;
        this.host = upstream.getAddress().getHostAddress();
        this.timeoutMillis = Math.max(1, timeout.toMillis());
        this.maxInFlight = maxInFlight;
        this.tcp = vertx.createNetClient(new NetClientOptions().setConnectTimeout((int) this.timeoutMillis));
    }

    @Override
    public Future<Message> resolve(Name name, int type) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            return Future.failedFuture(new UpstreamException(maxInFlight + " upstream queries already in flight"));
        }
        sent.increment();
        Promise<Message> promise = Promise.promise();
        long timer = vertx.setTimer(timeoutMillis, t -> promise.tryFail(
                new UpstreamException("upstream " + describe() + " did not answer within " + timeoutMillis + " ms")));
        Future<Message> answer = promise.future();
        answer.onComplete(done -> {
            vertx.cancelTimer(timer);
            inFlight.decrementAndGet();
        });
        overUdp(name, type, promise);
        return answer;
    }

    private void overUdp(Name name, int type, Promise<Message> promise) {
        int id = random.nextInt(0x10000);
        Buffer query = Buffer.buffer(DnsCodec.upstreamQuery(id, name, type).toWire());
        boolean v6 = upstream.getAddress() instanceof Inet6Address;
        DatagramSocket socket = vertx.createDatagramSocket(new DatagramSocketOptions().setIpV6(v6));
        promise.future().onComplete(done -> socket.close());
        socket.handler(packet -> {
            if (!fromUpstream(packet.sender())) {
                return;
            }
            Message response = DnsCodec.parseResponse(packet.data().getBytes());
            if (!answers(response, id, name, type)) {
                return;
            }
            if (response.getHeader().getFlag(Flags.TC)) {
                tcpFallbacks.increment();
                overTcp(name, type, promise);
            } else {
                promise.tryComplete(response);
            }
        });
        socket.listen(0, v6 ? "::" : "0.0.0.0")
                .compose(bound -> promise.future().isComplete()
                        ? Future.succeededFuture()
                        : socket.send(query, upstream.getPort(), host))
                .onFailure(failure -> promise.tryFail(
                        new UpstreamException("cannot send to upstream " + describe() + ": " + failure.getMessage())));
    }

    private void overTcp(Name name, int type, Promise<Message> promise) {
        if (promise.future().isComplete()) {
            return;
        }
        int id = random.nextInt(0x10000);
        byte[] query = DnsCodec.upstreamQuery(id, name, type).toWire();
        tcp.connect(upstream.getPort(), host)
                .onFailure(failure -> promise.tryFail(new UpstreamException(
                        "cannot connect to upstream " + describe() + " over TCP: " + failure.getMessage())))
                .onSuccess(socket -> {
                    promise.future().onComplete(done -> socket.close());
                    socket.closeHandler(closed -> promise.tryFail(
                            new UpstreamException("upstream " + describe() + " closed TCP without an answer")));
                    DnsTcpFraming.read(socket, bytes -> {
                        Message response = DnsCodec.parseResponse(bytes);
                        if (answers(response, id, name, type)) {
                            promise.tryComplete(response);
                        }
                    }, () -> promise.tryFail(
                            new UpstreamException("upstream " + describe() + " sent an empty TCP frame")));
                    socket.write(DnsTcpFraming.frame(query));
                });
    }

    private boolean fromUpstream(SocketAddress sender) {
        if (sender.port() != upstream.getPort()) {
            return false;
        }
        try {
            return InetAddress.getByName(sender.hostAddress()).equals(upstream.getAddress());
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean answers(Message response, int id, Name name, int type) {
        if (response == null || response.getHeader().getID() != id) {
            return false;
        }
        Record question = response.getQuestion();
        return question != null && question.getType() == type && question.getDClass() == DClass.IN
                && question.getName().equals(name);
    }

    private String describe() {
        return host + ":" + upstream.getPort();
    }

    /** Questions sent upstream so far (the fuzz test proves garbage never becomes one). */
    public long sent() {
        return sent.sum();
    }

    /** Truncated UDP replies asked again over TCP so far. */
    public long tcpFallbacks() {
        return tcpFallbacks.sum();
    }

    /** Questions outstanding now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** Closes the TCP client. */
    public Future<Void> close() {
        return tcp.close();
    }
}
