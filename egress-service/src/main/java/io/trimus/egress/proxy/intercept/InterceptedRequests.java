package io.trimus.egress.proxy.intercept;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.ProxyRequestHead;
import io.trimus.egress.proxy.admission.ProxyTarget;
import io.trimus.egress.proxy.admission.RequestStream;
import io.trimus.egress.proxy.relay.Relay;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Function;

/**
 * The requests of one sandbox connection the {@link MaskingInterceptor} terminated TLS for, read strictly before any
 * reaches the interceptor's HTTP server: the same {@link RequestStream} as the plain proxy (a malformed request is
 * refused with 400 and anomaly {@code proxy_malformed_request}), then per request: TRACE, TRACK and CONNECT are
 * refused ({@code masked_request_refused}), since they echo or carry on what the proxy put in; an absolute-form target
 * is forwarded only when it names the connection's own host and port, rewritten to origin-form, anything else (another
 * authority, {@code http://}) and a Host that names another host is refused ({@code proxy_host_mismatch}); and the
 * host is admitted again by the policy. What passes goes on as an origin-form head with its body bytes as sent; the
 * answers come back as they are. After a WebSocket handshake ({@link WebSocketSplice#requested}) nothing more is read
 * as requests: the sandbox's bytes are held until the server answers, then go on as they are (the server splices them
 * to the host on a 101 and closes the connection after any other answer).
 */
final class InterceptedRequests implements RequestStream.Reader {
    /** Methods that answer with the request (the real value swapped in) or open a tunnel past the swap. */
    private static final Set<String> REFUSED_METHODS = Set.of("TRACE", "TRACK", "CONNECT");

    private final NetSocket sandbox;
    private final InterceptedTarget target;
    private final AnomalyRecorder anomalies;
    private final RequestStream requests;
    private NetSocket server;
    private boolean closed;
    /** A WebSocket handshake went on: the rest of the connection is raw bytes. */
    private boolean tunnel;
    /** The sandbox is paused until the server answers the handshake. */
    private boolean awaitingAnswer;
    /** What the sandbox sent after the handshake before the answer, sent on with it. */
    private Buffer held;

    InterceptedRequests(NetSocket sandbox, InterceptedTarget target, AnomalyRecorder anomalies, int maxHeadBytes) {
        this.sandbox = sandbox;
        this.target = target;
        this.anomalies = anomalies;
        this.requests = new RequestStream(maxHeadBytes);
    }

    /**
     * Opens the way to the interceptor's HTTP server with {@code connect} (which matches the new connection to the
     * target), then reads the sandbox's requests. The sandbox's socket is paused meanwhile.
     */
    void start(Function<InterceptedTarget, Future<NetSocket>> connect) {
        sandbox.pause();
        sandbox.closeHandler(gone -> close());
        sandbox.exceptionHandler(failed -> close());
        connect.apply(target).onComplete(opened -> {
            if (opened.failed()) {
                close();
                return;
            }
            server = opened.result();
            if (closed) {
                server.close();
                return;
            }
            server.closeHandler(gone -> closeAfterFlush());
            server.exceptionHandler(failed -> close());
            server.handler(this::onAnswer);
            server.resume();
            sandbox.handler(this::onBytes);
            sandbox.resume();
        });
    }

    private void onBytes(Buffer data) {
        if (closed) {
            return;
        }
        if (tunnel) {
            Relay.forward(sandbox, server, data, n -> { });
            return;
        }
        requests.append(data);
        requests.drain(this);
        if (tunnel && !closed) {
            held = requests.rest();
        }
    }

    /** The server's bytes, as they are, to the sandbox; the first after a handshake lets the sandbox's bytes on. */
    private void onAnswer(Buffer data) {
        Relay.forward(server, sandbox, data, n -> { });
        if (awaitingAnswer) {
            awaitingAnswer = false;
            if (held != null) {
                Relay.forward(sandbox, server, held, n -> { });
                held = null;
            }
            sandbox.resume();
        }
    }

    @Override
    public boolean reading() {
        return !closed && !tunnel;
    }

    @Override
    public void body(Buffer bytes) {
        Relay.forward(sandbox, server, bytes, n -> { });
    }

    @Override
    public void head(ProxyRequestHead head) {
        if (REFUSED_METHODS.contains(head.method())) {
            refused(ProxyRefusal.MASKED_REQUEST_REFUSED);
            return;
        }
        boolean ownTarget = !head.absoluteForm() || "https".equals(head.scheme())
                && ProxyPolicy.sameHost(target.host(), head.target().host()) && head.target().port() == target.port();
        ProxyRefusal refusal = !ownTarget ? ProxyRefusal.HOST_MISMATCH : target.policy().readmit(target.sourceIp(),
                new ProxyTarget(target.host(), target.port()), head, target.port(), true);
        if (refusal != null) {
            refused(refusal);
            return;
        }
        Relay.forward(sandbox, server, Buffer.buffer(head.forwardedHead(target.authority())), n -> { });
        if (WebSocketSplice.requested(head.method(), head.version(), head.headers().stream()
                .filter(header -> header.name().equalsIgnoreCase("upgrade")).map(ProxyRequestHead.Header::value)
                .toList())) {
            tunnel = true;
            awaitingAnswer = true;
            sandbox.pause();
        }
    }

    @Override
    public void refused(ProxyRefusal why) {
        if (why.anomaly()) {
            anomalies.record(target.sandbox(), target.sourceIp(), target.host(), "TLS", why.reason(), true);
        }
        closed = true;
        if (server != null) {
            server.close();
        }
        Relay.closeAfterWriting(sandbox, Buffer.buffer(why.response().getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** The server ended the connection: what it wrote is sent, then the sandbox's side closes. */
    private void closeAfterFlush() {
        closed = true;
        Relay.closeAfterFlush(sandbox);
    }

    private void close() {
        closed = true;
        if (server != null) {
            server.close();
        }
        sandbox.close();
    }
}
