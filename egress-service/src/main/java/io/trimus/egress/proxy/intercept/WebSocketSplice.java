package io.trimus.egress.proxy.intercept;

import io.trimus.egress.masks.EchoSwap;
import io.trimus.egress.proxy.relay.Relay;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.NetSocket;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A WebSocket upgrade through the {@link MaskingInterceptor}: a GET of HTTP/1.1 whose Upgrade header names
 * {@code websocket} is checked like any request (host, request rules, masked secrets swapped in its headers), then
 * forwarded with its Upgrade and Connection headers; on the host's {@code 101 Switching Protocols} the sandbox's side
 * and the host's are spliced as raw bytes until either closes. Nothing said over the WebSocket is read: no request
 * rule, no swap. Any other answer goes back as it is and the connection then closes, since the sandbox's side already
 * stopped being read as requests ({@link InterceptedRequests}). Other upgrades (h2c) are not carried: their Upgrade
 * header is dropped as hop-by-hop and the request answered over HTTP/1.1.
 */
final class WebSocketSplice {
    /** The headers a WebSocket handshake needs forwarded, though hop-by-hop otherwise. */
    static final Set<String> HANDSHAKE = Set.of("upgrade", "connection");

    private WebSocketSplice() {
    }

    /**
     * Whether a request asks for a WebSocket: GET, HTTP/1.1, and an Upgrade header listing {@code websocket} (any
     * case, any version suffix). The one test both {@link InterceptedRequests} (which stops reading requests after
     * it) and the interceptor's server (which splices or closes) apply.
     *
     * @param upgrades the values of every Upgrade header
     */
    static boolean requested(String method, String version, List<String> upgrades) {
        if (!"GET".equals(method) || !"HTTP/1.1".equals(version)) {
            return false;
        }
        for (String value : upgrades) {
            for (String token : value.split(",")) {
                String protocol = token.trim();
                int slash = protocol.indexOf('/');
                if ((slash < 0 ? protocol : protocol.substring(0, slash)).equalsIgnoreCase("websocket")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@link #requested} for a request the interceptor's server read. */
    static boolean requested(HttpServerRequest request) {
        return request.method() == HttpMethod.GET && request.version() == HttpVersion.HTTP_1_1
                && requested("GET", "HTTP/1.1", request.headers().getAll("upgrade"));
    }

    /**
     * The host's {@code 101}: its headers (echoes swapped back) in the sandbox's 101, then both sides spliced. When
     * either side cannot be had, both close.
     */
    static void splice(HttpServerRequest request, HttpClientResponse answer, EchoSwap echo) {
        NetSocket host = answer.netSocket();
        HttpServerResponse response = request.response();
        answer.headers().forEach(header -> {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (!name.equals("content-length") && !name.equals("transfer-encoding")) {
                response.headers().add(header.getKey(), echo.apply(header.getValue()));
            }
        });
        host.pause();
        Future<NetSocket> sandbox = request.toNetSocket();
        sandbox.onFailure(failed -> {
            host.close();
            request.connection().close();
        });
        sandbox.onSuccess(socket -> {
            socket.closeHandler(gone -> Relay.closeAfterFlush(host));
            host.closeHandler(gone -> Relay.closeAfterFlush(socket));
            socket.exceptionHandler(broken -> host.close());
            host.exceptionHandler(broken -> socket.close());
            Relay.pipe(host, socket, n -> { });
            Relay.pipe(socket, host, n -> { });
        });
    }
}
