package io.trimus.adapter.lambda;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.OutputTail;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes the lambda calls: at most TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS in flight, the rest waiting in order. Each call
 * resolves the endpoint's host once (on a worker thread), has the {@link EndpointAddressPolicy} judge every address,
 * and dials exactly the address it judged, so a DNS answer that changes later (rebinding) cannot redirect it; the Host
 * header and TLS name stay the URL's host. Redirects are not followed, the answer is read as a stream and cut off past
 * TRIMUS_LAMBDA_MAX_RESPONSE_BYTES, and one timer ends the run at timeout_ms, however slowly the body trickles.
 *
 * <p>Uses the core Vert.x HTTP client, the layer Vert.x's WebClient is built on: WebClient 4.x can neither abort an
 * exchange in flight (needed for a cancel and for a deadline that covers the body) nor stop reading at a byte cap
 * without buffering. All state of the calls is confined to one event-loop context; other threads only post to it.
 */
@Startup
@Singleton
public class LambdaCaller {
    private static final Logger LOG = Logger.getLogger(LambdaCaller.class);

    /** Looks up a host's addresses; {@link InetAddress#getAllByName} outside tests. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final Vertx vertx;
    private final RunReporter reporter;
    private final EndpointAddressPolicy policy;
    private final Resolver resolver;
    private final int maxResponseBytes;
    private final int outputMaxBytes;
    private final int maxConcurrentRuns;
    private final HttpClient client;
    private final Context context;
    private final Map<UUID, Call> held = new ConcurrentHashMap<>();
    /** Confined to {@link #context}. */
    private final Deque<Call> waiting = new ArrayDeque<>();
    /** Confined to {@link #context}. */
    private int inFlight;

    @Inject
    public LambdaCaller(Vertx vertx, RunReporter reporter, TrimusConfig config) {
        this(vertx, reporter, EndpointAddressPolicy.allowing(config.lambda().allowPrivate().orElse(java.util.List.of())),
                InetAddress::getAllByName, config.lambda().maxResponseBytes(), config.run().outputMaxBytes(),
                config.lambda().maxConcurrentRuns());
    }

    public LambdaCaller(Vertx vertx, RunReporter reporter, EndpointAddressPolicy policy, Resolver resolver,
                        int maxResponseBytes, int outputMaxBytes, int maxConcurrentRuns) {
        if (maxConcurrentRuns < 1) {
            throw new IllegalArgumentException(
                    "TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS must be at least 1, got " + maxConcurrentRuns);
        }
        if (maxResponseBytes < 1) {
            throw new IllegalArgumentException(
                    "TRIMUS_LAMBDA_MAX_RESPONSE_BYTES must be at least 1, got " + maxResponseBytes);
        }
        this.vertx = vertx;
        this.reporter = reporter;
        this.policy = policy;
        this.resolver = resolver;
        this.maxResponseBytes = maxResponseBytes;
        this.outputMaxBytes = outputMaxBytes;
        this.maxConcurrentRuns = maxConcurrentRuns;
        this.client = vertx.createHttpClient(new HttpClientOptions()
                        .setProtocolVersion(HttpVersion.HTTP_1_1)
                        // one connection per call: nothing of one run's exchange is reused by another's
                        .setKeepAlive(false)
                        .setVerifyHost(true)
                        .setTryUseCompression(false)
                        .setDecompressionSupported(false),
                new PoolOptions().setHttp1MaxSize(maxConcurrentRuns));
        this.context = eventLoopContext(vertx);
    }

    /** The policy calls are judged by; the adapter also asks it about IP-literal endpoints up front. */
    public EndpointAddressPolicy policy() {
        return policy;
    }

    /** Queues the call unless its run is already held. */
    public void submit(LambdaCall call) {
        Call running = new Call(call);
        if (held.putIfAbsent(call.run().runId(), running) != null) {
            LOG.infof("run %s is already being executed; ignoring the second request", call.run().runId());
            return;
        }
        context.runOnContext(v -> admit(running));
    }

    /** Cancels a held run: a queued one never calls, a call in flight is aborted. False when not held here. */
    public boolean cancel(UUID runId) {
        Call call = held.get(runId);
        if (call == null) {
            return false;
        }
        context.runOnContext(v -> {
            if (!call.finished) {
                finish(call, LambdaContract.Outcome.of(RunState.CANCELLED, call.started
                        ? "cancelled; the call to the endpoint was aborted" : "cancelled before it started"));
            }
        });
        return true;
    }

    /** Whether this process holds the run. */
    public boolean holds(UUID runId) {
        return held.containsKey(runId);
    }

    private void admit(Call call) {
        if (call.finished) {
            return;
        }
        if (inFlight < maxConcurrentRuns) {
            start(call);
        } else {
            waiting.addLast(call);
        }
    }

    private void start(Call call) {
        inFlight++;
        call.started = true;
        int timeoutMs = call.spec.config().timeoutMs();
        call.deadlineAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        call.deadlineTimer = vertx.setTimer(timeoutMs, id -> timedOut(call));
        if (call.spec.literal() != null) {
            dial(call, call.spec.literal());
            return;
        }
        String host = call.spec.config().host();
        context.<InetAddress[]>executeBlocking(() -> resolver.resolve(host), false).onComplete(resolved -> {
            if (call.finished) {
                return;
            }
            if (resolved.failed()) {
                finish(call, LambdaContract.Outcome.of(RunState.FAILED, "the endpoint's host " + host
                        + " does not resolve"));
                return;
            }
            for (InetAddress address : resolved.result()) {
                EndpointAddressPolicy.Verdict verdict = policy.check(address);
                if (!verdict.allowed()) {
                    finish(call, LambdaContract.Outcome.of(RunState.REJECTED, refusal(host + " resolves to "
                            + EndpointAddressPolicy.text(address.getAddress()) + ", and " + verdict.reason())));
                    return;
                }
            }
            dial(call, resolved.result()[0]);
        });
    }

    /** Why an endpoint is refused, and what would allow it. */
    static String refusal(String reason) {
        return "the endpoint is refused: " + reason + "; a lambda endpoint must be a public address unless"
                + " TRIMUS_LAMBDA_ALLOW_PRIVATE covers it";
    }

    private void dial(Call call, InetAddress address) {
        call.address = address;
        report(call, RunState.RUNNING, null, null, null);
        attempt(call);
    }

    private void attempt(Call call) {
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
                    finish(call, LambdaContract.Outcome.of(RunState.FAILED, "the call to the endpoint broke off: "
                            + describe(answered.cause())));
                } else {
                    read(call, answered.result());
                }
            });
        });
    }

    private void failedToConnect(Call call, Throwable cause) {
        String reason = "could not connect to the endpoint at " + EndpointAddressPolicy.text(call.address.getAddress())
                + " port " + call.spec.config().port() + ": " + describe(cause);
        if (cause instanceof ConnectException || cause instanceof NoRouteToHostException) {
            retryOrFail(call, reason);
        } else {
            finish(call, LambdaContract.Outcome.of(RunState.FAILED, reason));
        }
    }

    private void read(Call call, HttpClientResponse response) {
        int status = response.statusCode();
        call.responseStarted = true;
        if (status >= 500 && status <= 599 && call.attempt <= call.spec.config().retries()) {
            call.request.reset();
            retryOrFail(call, "endpoint answered HTTP " + status);
            return;
        }
        String declared = response.getHeader("Content-Length");
        if (declared != null && declared.matches("\\d{1,19}") && Long.parseLong(declared) > maxResponseBytes) {
            finish(call, tooLarge());
            return;
        }
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (call.finished) {
                return;
            }
            if ((long) body.length() + chunk.length() > maxResponseBytes) {
                finish(call, tooLarge());
            } else {
                body.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(e -> {
            if (!call.finished) {
                finish(call, LambdaContract.Outcome.of(RunState.FAILED, "the endpoint's answer broke off: "
                        + describe(e)));
            }
        });
        response.endHandler(v -> {
            if (!call.finished) {
                LambdaContract.Outcome outcome = LambdaContract.answer(status, body.getBytes());
                finish(call, status >= 500 && call.attempt > 1 ? new LambdaContract.Outcome(outcome.state(),
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
    private void retryOrFail(Call call, String reason) {
        var config = call.spec.config();
        if (call.attempt > config.retries()) {
            finish(call, LambdaContract.Outcome.of(RunState.FAILED, reason + afterRetries(call)));
            return;
        }
        long delayMs = (long) config.backoffMs() << (call.attempt - 1);
        if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs) >= call.deadlineAt) {
            finish(call, LambdaContract.Outcome.of(RunState.FAILED, reason + " (no time left before timeout_ms for"
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

    private static String afterRetries(Call call) {
        int retries = call.attempt - 1;
        return retries == 0 ? "" : retries == 1 ? " (after 1 retry)" : " (after " + retries + " retries)";
    }

    private void timedOut(Call call) {
        call.deadlineTimer = null;
        if (call.finished) {
            return;
        }
        int timeoutMs = call.spec.config().timeoutMs();
        finish(call, LambdaContract.Outcome.of(RunState.TIMED_OUT, call.responseStarted
                ? "the endpoint's answer did not end within " + timeoutMs + " ms (timeout_ms); the call was aborted"
                : "the endpoint did not answer within " + timeoutMs + " ms (timeout_ms); the call was aborted"));
    }

    /** Ends the run exactly once: stops its timers and its exchange, frees its slot, reports the outcome. */
    private void finish(Call call, LambdaContract.Outcome outcome) {
        call.finished = true;
        if (call.deadlineTimer != null) {
            vertx.cancelTimer(call.deadlineTimer);
        }
        if (call.backoffTimer != null) {
            vertx.cancelTimer(call.backoffTimer);
        }
        if (call.request != null) {
            call.request.reset();
        }
        held.remove(call.spec.run().runId(), call);
        if (call.started) {
            inFlight--;
            Call next = waiting.pollFirst();
            if (next != null) {
                start(next);
            }
        } else {
            waiting.remove(call);
        }
        if (outcome.state() != RunState.SUCCEEDED) {
            LOG.infof("lambda run %s ended %s: %s", call.spec.run().runId(), outcome.state(),
                    call.spec.redactor().redact(outcome.error()));
        }
        report(call, outcome.state(), outcome.exitCode(), OutputTail.of(outcome.output(), outputMaxBytes),
                outcome.error());
    }

    private void report(Call call, RunState state, Integer exitCode, String output, String error) {
        RunRequested r = call.spec.run();
        var redactor = call.spec.redactor();
        reporter.report(RunStatusChanged.of(r.runId(), r.companyId(), r.agentId(), state, exitCode,
                redactor.redact(output), redactor.redact(error)));
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    /** Ends every held run while the broker connection is still open: they are reported FAILED. */
    void onShutdown(@Observes ShutdownEvent event) {
        CountDownLatch done = new CountDownLatch(1);
        context.runOnContext(v -> {
            for (Call call : held.values()) {
                if (!call.finished) {
                    finish(call, LambdaContract.Outcome.of(RunState.FAILED, call.started
                            ? "the adapter service stopped while the call was in progress; it was aborted"
                            : "the adapter service stopped before the run started"));
                }
            }
            done.countDown();
        });
        try {
            done.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }

    /** A context of its own on one event loop: every call's state lives there. */
    private static Context eventLoopContext(Vertx vertx) {
        CompletableFuture<Context> ready = new CompletableFuture<>();
        vertx.deployVerticle(new AbstractVerticle() {
            @Override
            public void start() {
                ready.complete(context);
            }
        }).onFailure(ready::completeExceptionally);
        try {
            return ready.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the lambda caller", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not start the lambda caller's event-loop context", e);
        }
    }

    /** One run's call; every field is touched on {@link #context} only (the map above is how others find it). */
    private static final class Call {
        final LambdaCall spec;
        boolean started;
        boolean finished;
        boolean responseStarted;
        int attempt;
        long deadlineAt;
        Long deadlineTimer;
        Long backoffTimer;
        InetAddress address;
        HttpClientRequest request;

        Call(LambdaCall spec) {
            this.spec = spec;
        }
    }
}
