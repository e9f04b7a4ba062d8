package io.trimus.egress.proxy.intercept;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.proxy.admission.RequestDenial;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * The request rules of an intercepted host, checked on every request of the connection as the interceptor's HTTP
 * server reads it (in order, so a refusal answers in its turn): the rules as they are now (the allowlist may have
 * changed since the connection opened), the anomaly {@code proxy_request_denied} with method and path, and in enforce
 * mode the JSON 403 of {@link RequestDenial}. The connection stays open after a refused request without a body; one
 * with a body (whose bytes were not read, nor asked for: no {@code 100 Continue} went out) and a refused WebSocket
 * handshake (after which the sandbox's side is no longer read as requests) are answered with
 * {@code Connection: close}.
 */
final class RequestRulesGate {
    private RequestRulesGate() {
    }

    /** Whether the request was refused and answered; false when it may go on (maybe only by report mode). */
    static boolean denied(HttpServerRequest request, InterceptedTarget target, AnomalyRecorder anomalies) {
        RequestDenial denial = RequestDenial.checkAll(
                target.policy().requestRules(target.sandbox(), target.host(), target.port()),
                target.host(), target.port(), request.method().name(), request.uri());
        if (denial == null) {
            return false;
        }
        boolean enforced = !target.policy().reportOnly(target.sandbox());
        anomalies.recordRequest(target.sandbox(), target.sourceIp(), target.host(), "TLS", denial.method(),
                denial.path(), enforced);
        if (!enforced) {
            return false;
        }
        boolean closing = request.headers().contains("content-length") && !"0".equals(request.getHeader(
                "content-length")) || request.headers().contains("transfer-encoding")
                || WebSocketSplice.requested(request);
        HttpServerResponse response = request.response();
        response.setStatusCode(403)
                .putHeader("content-type", "application/json")
                .putHeader("cache-control", "no-store");
        if (closing) {
            response.putHeader("connection", "close");
        }
        response.end(Buffer.buffer(denial.body())).onComplete(done -> {
            if (closing) {
                request.connection().close();
            }
        });
        return true;
    }
}
