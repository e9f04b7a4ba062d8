package io.trimus.adapter.a2a;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.trimus.adapter.config.A2aConfig;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.offhost.EndpointAddressPolicy;
import io.trimus.adapter.offhost.OffHostHttpClient;
import io.trimus.adapter.run.pool.CompanyShares;
import io.trimus.adapter.run.pool.RunPool;
import io.trimus.adapter.offhost.HostResolver;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.run.RunStarts;
import io.trimus.events.OutputTail;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Executes the runs delegated to A2A peers: holds each from submit to its outcome, runs at most
 * TRIMUS_A2A_MAX_CONCURRENT_RUNS exchanges at once on threads of its own (the SDK's client is blocking; the event loops
 * only carry the bytes), of which one company's runs take at most TRIMUS_COMPANY_MAX_CONCURRENT_A2A_RUNS, waits for the
 * run's start to be recorded before the first call, judges the peer's addresses (SSRF guard, TRIMUS_A2A_ALLOW_PRIVATE),
 * bounds the whole exchange by timeout_ms, and on a cancel or the deadline resets the calls in flight and asks the
 * peer, best effort, to cancel its task.
 */
@Startup
@Singleton
public class A2aCaller {
    private static final Logger LOG = Logger.getLogger(A2aCaller.class);
    /** The knob of the private ranges A2A peers may be at. */
    public static final String ALLOW_PRIVATE = "TRIMUS_A2A_ALLOW_PRIVATE";
    /** How long the best-effort tasks/cancel after a cancel, a timeout or a shutdown may take. */
    static final long CANCEL_BUDGET_MS = 5_000;

    private final Vertx vertx;
    private final RunReporter reporter;
    private final RunStarts starts;
    private final EndpointAddressPolicy policy;
    private final HostResolver resolver;
    private final int maxResponseBytes;
    private final long maxStreamBytes;
    private final Duration pollInterval;
    private final int outputMaxBytes;
    private final HttpClient client;
    private final RunPool<PeerRun> pool;

    @Inject
    public A2aCaller(Vertx vertx, RunReporter reporter, RunStarts starts, TrimusConfig config) {
        A2aConfig a2a = config.a2a();
        if (a2a.maxResponseBytes() < 1 || a2a.maxStreamBytes() < 1 || a2a.maxConcurrentRuns() < 1) {
            throw new IllegalArgumentException("TRIMUS_A2A_MAX_RESPONSE_BYTES, TRIMUS_A2A_MAX_STREAM_BYTES and"
                    + " TRIMUS_A2A_MAX_CONCURRENT_RUNS must each be at least 1");
        }
        this.vertx = vertx;
        this.reporter = reporter;
        this.starts = starts;
        this.policy = EndpointAddressPolicy.allowing(a2a.allowPrivate().orElse(List.of()), ALLOW_PRIVATE);
        this.resolver = InetAddress::getAllByName;
        this.maxResponseBytes = a2a.maxResponseBytes();
        this.maxStreamBytes = a2a.maxStreamBytes();
        this.pollInterval = a2a.pollInterval();
        this.outputMaxBytes = config.run().outputMaxBytes();
        this.client = OffHostHttpClient.create(vertx, 2 * a2a.maxConcurrentRuns());
        int share = config.company().maxConcurrentA2aRuns()
                .orElse(CompanyShares.defaultShare(a2a.maxConcurrentRuns()));
        this.pool = new RunPool<>("TRIMUS_A2A_MAX_CONCURRENT_RUNS", "trimus-a2a", a2a.maxConcurrentRuns(),
                "TRIMUS_COMPANY_MAX_CONCURRENT_A2A_RUNS", share);
        LOG.infof("A2A runs: %d slots, at most %d per company", a2a.maxConcurrentRuns(), share);
    }

    /** The policy peers are judged by; the remote adapter also asks it about IP-literal urls up front. */
    public EndpointAddressPolicy policy() {
        return policy;
    }

    /** Why a peer's address is refused, and what would allow it. */
    public static String refusal(String reason) {
        return "the A2A peer is refused: " + reason + "; an A2A peer must be a public address unless"
                + " " + ALLOW_PRIVATE + " covers it";
    }

    /** Queues the run unless it is already held; over its company's share it waits behind that company's runs. */
    void submit(PeerRun run) {
        RunRequested r = run.request;
        pool.submit(r.runId(), CompanyShares.key(r.companyId()), run, () -> execute(run), () -> {
            if (run.stop(new PeerRun.Stop(RunState.FAILED, "shutting down")) != PeerRun.Stopped.ALREADY) {
                finish(run, PeerOutcome.of(RunState.FAILED, "the adapter service is shutting down; the run was not"
                        + " started"), null);
            }
        });
    }

    /** Cancels a held run: a queued one never calls its peer, an exchange is stopped. False when not held here. */
    public boolean cancel(UUID runId) {
        PeerRun run = pool.held(runId);
        if (run == null) {
            return false;
        }
        if (run.stop(new PeerRun.Stop(RunState.CANCELLED, "cancelled")) == PeerRun.Stopped.QUEUED) {
            finish(run, PeerOutcome.of(RunState.CANCELLED, "cancelled before it started"), null);
        }
        return true;
    }

    /** Whether this process holds the run. */
    public boolean holds(UUID runId) {
        return pool.holds(runId);
    }

    private void execute(PeerRun run) {
        if (!run.begin()) {
            return;   // stopped while queued, and ended there
        }
        PeerExchange exchange = null;
        PeerOutcome outcome;
        try {
            RunStarts.Start start = starts.awaitStart(run.request.runId());
            if (start == RunStarts.Start.TAKEN) {
                run.end();
                pool.release(run.request.runId(), run);
                return;
            }
            if (start == RunStarts.Start.NOT_RECORDED) {
                outcome = PeerOutcome.of(RunState.FAILED, RunStarts.NOT_RECORDED);
            } else {
                exchange = open(run);
                outcome = exchange == null ? null : exchange.run();
            }
        } catch (PeerExchange.PeerFailed failed) {
            outcome = failed.outcome;
        } catch (InterruptedException stopped) {
            outcome = null;
        } catch (RuntimeException e) {
            outcome = PeerOutcome.of(RunState.FAILED, "the exchange with the A2A peer failed: "
                    + GuardedHttpClient.bounded(GuardedHttpClient.describe(e)));
        } finally {
            run.leave();
        }
        PeerSession session = run.session();
        if (session != null) {
            session.abort();   // a stream the peer keeps open after its final event is closed here
        }
        if (session != null && session.remainingMs() == 0) {
            run.stop(timedOut(run));   // a call that gave up at the deadline may beat the deadline's timer here
        }
        PeerRun.Stop stop = run.stopped();
        String taskId = exchange == null ? null : exchange.taskId();
        if (stop != null) {
            outcome = stopped(run, stop, taskId);
        } else if (outcome == null) {
            outcome = PeerOutcome.of(RunState.FAILED, "the exchange with the A2A peer was interrupted");
        }
        finish(run, outcome, taskId);
        if (stop != null && taskId != null) {
            run.session().grace(CANCEL_BUDGET_MS);
            exchange.cancelTask();
        }
    }

    /** Starts the run's clock, judges its peer's address and binds the exchange; null when stopped meanwhile. */
    private PeerExchange open(PeerRun run) throws PeerExchange.PeerFailed {
        int timeoutMs = run.peer.timeoutMs();
        long deadlineAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        run.deadlineTimer = vertx.setTimer(timeoutMs, id -> run.stop(timedOut(run)));
        PeerSession session = new PeerSession(run.peer, address(run), deadlineAt);
        if (!run.attach(session)) {
            return null;
        }
        GuardedHttpClient http = new GuardedHttpClient(client, session, maxResponseBytes, maxStreamBytes);
        return new PeerExchange(run.request, session, http, run.authHeaders, pollInterval, outputMaxBytes,
                new PeerExchange.Progress() {
                    @Override
                    public void running(String taskId) {
                        RunRequested r = run.request;
                        reporter.report(RunStatusChanged.progress(r.runId(), r.companyId(), r.agentId(),
                                RunState.RUNNING).withPeerTask(taskId));
                    }

                    @Override
                    public void note(String note) {
                        run.notes.add(note);
                    }
                });
    }

    /** The address to dial: the judged literal, or the host resolved once here with every address judged. */
    private InetAddress address(PeerRun run) throws PeerExchange.PeerFailed {
        if (run.literal != null) {
            return run.literal;
        }
        String host = run.peer.host();
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            throw new PeerExchange.PeerFailed(PeerOutcome.of(RunState.FAILED, "the A2A peer's host " + host
                    + " does not resolve"));
        }
        EndpointAddressPolicy.Verdict verdict = policy.checkAll(host, addresses);
        if (!verdict.allowed()) {
            throw new PeerExchange.PeerFailed(PeerOutcome.of(RunState.REJECTED, refusal(verdict.reason())));
        }
        return addresses[0];
    }

    private static PeerRun.Stop timedOut(PeerRun run) {
        return new PeerRun.Stop(RunState.TIMED_OUT, "the A2A peer's task did not end within " + run.peer.timeoutMs()
                + " ms (timeout_ms)");
    }

    private static PeerOutcome stopped(PeerRun run, PeerRun.Stop stop, String taskId) {
        String what = taskId == null ? "; the peer had named no task yet"
                : "; the A2A peer's task " + taskId + " was asked to cancel";
        return PeerOutcome.of(stop.state(), stop.reason() + what);
    }

    /** Ends the run exactly once: stops its timer, lets go of it, reports the outcome (redacted). */
    private void finish(PeerRun run, PeerOutcome outcome, String taskId) {
        if (!run.end()) {
            return;
        }
        if (run.deadlineTimer != null) {
            vertx.cancelTimer(run.deadlineTimer);
        }
        RunRequested r = run.request;
        pool.release(r.runId(), run);
        var redactor = run.redactor;
        if (outcome.state() != RunState.SUCCEEDED) {
            LOG.infof("A2A run %s ended %s: %s", r.runId(), outcome.state(), redactor.redact(outcome.error()));
        }
        RunStatusChanged event = RunStatusChanged.of(r.runId(), r.companyId(), r.agentId(), outcome.state(), null,
                redactor.redact(OutputTail.of(outcome.output(), outputMaxBytes)), redactor.redact(outcome.error()));
        if (!run.notes.isEmpty()) {
            event = event.withNotes(run.notes.stream().map(redactor::redact).toList());
        }
        reporter.report(taskId == null ? event : event.withPeerTask(taskId));
    }

    /** Ends every held run while the broker connection is still open: they are reported FAILED. */
    void onShutdown(@Observes ShutdownEvent event) {
        for (PeerRun run : pool.all()) {
            if (run.stop(new PeerRun.Stop(RunState.FAILED, "the adapter service stopped while the run was"
                    + " delegated to its A2A peer")) != PeerRun.Stopped.ALREADY) {
                finish(run, PeerOutcome.of(RunState.FAILED, "the adapter service stopped while the run was delegated"
                        + " to its A2A peer; the exchange was stopped"), null);
            }
        }
        pool.shutdown(run -> { }, Duration.ofSeconds(5));
        client.close();
    }
}
