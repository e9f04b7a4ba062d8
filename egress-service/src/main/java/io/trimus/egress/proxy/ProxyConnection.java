package io.trimus.egress.proxy;

import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.proxy.ClientHelloSni.Hello;
import io.trimus.egress.proxy.ClientHelloSni.NeedMore;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.events.ProxyCheck;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Locale;

/**
 * One sandbox connection to the proxy, from its first byte to its close. It learns the destination the way its
 * {@link ProxyWay} says (request head; TLS ClientHello's SNI, read by {@link ClientHelloSni}; Host header), asks the
 * policy, resolves and checks the destination, dials the address that passed ({@link DestinationDialer}), then
 * carries the bytes: a raw tunnel for TLS, after checking the ClientHello names the admitted host and offers no
 * Encrypted Client Hello; request by request for plain HTTP, read strictly ({@link RequestStream}), each one's Host
 * checked and each one admitted again. Every handler runs on the client socket's event loop, so the state needs no
 * locks.
 */
final class ProxyConnection {
    private static final byte[] ESTABLISHED =
            "HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] CHECKED = ("HTTP/1.1 204 No Content\r\n" + ProxyCheck.HEADER
            + ": ok\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);

    private enum State { SNIFFING, HEAD, DECIDING, PEEKING, TUNNEL, HTTP, CLOSED }

    private final ProxyServer.Parts parts;
    private final NetSocket client;
    private final String sourceIp;
    private final Context context;
    private final ProxyWay way;
    private final int destinationPort;
    private final Runnable onClosed;
    private final Instant startedAt = Instant.now();
    private final long startedNanos = System.nanoTime();
    private final long totalTimer;
    private final long headTimer;

    private State state;
    /** TLS bytes read before the tunnel opens (the ClientHello), forwarded first. */
    private Buffer pending = Buffer.buffer();
    /** The ClientHello being read, when the connection must open with one. */
    private ClientHelloSni hello;
    /** The plain-HTTP requests, when the connection carries them. */
    private RequestStream requests;
    private Sandbox sandbox;
    private String protocol;
    private String host;
    private int port = -1;
    private boolean enforced = true;
    private boolean tlsRequired = true;
    private boolean checked;
    private InetAddress address;
    private NetSocket upstream;
    private ProxyRefusal refusal;
    private long bytesUp;
    private long bytesDown;
    /** The sandbox's masked secrets, when it holds any. */
    private RunMasks masks;
    /** What the interceptor is told about the connection, once it is dialled. */
    private InterceptedTarget intercepted;

    /**
     * @param destinationPort for a transparent way, the port the destination is dialled on; ignored for the explicit
     *                        proxy, whose requests name it
     */
    ProxyConnection(ProxyServer.Parts parts, NetSocket client, Context context, ProxyWay way, int destinationPort,
                    Runnable onClosed) {
        this.parts = parts;
        this.client = client;
        this.sourceIp = client.remoteAddress().hostAddress();
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
        this.protocol = way == ProxyWay.TRANSPARENT_TLS ? "TLS" : "HTTP";
        this.sandbox = parts.policy().sandboxAt(sourceIp).orElse(null);
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
        refuse(why);
    }

    private void onClientData(Buffer data) {
        switch (state) {
            case SNIFFING -> {
                pending.appendBuffer(data);
                sniff(hello.feed(data));
            }
            case HEAD, HTTP -> {
                requests.append(data);
                pump();
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
            host = named.serverName().toLowerCase(Locale.ROOT);
            if (named.encryptedClientHello()) {
                refuse(ProxyRefusal.ENCRYPTED_CLIENT_HELLO);
                return;
            }
            client.pause();
            state = State.DECIDING;
            decide(new ProxyTarget(host, destinationPort), true, null);
        } else {
            // no TLS, or TLS without a name: nothing says where it may go
            refuse(ProxyRefusal.HOST_MISMATCH);
        }
    }

    /**
     * Takes the requests read so far: the first decides where the connection goes (and stops the reading until it is
     * open), each later one is checked and forwarded, and bodies follow their heads as they are.
     */
    private void pump() {
        while (state == State.HEAD || state == State.HTTP) {
            RequestStream.Part part;
            try {
                part = requests.next();
            } catch (MalformedRequest e) {
                refuse(e.tooLarge() ? ProxyRefusal.HEAD_TOO_LARGE : ProxyRefusal.MALFORMED);
                return;
            }
            if (part == null) {
                return;
            }
            if (part instanceof RequestStream.Body body) {
                Relay.forward(client, upstream, body.bytes(), n -> bytesUp += n);
            } else if (upstream == null) {
                firstRequest(((RequestStream.Head) part).head());
            } else {
                nextRequest(((RequestStream.Head) part).head());
            }
        }
    }

    private void firstRequest(ProxyRequestHead head) {
        if (way == ProxyWay.EXPLICIT && ProxyRequests.isCheck(head)) {
            answerCheck();
            return;
        }
        ProxyTarget target = ProxyRequests.targetOf(way, destinationPort, head);
        if (target == null) {
            refuse(ProxyRefusal.BAD_REQUEST);
            return;
        }
        client.pause();
        state = State.DECIDING;
        decide(target, head.isConnect(), head);
    }

    /** The adapter service's probe: answered from any source, nothing dialled, nothing recorded. */
    private void answerCheck() {
        checked = true;
        state = State.CLOSED;
        client.write(Buffer.buffer(CHECKED));
        Relay.closeAfterFlush(client);
    }

    private void decide(ProxyTarget target, boolean tunnel, ProxyRequestHead head) {
        if (head != null) {
            protocol = head.isConnect() ? "CONNECT" : "HTTP";
        }
        host = target.host();
        port = target.port();
        ProxyPolicy.Admission admission = parts.policy().admit(sourceIp, target, tunnel);
        sandbox = admission.sandbox();
        host = admission.host();
        if (!admission.admitted()) {
            refuse(admission.refusal());
            return;
        }
        tlsRequired = admission.tlsRequired();
        MaskedRoute route = MaskedRoute.of(parts, sourceIp, sandbox, host, head, tlsRequired);
        masks = route.masks();
        if (route.refusal() != null) {
            refuse(route.refusal());
            return;
        }
        if (head != null && !head.isConnect() && !ProxyRequests.hostHeaderNames(head, host, port, 80)) {
            refuse(ProxyRefusal.HOST_MISMATCH);
            return;
        }
        if (!admission.enforced()) {
            // report mode: the host is not on the list, the connection goes on, the admin sees what would have failed
            enforced = false;
            record(ProxyRefusal.NOT_ALLOWLISTED, false);
        }
        InterceptedTarget.Partial intercept = route.intercepting()
                ? new InterceptedTarget.Partial(sandbox, sourceIp, host, port, masks, parts.policy()) : null;
        DestinationDialer.open(parts, host, port, intercept)
                .onComplete(done -> context.runOnContext(v -> dialled(done, head)));
    }

    private void dialled(AsyncResult<DestinationDialer.Dialled> done, ProxyRequestHead head) {
        if (state == State.CLOSED) {
            if (done.succeeded()) {
                done.result().socket().close();
            }
        } else if (done.failed()) {
            DestinationDialer.NotDialled failure = (DestinationDialer.NotDialled) done.cause();
            address = failure.address;
            refuse(failure.refusal);
        } else {
            address = done.result().address();
            intercepted = done.result().intercepted();
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
            if (!tlsRequired) {
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
        Relay.pipe(socket, client, n -> bytesDown += n);
        Relay.forward(client, upstream, Buffer.buffer(head.forwardedHead()), n -> bytesUp += n);
        client.resume();
        pump();
    }

    /** A tunnel's first bytes must be a ClientHello naming the host the CONNECT was allowed for. */
    private void peek(ClientHelloSni.Result result) {
        if (result instanceof NeedMore) {
            return;
        }
        if (result instanceof Hello named && named.encryptedClientHello()) {
            refuse(ProxyRefusal.ENCRYPTED_CLIENT_HELLO);
        } else if (result instanceof Hello named && ProxyPolicy.sameHost(host, named.serverName())) {
            tunnel();
        } else {
            // no TLS, no SNI, or another name than the one allowed (domain fronting)
            refuse(ProxyRefusal.HOST_MISMATCH);
        }
    }

    private void tunnel() {
        state = State.TUNNEL;
        Buffer first = pending;
        pending = Buffer.buffer();
        Relay.forward(client, upstream, first, n -> bytesUp += n);
        Relay.pipe(client, upstream, n -> bytesUp += n);
        Relay.pipe(upstream, client, n -> bytesDown += n);
        client.resume();
    }

    /**
     * A later request on a kept-alive plain-HTTP connection: only for the same host and port, and admitted again as
     * the first was (the allowlist or the sandbox may have changed since).
     */
    private void nextRequest(ProxyRequestHead head) {
        ProxyTarget target = ProxyRequests.targetOf(way, destinationPort, head);
        if (target == null || head.isConnect() || !ProxyPolicy.sameHost(host, target.host()) || target.port() != port
                || !ProxyRequests.hostHeaderNames(head, host, port, 80)) {
            refuse(ProxyRefusal.HOST_MISMATCH);
            return;
        }
        ProxyPolicy.Admission again = parts.policy().admit(sourceIp, target, false);
        if (!again.admitted()) {
            refuse(again.refusal());
            return;
        }
        if (masks != null && ProxyRequests.carriesSurrogate(host, head, masks)) {
            refuse(ProxyRefusal.MASKED_OUT_OF_SCOPE);
            return;
        }
        Relay.forward(client, upstream, Buffer.buffer(head.forwardedHead()), n -> bytesUp += n);
    }

    private void refuse(ProxyRefusal why) {
        if (state == State.CLOSED) {
            return;
        }
        // a steered TLS client speaks TLS from its first byte: an HTTP answer would be garbage to it
        boolean answerable = way != ProxyWay.TRANSPARENT_TLS
                && (state == State.HEAD || state == State.DECIDING || state == State.HTTP);
        refusal = why;
        state = State.CLOSED;
        if (why.anomaly()) {
            record(why, true);
        }
        if (upstream != null) {
            upstream.close();
        }
        if (answerable) {
            client.write(Buffer.buffer(why.response().getBytes(StandardCharsets.ISO_8859_1)));
        }
        Relay.closeAfterFlush(client);
    }

    /** An anomaly for this connection's host (cut to a DNS name's length: a Host may be longer). */
    private void record(ProxyRefusal why, boolean enforcedHere) {
        String name = host == null ? "" : host.length() > 253 ? host.substring(0, 253) : host;
        parts.anomalies().record(sandbox, sourceIp, name, protocol, why.reason(), enforcedHere);
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
        if (checked) {
            return;
        }
        String decision = refusal != null ? "refused" : upstream != null ? "allowed" : "abandoned";
        String reason = refusal != null ? refusal.reason() : upstream != null ? "-" : "closed_before_decision";
        DecisionLog.ended(parts.connections(), way, sourceIp, sandbox, host, port, address, decision, reason, enforced,
                bytesUp, bytesDown, startedAt, (System.nanoTime() - startedNanos) / 1_000_000,
                intercepted == null ? Map.of() : Map.copyOf(intercepted.swaps()));
    }
}
