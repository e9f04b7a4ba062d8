package io.trimus.adapter.lambda;

import io.trimus.adapter.offhost.EndpointAddressPolicy;
import io.trimus.events.RunState;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import org.jboss.logging.Logger;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP exchange of one lambda call with its retries: the request to the dialled address (Host header and TLS name
 * stay the URL's host), no redirects followed, the answer read as a stream and cut off past
 * TRIMUS_LAMBDA_MAX_RESPONSE_BYTES; a failed connect or a 5xx is retried with backoff within the run's deadline.
 * Runs on the caller's event-loop context.
 */
final class LambdaExchange {
    private static final Logger LOG = Logger.getLogger(LambdaExchange.class);

    private final Vertx vertx;
    private final HttpClient client;
    private final int maxResponseBytes;
    private final CallState.Ending ending;

    LambdaExchange(Vertx vertx, HttpClient client, int maxResponseBytes, CallState.Ending ending) {
        if (maxResponseBytes < 1) {
            throw new IllegalArgumentException(
                    "TRIMUS_LAMBDA_MAX_RESPONSE_BYTES must be at least 1, got " + maxResponseBytes);
        }
        this.vertx = vertx;
        this.client = client;
        this.maxResponseBytes = maxResponseBytes;
        this.ending = ending;
    }

    /** Sends the request (again): one attempt, on the context. */
    void attempt(CallState call) {
        call.attempt++;
        call.responseStarted = false;
        var config = call.spec.config();
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        call.spec.headers().forEach(headers::set);
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(config.method()))
                .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(call.address, config.port())))
                .setHost(config.endpointUrl().getHost())
                .setPort(config.port())
                .setSsl(config.https())
                .setURI(config.requestUri())
                .setFollowRedirects(false)
                .setHeaders(headers);
        client.request(options).onComplete(connected -> {
            if (call.finished) {
                if (connected.succeeded()) {
                    connected.result().reset();
                }
                return;
            }
            if (connected.failed()) {
                failedToConnect(call, connected.cause());
                return;
            }
            HttpClientRequest request = connected.result();
            call.request = request;
            request.send(Buffer.buffer(call.spec.payload())).onComplete(answered -> {
                if (call.finished) {
                    return;
                }
                if (answered.failed()) {
                    // the request may have reached the endpoint: never retried
                    ending.finish(call, LambdaContract.Outcome.of(RunState.FAILED, "the call to the endpoint broke off: "
                            + describe(answered.cause())));
                } else {
                    read(call, answered.result());
                }
            });
        });
    }

    private void failedToConnect(CallState call, Throwable cause) {
        String reason = "could not connect to the endpoint at " + EndpointAddressPolicy.text(call.address.getAddress())
                + " port " + call.spec.config().port() + ": " + describe(cause);
        if (cause instanceof ConnectException || cause instanceof NoRouteToHostException) {
            retryOrFail(call, reason);
        } else {
            ending.finish(call, LambdaContract.Outcome.of(RunState.FAILED, reason));
        }
    }

    private void read(CallState call, HttpClientResponse response) {
        int status = response.statusCode();
        call.responseStarted = true;
        if (status >= 500 && status <= 599 && call.attempt <= call.spec.config().retries()) {
            call.request.reset();
            retryOrFail(call, "endpoint answered HTTP " + status);
            return;
        }
        String declared = response.getHeader("Content-Length");
        if (declared != null && declared.matches("\\d{1,19}") && Long.parseLong(declared) > maxResponseBytes) {
            ending.finish(call, tooLarge());
            return;
        }
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (call.finished) {
                return;
            }
            if ((long) body.length() + chunk.length() > maxResponseBytes) {
                ending.finish(call, tooLarge());
            } else {
                body.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(e -> {
            if (!call.finished) {
                ending.finish(call, LambdaContract.Outcome.of(RunState.FAILED, "the endpoint's answer broke off: "
                        + describe(e)));
            }
        });
        response.endHandler(v -> {
            if (!call.finished) {
                LambdaContract.Outcome outcome = LambdaContract.answer(status, body.getBytes());
                ending.finish(call, status >= 500 && call.attempt > 1 ? new LambdaContract.Outcome(outcome.state(),
                        outcome.exitCode(), outcome.output(), outcome.error() + afterRetries(call)) : outcome);
            }
        });
    }

    private LambdaContract.Outcome tooLarge() {
        return LambdaContract.Outcome.of(RunState.FAILED, "the endpoint's answer is larger than " + maxResponseBytes
                + " bytes (TRIMUS_LAMBDA_MAX_RESPONSE_BYTES); reading stopped there");
    }

    /**
     * Retries a 5xx or a failed connect if attempts and time are left: backoff_ms, doubled for each further retry,
     * within the run's one deadline. A timeout is never retried: the endpoint may still be working on the request.
     */
    private void retryOrFail(CallState call, String reason) {
        var config = call.spec.config();
        if (call.attempt > config.retries()) {
            ending.finish(call, LambdaContract.Outcome.of(RunState.FAILED, reason + afterRetries(call)));
            return;
        }
        long delayMs = (long) config.backoffMs() << (call.attempt - 1);
        if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs) >= call.deadlineAt) {
            ending.finish(call, LambdaContract.Outcome.of(RunState.FAILED, reason + " (no time left before timeout_ms for"
                    + " another retry)"));
            return;
        }
        LOG.infof("lambda run %s: %s; retry %d of %d in %d ms", call.spec.run().runId(), call.spec.redactor()
                .redact(reason), call.attempt, config.retries(), delayMs);
        call.request = null;
        call.backoffTimer = vertx.setTimer(delayMs, id -> {
            call.backoffTimer = null;
            if (!call.finished) {
                attempt(call);
            }
        });
    }

    static String afterRetries(CallState call) {
        int retries = call.attempt - 1;
        return retries == 0 ? "" : retries == 1 ? " (after 1 retry)" : " (after " + retries + " retries)";
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

}
