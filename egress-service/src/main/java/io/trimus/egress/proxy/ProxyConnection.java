package io.trimus.egress.proxy;

import io.trimus.egress.connection.ConnectionRecord;
import io.trimus.egress.masks.MaskSwap;
import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.proxy.ClientHelloSni.Hello;
import io.trimus.egress.proxy.ClientHelloSni.NeedMore;
import io.trimus.egress.proxy.DestinationResolver.Destinations;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.events.ProxyCheck;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * One sandbox connection to the proxy, from its first byte to its close. It learns the destination the way its
 * {@link ProxyWay} says (request head; TLS ClientHello's SNI; Host header), asks the policy, resolves and checks the
 * destination, dials the address that passed, then carries the bytes (a raw tunnel for TLS, after checking the
 * ClientHello names the admitted host; request by request for plain HTTP, each one's Host checked). Every handler
 * runs on the client socket's event loop, so the state needs no locks.
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
    private Buffer pending = Buffer.buffer();
    private Sandbox sandbox;
    private String protocol;
    private String host;
    private int port = -1;
    private boolean enforced = true;
    private boolean tlsRequired = true;
    private boolean checked;
    private InetAddress address;
    private NetSocket upstream;
    private RequestBodyFraming body;
    private ProxyRefusal refusal;
    private long bytesUp;
    private long bytesDown;
    /** The sandbox's masked secrets, when it holds any. */
    private RunMasks masks;
    /** Set when the connection goes to the {@link MaskingInterceptor} instead of the host. */
    private InterceptedTarget intercepted;
    private int loopbackPort = -1;

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
                sniff();
            }
            case HEAD -> {
                pending.appendBuffer(data);
                readHead();
            }
            case DECIDING -> pending.appendBuffer(data);
            case PEEKING -> {
                pending.appendBuffer(data);
                peek();
            }
            case HTTP -> onHttpBytes(data, 0);
            default -> {
                // TUNNEL: the relay has the handler; CLOSED: nothing more is read
            }
        }
    }

    /** A steered TLS connection: the ClientHello's server name is the destination. */
    private void sniff() {
        ClientHelloSni.Result hello = ClientHelloSni.inspect(pending.getBytes());
        if (hello instanceof NeedMore) {
            return;
        }
        if (hello instanceof Hello named && named.serverName() != null) {
            client.pause();
            state = State.DECIDING;
            decide(new ProxyTarget(named.serverName().toLowerCase(Locale.ROOT), destinationPort), true, null);
        } else {
            // no TLS, or TLS without a name: nothing says where it may go
            refuse(ProxyRefusal.HOST_MISMATCH);
        }
    }

    private void readHead() {
        int end = headEnd(pending, parts.limits().maxHeadBytes());
        if (end < 0) {
            if (pending.length() >= parts.limits().maxHeadBytes()) {
                refuse(ProxyRefusal.HEAD_TOO_LARGE);
            }
            return;
        }
        ProxyRequestHead head;
        try {
            head = ProxyRequestHead.parse(pending.getBytes(0, end));
        } catch (MalformedRequest e) {
            refuse(ProxyRefusal.BAD_REQUEST);
            return;
        }
        Buffer rest = pending.getBuffer(end, pending.length());
        pending = Buffer.buffer();
        if (upstream != null) {
            nextRequest(head, rest);
            return;
        }
        if (way == ProxyWay.EXPLICIT && isCheck(head)) {
            answerCheck();
            return;
        }
        ProxyTarget target = targetOf(head);
        if (target == null) {
            refuse(ProxyRefusal.BAD_REQUEST);
            return;
        }
        client.pause();
        state = State.DECIDING;
        pending = rest;
        decide(target, head.isConnect(), head);
    }

    /**
     * Where a request goes: for the explicit proxy, the target it names (CONNECT or absolute-form); on the
     * transparent port, its Host (which must name that port, or none when it is 80). Null for a request the way does
     * not serve.
     */
    private ProxyTarget targetOf(ProxyRequestHead head) {
        if (way == ProxyWay.EXPLICIT) {
            return head.absoluteForm() ? head.target() : null;
        }
        if (head.isConnect() || head.target() == null || head.target().port() != destinationPort) {
            return null;
        }
        return head.target();
    }

    private static boolean isCheck(ProxyRequestHead head) {
        return !head.absoluteForm() && head.method().equals("GET") && head.originForm().equals(ProxyCheck.PATH);
    }

    /** The adapter service's probe: answered from any source, nothing dialled, nothing recorded. */
    private void answerCheck() {
        checked = true;
        state = State.CLOSED;
        client.write(Buffer.buffer(CHECKED));
        closeAfterFlush(client);
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
        if (!checkMasks(head)) {
            return;
        }
        if (head != null && !head.isConnect()) {
            if (!hostHeaderNames(head, target)) {
                refuse(ProxyRefusal.HOST_MISMATCH);
                return;
            }
            try {
                body = RequestBodyFraming.of(head);
            } catch (MalformedRequest e) {
                refuse(ProxyRefusal.BAD_REQUEST);
                return;
            }
        }
        if (!admission.enforced()) {
            // report mode: the host is not on the list, the connection goes on, the admin sees what would have failed
            enforced = false;
            record(ProxyRefusal.NOT_ALLOWLISTED, false);
        }
        parts.resolver().resolve(host).onComplete(done -> context.runOnContext(v -> resolved(done, head)));
    }

    /**
     * The masked-secret rules before anything is dialled: a sandbox whose masks this instance has not received waits;
     * a host of a masked secret is reached only through TLS the proxy terminates (a plain request or an unreadable
     * tunnel there is refused); a plain request elsewhere must not carry a surrogate. False when refused.
     */
    private boolean checkMasks(ProxyRequestHead head) {
        if (sandbox == null || parts.masked() == null) {
            return true;
        }
        if (parts.masked().isWaiting(sourceIp, sandbox.runId())) {
            refuse(ProxyRefusal.MASKS_PENDING);
            return false;
        }
        masks = parts.masked().of(sourceIp, sandbox.runId()).orElse(null);
        if (masks == null) {
            return true;
        }
        boolean plain = head != null && !head.isConnect();
        if (masks.intercepts(host)) {
            if (plain || !tlsRequired) {
                refuse(ProxyRefusal.MASKED_NEEDS_TLS);
                return false;
            }
            if (parts.masking() == null) {
                refuse(ProxyRefusal.MASKING_UNAVAILABLE);
                return false;
            }
            intercepted = new InterceptedTarget(sandbox, sourceIp, host, port, null, masks);
            return true;
        }
        if (plain && carriesSurrogate(head)) {
            refuse(ProxyRefusal.MASKED_OUT_OF_SCOPE);
            return false;
        }
        return true;
    }

    /** Whether a plain request to a host outside every mask's scope carries a surrogate (target or headers). */
    private boolean carriesSurrogate(ProxyRequestHead head) {
        List<Map.Entry<String, String>> headers = head.headers().stream()
                .map(h -> Map.entry(h.name(), h.value())).toList();
        return !MaskSwap.apply(host, head.originForm(), headers, masks).allowed();
    }

    private void resolved(AsyncResult<Destinations> done, ProxyRequestHead head) {
        if (state == State.CLOSED) {
            return;
        }
        if (done.failed() || done.result().resolved().isEmpty()) {
            refuse(ProxyRefusal.UNRESOLVED);
            return;
        }
        Destinations destinations = done.result();
        if (destinations.permitted().isEmpty()) {
            address = destinations.resolved().get(0);
            refuse(ProxyRefusal.ADDRESS_DENIED);
            return;
        }
        dial(destinations.permitted(), 0, head);
    }

    private void dial(List<InetAddress> permitted, int index, ProxyRequestHead head) {
        address = permitted.get(index);
        if (intercepted != null) {
            dialInterceptor(head);
            return;
        }
        SocketAddress destination = SocketAddress.inetSocketAddress(new InetSocketAddress(address, port));
        NetClient dialer = parts.dialer();
        dialer.connect(destination).onComplete(connected -> context.runOnContext(v -> {
            if (state == State.CLOSED) {
                if (connected.succeeded()) {
                    connected.result().close();
                }
            } else if (connected.succeeded()) {
                opened(connected.result(), head);
            } else if (index + 1 < permitted.size()) {
                dial(permitted, index + 1, head);
            } else {
                refuse(ProxyRefusal.CONNECT_FAILED);
            }
        }));
    }

    /**
     * A host of a masked secret: the TLS bytes go to the interceptor's loopback server, which dials {@link #address}
     * itself; the loopback connection is matched to this sandbox before its first byte.
     */
    private void dialInterceptor(ProxyRequestHead head) {
        intercepted = new InterceptedTarget(sandbox, sourceIp, host, port, address, masks);
        parts.masking().port(masks.caFingerprint()).onComplete(served -> context.runOnContext(v -> {
            if (state == State.CLOSED) {
                return;
            }
            if (served.failed()) {
                refuse(ProxyRefusal.MASKING_UNAVAILABLE);
                return;
            }
            parts.dialer().connect(served.result(), "127.0.0.1").onComplete(connected -> context.runOnContext(w -> {
                if (state == State.CLOSED) {
                    if (connected.succeeded()) {
                        connected.result().close();
                    }
                } else if (connected.failed()) {
                    refuse(ProxyRefusal.MASKING_UNAVAILABLE);
                } else {
                    loopbackPort = connected.result().localAddress().port();
                    parts.masking().expect(loopbackPort, intercepted);
                    opened(connected.result(), head);
                }
            }));
        }));
    }

    private void opened(NetSocket socket, ProxyRequestHead head) {
        upstream = socket;
        socket.pause();
        socket.closeHandler(closed -> closeAfterFlush(client));
        socket.exceptionHandler(failure -> closeAll());
        if (head == null) {
            // steered TLS: the ClientHello that named the host is the tunnel's first bytes
            tunnel();
            client.resume();
            return;
        }
        if (head.isConnect()) {
            client.write(Buffer.buffer(ESTABLISHED));
            if (!tlsRequired) {
                // a port an entry names (host:22): its protocol may have the server speak first, so the tunnel opens
                // at once, to the address that passed, with nothing to check in it
                tunnel();
                client.resume();
                return;
            }
            // a tunnel to a TLS port must open with a ClientHello naming its host
            state = State.PEEKING;
            client.resume();
            peek();
            return;
        }
        state = State.HTTP;
        Relay.pipe(socket, client, n -> bytesDown += n);
        Buffer rest = pending;
        pending = Buffer.buffer();
        Relay.forward(client, upstream, Buffer.buffer(head.forwardedHead()), n -> bytesUp += n);
        client.resume();
        onHttpBytes(rest, 0);
    }
    /** A tunnel's first bytes must be a ClientHello naming the host the CONNECT was allowed for. */
    private void peek() {
        if (pending.length() == 0) {
            return;
        }
        ClientHelloSni.Result hello = ClientHelloSni.inspect(pending.getBytes());
        if (hello instanceof NeedMore) {
            return;
        }
        if (hello instanceof Hello named && ProxyPolicy.sameHost(host, named.serverName())) {
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
    }

    private void onHttpBytes(Buffer data, int offset) {
        int from = offset;
        if (body != null && !body.done()) {
            int length;
            try {
                length = body.consume(data, from);
            } catch (MalformedRequest e) {
                refuse(ProxyRefusal.BAD_REQUEST);
                return;
            }
            Relay.forward(client, upstream, data.getBuffer(from, from + length), n -> bytesUp += n);
            from += length;
        }
        if (from < data.length()) {
            pending.appendBuffer(data.getBuffer(from, data.length()));
            readHead();
        }
    }

    /** A later request on a kept-alive plain-HTTP connection: only for the same host and port. */
    private void nextRequest(ProxyRequestHead head, Buffer rest) {
        ProxyTarget target = targetOf(head);
        if (target == null || head.isConnect() || !ProxyPolicy.sameHost(host, target.host()) || target.port() != port
                || !hostHeaderNames(head, target)) {
            refuse(ProxyRefusal.HOST_MISMATCH);
            return;
        }
        if (masks != null && carriesSurrogate(head)) {
            refuse(ProxyRefusal.MASKED_OUT_OF_SCOPE);
            return;
        }
        try {
            body = RequestBodyFraming.of(head);
        } catch (MalformedRequest e) {
            refuse(ProxyRefusal.BAD_REQUEST);
            return;
        }
        Relay.forward(client, upstream, Buffer.buffer(head.forwardedHead()), n -> bytesUp += n);
        onHttpBytes(rest, 0);
    }

    /** Whether the Host header, if any (one at most), names the request target's host and port. */
    private boolean hostHeaderNames(ProxyRequestHead head, ProxyTarget target) {
        if (head.count("Host") > 1) {
            return false;
        }
        String value = head.header("Host");
        if (value == null) {
            return true;
        }
        try {
            ProxyTarget named = ProxyTarget.parseAuthority(value, 80);
            return named.port() == target.port() && ProxyPolicy.sameHost(host, named.host());
        } catch (MalformedRequest e) {
            return false;
        }
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
        closeAfterFlush(client);
    }

    private void record(ProxyRefusal why, boolean enforcedHere) {
        parts.anomalies().record(sandbox, sourceIp, anomalyName(), protocol, why.reason(), enforcedHere);
    }

    private String anomalyName() {
        String name = host == null ? "" : host;
        return name.length() > 253 ? name.substring(0, 253) : name;
    }

    private void closeAll() {
        state = State.CLOSED;
        if (upstream != null) {
            upstream.close();
        }
        client.close();
    }

    /** Closes once what was written is sent, so a refusal's response or a tunnel's last bytes arrive. */
    private static void closeAfterFlush(NetSocket socket) {
        socket.write(Buffer.buffer()).onComplete(flushed -> socket.close());
    }

    private void finished() {
        if (upstream != null) {
            upstream.close();
        }
        state = State.CLOSED;
        if (loopbackPort > 0) {
            parts.masking().forget(loopbackPort);
        }
        parts.vertx().cancelTimer(totalTimer);
        parts.vertx().cancelTimer(headTimer);
        onClosed.run();
        if (checked) {
            return;
        }
        String decision = refusal != null ? "refused" : upstream != null ? "allowed" : "abandoned";
        String reason = refusal != null ? refusal.reason() : upstream != null ? "-" : "closed_before_decision";
        long durationMillis = (System.nanoTime() - startedNanos) / 1_000_000;
        DecisionLog.log(way, sourceIp, sandbox, host, port, address, decision, reason, enforced, bytesUp, bytesDown,
                durationMillis);
        if (sandbox != null) {
            try {
                parts.connections().record(new ConnectionRecord(sandbox, way.label(), host == null ? "" : host, port,
                        address == null ? null : address.getHostAddress(), decision, reason, enforced, bytesUp,
                        bytesDown, startedAt, durationMillis,
                        intercepted == null ? Map.of() : Map.copyOf(intercepted.swaps())));
            } catch (RuntimeException e) {
                // the connection is over either way; the recorder counts and logs its own failures
            }
        }
    }

    /** The length of the head (through its blank line) at the start of {@code data}, or -1 when not all there. */
    static int headEnd(Buffer data, int max) {
        int limit = Math.min(data.length(), max);
        for (int i = 3; i < limit; i++) {
            if (data.getByte(i) == '\n' && data.getByte(i - 1) == '\r' && data.getByte(i - 2) == '\n'
                    && data.getByte(i - 3) == '\r') {
                return i + 1;
            }
        }
        return -1;
    }
}
