package io.trimus.adapter.lambda;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.pool.CompanyShares;
import io.trimus.adapter.offhost.EndpointAddressPolicy;
import io.trimus.adapter.offhost.HostResolver;
import io.trimus.adapter.offhost.OffHostHttpClient;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.run.RunTable;
import io.trimus.events.OutputTail;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes the lambda calls: holds each run from submit to its outcome, lets {@link CallAdmission} bound how many are in
 * flight and how many of those one company's calls take, has {@link EndpointDialler} pick the address (SSRF guard)
 * and {@link LambdaExchange} make the request with its retries, and ends the run at timeout_ms with one timer, however
 * slowly the body trickles.
 *
 * <p>Uses the core Vert.x HTTP client, the layer Vert.x's WebClient is built on: WebClient 4.x can neither abort an
 * exchange in flight (needed for a cancel and for a deadline that covers the body) nor stop reading at a byte cap
 * without buffering. All state of the calls is confined to one event-loop context; other threads only post to it.
 */
@Startup
@Singleton
public class LambdaCaller {
    private static final Logger LOG = Logger.getLogger(LambdaCaller.class);
    /** The knob of the private ranges lambda endpoints may be at. */
    public static final String ALLOW_PRIVATE = "TRIMUS_LAMBDA_ALLOW_PRIVATE";

    private final Vertx vertx;
    private final RunReporter reporter;
    private final RunStarts starts;
    private final EndpointAddressPolicy policy;
    private final int outputMaxBytes;
    private final HttpClient client;
    private final Context context;
    private final RunTable<CallState> held = new RunTable<>();
    /** Confined to {@link #context}. */
    private final CallAdmission admission;
    private final EndpointDialler dialler;
    private final LambdaExchange exchange;

    @Inject
    public LambdaCaller(Vertx vertx, RunReporter reporter, RunStarts starts, TrimusConfig config) {
        this(vertx, reporter, starts, EndpointAddressPolicy.allowing(config.lambda().allowPrivate().orElse(List.of()),
                        ALLOW_PRIVATE),
                InetAddress::getAllByName, config.lambda().maxResponseBytes(), config.run().outputMaxBytes(),
                config.lambda().maxConcurrentRuns(), config.company().maxConcurrentLambdaRuns()
                        .orElse(CompanyShares.defaultShare(config.lambda().maxConcurrentRuns())));
    }

    /** A caller with {@code maxConcurrentRuns} slots; one company's calls take {@code companyShare} of them at most. */
    public LambdaCaller(Vertx vertx, RunReporter reporter, RunStarts starts, EndpointAddressPolicy policy,
                        HostResolver resolver, int maxResponseBytes, int outputMaxBytes, int maxConcurrentRuns,
                        int companyShare) {
        this.starts = starts;
        this.admission = new CallAdmission(maxConcurrentRuns, companyShare);
        this.vertx = vertx;
        this.reporter = reporter;
        this.policy = policy;
        this.outputMaxBytes = outputMaxBytes;
        this.client = OffHostHttpClient.create(vertx, maxConcurrentRuns);
        this.exchange = new LambdaExchange(vertx, client, maxResponseBytes, this::finish);
        this.context = eventLoopContext(vertx);
        this.dialler = new EndpointDialler(context, policy, resolver, this::finish);
        LOG.infof("lambda calls: %d slots, at most %d per company", maxConcurrentRuns, companyShare);
    }

    /** The policy calls are judged by; the adapter also asks it about IP-literal endpoints up front. */
    public EndpointAddressPolicy policy() {
        return policy;
    }

    /** Queues the call unless its run is already held. */
    public void submit(LambdaCall call) {
        CallState running = new CallState(call);
        if (held.hold(call.run().runId(), running)) {
            context.runOnContext(v -> admit(running));
        }
    }

    /** Cancels a held run: a queued one never calls, a call in flight is aborted. False when not held here. */
    public boolean cancel(UUID runId) {
        CallState call = held.get(runId);
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
        return held.holds(runId);
    }

    private void admit(CallState call) {
        if (!call.finished && admission.admit(call)) {
            start(call);
        }
    }

    private void start(CallState call) {
        UUID runId = call.spec.run().runId();
        starts.recordStart(runId).whenComplete((start, failure) -> context.runOnContext(v -> {
            if (call.finished) {
                return;   // cancelled while its start was being recorded
            }
            switch (failure != null ? RunStarts.Start.NOT_RECORDED : start) {
                case GO -> call(call);
                case NOT_RECORDED -> finish(call, LambdaContract.Outcome.of(RunState.FAILED, RunStarts.NOT_RECORDED));
                case TAKEN -> drop(call);
            }
        }));
    }

    private void call(CallState call) {
        call.started = true;
        int timeoutMs = call.spec.config().timeoutMs();
        call.deadlineAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        call.deadlineTimer = vertx.setTimer(timeoutMs, id -> timedOut(call));
        dialler.dial(call, (dialled, address) -> {
            dialled.address = address;
            report(dialled, RunState.RUNNING, null, null, null);
            exchange.attempt(dialled);
        });
    }

    private void timedOut(CallState call) {
        call.deadlineTimer = null;
        if (call.finished) {
            return;
        }
        int timeoutMs = call.spec.config().timeoutMs();
        finish(call, LambdaContract.Outcome.of(RunState.TIMED_OUT, call.responseStarted
                ? "the endpoint's answer did not end within " + timeoutMs + " ms (timeout_ms); the call was aborted"
                : "the endpoint did not answer within " + timeoutMs + " ms (timeout_ms); the call was aborted"));
    }

    /** Lets go of a run another process holds (it started it first): frees its slot, reports nothing. */
    private void drop(CallState call) {
        call.finished = true;
        held.release(call.spec.run().runId(), call);
        admission.release(call).forEach(this::start);
    }

    /** Ends the run exactly once: stops its timers and its exchange, frees its slot, reports the outcome. */
    private void finish(CallState call, LambdaContract.Outcome outcome) {
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
        held.release(call.spec.run().runId(), call);
        admission.release(call).forEach(this::start);
        if (outcome.state() != RunState.SUCCEEDED) {
            LOG.infof("lambda run %s ended %s: %s", call.spec.run().runId(), outcome.state(),
                    call.spec.redactor().redact(outcome.error()));
        }
        report(call, outcome.state(), outcome.exitCode(), OutputTail.of(outcome.output(), outputMaxBytes),
                outcome.error());
    }

    private void report(CallState call, RunState state, Integer exitCode, String output, String error) {
        RunRequested r = call.spec.run();
        var redactor = call.spec.redactor();
        reporter.report(RunStatusChanged.of(r.runId(), r.companyId(), r.agentId(), state, exitCode,
                redactor.redact(output), redactor.redact(error)));
    }

    /** Ends every held run while the broker connection is still open: they are reported FAILED. */
    void onShutdown(@Observes ShutdownEvent event) {
        CountDownLatch done = new CountDownLatch(1);
        context.runOnContext(v -> {
            for (CallState call : held.all()) {
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

}
