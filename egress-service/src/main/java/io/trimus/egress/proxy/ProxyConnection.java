package io.trimus.egress.proxy;

import io.trimus.egress.proxy.admission.ClientHelloSni.Hello;
import io.trimus.egress.proxy.admission.ClientHelloSni.NeedMore;
import io.trimus.egress.proxy.admission.ClientHelloSni;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.ProxyRequestHead;
import io.trimus.egress.proxy.admission.ProxyRequests;
import io.trimus.egress.proxy.admission.ProxyTarget;
import io.trimus.egress.proxy.admission.ProxyWay;
import io.trimus.egress.proxy.admission.RequestDenial;
import io.trimus.egress.proxy.admission.RequestStream;
import io.trimus.egress.proxy.destination.DestinationDialer.NotDialled;
import io.trimus.egress.proxy.relay.Relay;
import io.trimus.egress.proxy.relay.Splice;
import io.trimus.events.ProxyCheck;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One sandbox connection to the proxy, from its first byte to its close. It learns the destination the way its
 * {@link ProxyWay} says (request head; TLS ClientHello's SNI, read by {@link ClientHelloSni}; Host header), has
 * {@link ConnectionDecision} admit it and open the way to the address that passed, then carries the bytes: a raw
 * tunnel for TLS, after checking the ClientHello names the admitted host and offers no Encrypted Client Hello; request
 * by request for plain HTTP, read strictly ({@link RequestStream}), each one's Host checked and each one admitted
 * again. What it learns and carries is kept in its {@link ConnectionFacts}. Every handler runs on the client socket's
 * event loop, so the state needs no locks.
 */
final class ProxyConnection implements RequestStream.Reader {
    private static final byte[] ESTABLISHED =
            "HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] CHECKED = ("HTTP/1.1 204 No Content\r\n" + ProxyCheck.HEADER
            + ": ok\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);

    private enum State { SNIFFING, HEAD, DECIDING, PEEKING, TUNNEL, HTTP, CLOSED }

    private final ProxyServer.Parts parts;
    private final NetSocket client;
    private final Context context;
    private final ProxyWay way;
    private final int destinationPort;
    private final Runnable onClosed;
    private final ConnectionFacts facts;
    private final long totalTimer;
    private final long headTimer;

    private State state;
    /** TLS bytes read before the tunnel opens (the ClientHello), forwarded first. */
    private Buffer pending = Buffer.buffer();
    /** The ClientHello being read, when the connection must open with one. */
    private ClientHelloSni hello;
    /** The plain-HTTP requests, when the connection carries them. */
    private RequestStream requests;
    private NetSocket upstream;

    /**
     * @param destinationPort for a transparent way, the port the destination is dialled on; ignored for the explicit
     *                        proxy, whose requests name it
     */
    ProxyConnection(ProxyServer.Parts parts, NetSocket client, Context context, ProxyWay way, int destinationPort,
                    Runnable onClosed) {
        this.parts = parts;
        this.client = client;
        this.context = context;
        this.way = way;
        this.destinationPort = destinationPort;
        this.onClosed = onClosed;
        this.state = way == ProxyWay.TRANSPARENT_TLS ? State.SNIFFING : State.HEAD;
        if (way == ProxyWay.TRANSPARENT_TLS) {
            this.hello = new ClientHelloSni();
        } else {
            this.requests = new RequestStream(parts.limits().maxHeadBytes());
        }
        String sourceIp = client.remoteAddress().hostAddress();
        this.facts = new ConnectionFacts(way, sourceIp, parts.policy().sandboxAt(sourceIp).orElse(null));
        this.totalTimer = parts.vertx().setTimer(parts.limits().totalTimeout().toMillis(), t -> closeAll());
        this.headTimer = parts.vertx().setTimer(parts.limits().headTimeout().toMillis(),
                t -> context.runOnContext(v -> headTimedOut()));
    }

    /** Still no head or ClientHello: the connection said nowhere it goes in time. */
    private void headTimedOut() {
        if (state == State.SNIFFING || state == State.HEAD && upstream == null) {
            closeAll();
        }
    }

    void start() {
        client.closeHandler(closed -> finished());
        client.exceptionHandler(failure -> closeAll());
        client.handler(this::onClientData);
    }

    /** Refuses a connection over its sandbox's limit before reading anything from it. */
    void refuseAtAccept(ProxyRefusal why) {
        client.closeHandler(closed -> finished());
        client.exceptionHandler(failure -> closeAll());
        refused(why);
    }

    private void onClientData(Buffer data) {
        switch (state) {
            case SNIFFING -> {
                pending.appendBuffer(data);
                sniff(hello.feed(data));
            }
            case HEAD, HTTP -> {
                requests.append(data);
                requests.drain(this);
            }
            case DECIDING -> {
                if (requests != null) {
                    requests.append(data);
                } else {
                    pending.appendBuffer(data);
                }
            }
            case PEEKING -> {
                pending.appendBuffer(data);
                peek(hello.feed(data));
            }
            default -> {
                // TUNNEL: the relay has the handler; CLOSED: nothing more is read
            }
        }
    }

    /** A steered TLS connection: the ClientHello's server name is the destination. */
    private void sniff(ClientHelloSni.Result result) {
        if (result instanceof NeedMore) {
            return;
        }
        if (result instanceof Hello named && named.serverName() != null) {
            facts.host = named.serverName().toLowerCase(Locale.ROOT);
            if (named.encryptedClientHello()) {
                refused(ProxyRefusal.ENCRYPTED_CLIENT_HELLO);
                return;
            }
            decide(new ProxyTarget(facts.host, destinationPort), true, null);
        } else {
            // no TLS, or TLS without a name: nothing says where it may go
            refused(ProxyRefusal.HOST_MISMATCH);
        }
    }

    /** The requests are read while the first decides nothing yet or the connection carries plain HTTP. */
    @Override
    public boolean reading() {
        return state == State.HEAD || state == State.HTTP;
    }

    /** Bodies follow their heads as they are. */
    @Override
    public void body(Buffer bytes) {
        Relay.forward(client, upstream, bytes, n -> facts.bytesUp += n);
    }

    /**
     * The first request decides where the connection goes (and stops the reading until it is open); each later one
     * is checked and forwarded.
     */
    @Override
    public void head(ProxyRequestHead head) {
        if (upstream == null) {
            firstRequest(head);
        } else {
            nextRequest(head);
        }
    }

    private void firstRequest(ProxyRequestHead head) {
        if (way == ProxyWay.EXPLICIT && ProxyRequests.isCheck(head)) {
            answerCheck();
            return;
        }
        ProxyTarget target = ProxyRequests.targetOf(way, destinationPort, head);
        if (target == null) {
            refused(ProxyRefusal.BAD_REQUEST);
            return;
        }
        decide(target, head.isConnect(), head);
    }

    /** The adapter service's probe: answered from any source, nothing dialled, nothing recorded. */
    private void answerCheck() {
        facts.checked = true;
        state = State.CLOSED;
        client.write(Buffer.buffer(CHECKED));
        Relay.closeAfterFlush(client);
    }

    private void decide(ProxyTarget target, boolean tunnel, ProxyRequestHead head) {
        client.pause();
        state = State.DECIDING;
        ProxyRefusal refusal = ConnectionDecision.admit(parts, facts, target, tunnel, head);
        if (refusal != null) {
            refused(refusal);
            return;
        }
        if (head != null && !head.isConnect() && denied(head)) {
            return;
        }
        ConnectionDecision.dial(parts, facts).onComplete(done -> context.runOnContext(v -> dialled(done, head)));
    }

    private void dialled(AsyncResult<ConnectionDecision.Opened> done, ProxyRequestHead head) {
        if (state == State.CLOSED) {
            if (done.succeeded()) {
                done.result().socket().close();
            }
        } else if (done.failed()) {
            NotDialled failure = (NotDialled) done.cause();
            facts.address = failure.address();
            refused(failure.refusal());
        } else {
            facts.address = done.result().address();
            facts.intercepted = done.result().intercepted();
            opened(done.result().socket(), head);
        }
    }

    private void opened(NetSocket socket, ProxyRequestHead head) {
        upstream = socket;
        socket.pause();
        socket.closeHandler(closed -> Relay.closeAfterFlush(client));
        socket.exceptionHandler(failure -> closeAll());
        if (head == null) {
            // steered TLS: the ClientHello that named the host is the tunnel's first bytes
            tunnel();
            return;
        }
        if (head.isConnect()) {
            client.write(Buffer.buffer(ESTABLISHED));
            pending = requests.rest();
            requests = null;
            if (!facts.tlsRequired) {
                // a port an entry names (host:22): its protocol may have the server speak first, so the tunnel opens
                // at once, to the address that passed, with nothing to check in it
                tunnel();
                return;
            }
            // a tunnel to a TLS port must open with a ClientHello naming its host
            state = State.PEEKING;
            hello = new ClientHelloSni();
            client.resume();
            peek(hello.feed(pending));
            return;
        }
        state = State.HTTP;
        Relay.pipe(socket, client, n -> facts.bytesDown += n);
        Relay.forward(client, upstream, Buffer.buffer(head.forwardedHead()), n -> facts.bytesUp += n);
        client.resume();
        requests.drain(this);
    }

    /** A tunnel's first bytes must be a ClientHello naming the host the CONNECT was allowed for. */
    private void peek(ClientHelloSni.Result result) {
        if (result instanceof NeedMore) {
            return;
        }
        if (result instanceof Hello named && named.encryptedClientHello()) {
            refused(ProxyRefusal.ENCRYPTED_CLIENT_HELLO);
        } else if (result instanceof Hello named && ProxyPolicy.sameHost(facts.host, named.serverName())) {
            tunnel();
        } else {
            // no TLS, no SNI, or another name than the one allowed (domain fronting)
            refused(ProxyRefusal.HOST_MISMATCH);
        }
    }

    private void tunnel() {
        state = State.TUNNEL;
        Buffer first = pending;
        pending = Buffer.buffer();
        Relay.forward(client, upstream, first, n -> facts.bytesUp += n);
        // an opaque tunnel from here on: Netty's buffers relayed as they are read, without Vert.x's copies
        Splice.pipe(client, upstream, n -> facts.bytesUp += n);
        Splice.pipe(upstream, client, n -> facts.bytesDown += n);
    }

    /**
     * A later request on a kept-alive plain-HTTP connection: only for the same host and port, and admitted again as
     * the first was (the allowlist or the sandbox may have changed since).
     */
    private void nextRequest(ProxyRequestHead head) {
        ProxyTarget target = ProxyRequests.targetOf(way, destinationPort, head);
        ProxyRefusal refusal = target == null || head.isConnect() || !ProxyPolicy.sameHost(facts.host, target.host())
                || target.port() != facts.port ? ProxyRefusal.HOST_MISMATCH
                : parts.policy().readmit(facts.sourceIp, new ProxyTarget(facts.host, facts.port), head, 80, false);
        if (refusal != null) {
            refused(refusal);
            return;
        }
        if (facts.masks != null && ProxyRequests.carriesSurrogate(facts.host, head, facts.masks)) {
            refused(ProxyRefusal.MASKED_OUT_OF_SCOPE);
            return;
        }
        if (denied(head)) {
            return;
        }
        Relay.forward(client, upstream, Buffer.buffer(head.forwardedHead()), n -> facts.bytesUp += n);
    }

    /**
     * Whether the host's request rules refuse a plain-HTTP request; if so it is answered with the JSON 403 and the
     * connection closes (an answer written into a stream the host's responses also flow down is safe only last).
     */
    private boolean denied(ProxyRequestHead head) {
        RequestDenial denial = ConnectionDecision.checkRequest(parts, facts, head);
        if (denial == null) {
            return false;
        }
        facts.refusal = ProxyRefusal.REQUEST_DENIED;
        state = State.CLOSED;
        if (upstream != null) {
            upstream.close();
        }
        Relay.closeAfterWriting(client, Buffer.buffer(denial.response(true)));
        return true;
    }

    /** Refuses the connection: its anomaly, its answer when the client still reads HTTP, then the close. */
    @Override
    public void refused(ProxyRefusal why) {
        if (state == State.CLOSED) {
            return;
        }
        // a steered TLS client speaks TLS from its first byte: an HTTP answer would be garbage to it
        boolean answerable = way != ProxyWay.TRANSPARENT_TLS
                && (state == State.HEAD || state == State.DECIDING || state == State.HTTP);
        facts.refusal = why;
        state = State.CLOSED;
        if (why.anomaly()) {
            facts.recordAnomaly(parts, why, true);
        }
        if (upstream != null) {
            upstream.close();
        }
        Relay.closeAfterWriting(client, answerable
                ? Buffer.buffer(why.response().getBytes(StandardCharsets.ISO_8859_1)) : Buffer.buffer());
    }

    /**
     * Checks the open connection, on its own event loop, against the policy as it is now (it changed): closes it,
     * with the anomaly a new connection would get, when it may not stay open ({@link ConnectionDecision#recheck}).
     */
    void recheck() {
        context.runOnContext(v -> {
            if (state == State.CLOSED || state == State.SNIFFING || state == State.HEAD && upstream == null
                    || facts.host == null) {
                return;
            }
            ProxyRefusal why = ConnectionDecision.recheck(parts, facts);
            if (why != null) {
                facts.refusal = why;
                facts.enforced = true;
                if (why.anomaly()) {
                    facts.recordAnomaly(parts, why, true);
                }
                closeAll();
            }
        });
    }

    private void closeAll() {
        state = State.CLOSED;
        if (upstream != null) {
            upstream.close();
        }
        client.close();
    }

    private void finished() {
        if (upstream != null) {
            upstream.close();
        }
        state = State.CLOSED;
        parts.vertx().cancelTimer(totalTimer);
        parts.vertx().cancelTimer(headTimer);
        onClosed.run();
        facts.ended(parts, upstream != null);
    }
}
