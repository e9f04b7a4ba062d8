package io.trimus.adapter.container;

import io.quarkus.runtime.ShutdownEvent;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.run.pool.CompanyShares;
import io.trimus.adapter.run.pool.RunPool;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.UUID;

/**
 * Runs docker runs on a bounded pool of TRIMUS_DOCKER_MAX_CONCURRENT_RUNS threads (docker-java blocks; it
 * never runs on the event loop) and keeps the runs it holds, so a cancel can find a queued run or kill a
 * running container. One company's runs hold at most TRIMUS_COMPANY_MAX_CONCURRENT_RUNS of the slots, so its long
 * runs cannot keep every other company waiting; its further runs wait in order until one of its own ends.
 */
@ApplicationScoped
public class RunExecutor {

    private static final Logger LOG = Logger.getLogger(RunExecutor.class);

    private final DockerContainerRunner runner;
    private final RunReporter reporter;
    private final RunPool<RunHandle> pool;
    private final RunStarts starts;

    @Inject
    public RunExecutor(DockerContainerRunner runner, RunReporter reporter, RunStarts starts, TrimusConfig config) {
        int maxConcurrentRuns = config.docker().maxConcurrentRuns();
        int companyShare = config.company().maxConcurrentRuns().orElse(CompanyShares.defaultShare(maxConcurrentRuns));
        this.runner = runner;
        this.reporter = reporter;
        this.starts = starts;
        this.pool = new RunPool<>("TRIMUS_DOCKER_MAX_CONCURRENT_RUNS", "trimus-docker-run", maxConcurrentRuns,
                "TRIMUS_COMPANY_MAX_CONCURRENT_RUNS", companyShare);
        LOG.infof("docker runs: %d slots, at most %d per company", maxConcurrentRuns, companyShare);
    }

    /**
     * Queues the run unless it is already held; it starts when a slot is free and its company holds fewer than its
     * share of the slots.
     */
    public void submit(RunRequested request, ContainerPolicy policy) {
        RunHandle handle = new RunHandle(request);
        pool.submit(request.runId(), CompanyShares.key(request.companyId()), handle, () -> {
            if (!handle.begin()) {
                return;
            }
            // recorded while the runner inspects the image; it creates nothing before the broker's answer
            runner.run(request, policy, handle, starts.recordStart(request.runId()));
        }, () -> reporter.report(RunStatusChanged.of(request.runId(), request.companyId(), request.agentId(),
                RunState.FAILED, null, null, "the adapter service is shutting down; the run was not started")));
    }

    /**
     * Cancels a held run: a queued run never starts and is reported CANCELLED now; a running container is
     * killed and its worker reports CANCELLED with the output so far.
     *
     * @return false when the run is not held here
     */
    public boolean cancel(UUID runId) {
        RunHandle handle = pool.held(runId);
        if (handle == null) {
            return false;
        }
        switch (handle.cancel()) {
            case REPORT_NOW -> {
                pool.release(runId, handle);
                RunRequested r = handle.request();
                reporter.report(RunStatusChanged.of(runId, r.companyId(), r.agentId(), RunState.CANCELLED, null,
                        null, "cancelled before it started"));
            }
            case KILL -> runner.kill(handle.containerId());
            case WORKER_STOPS, NOTHING -> {
                // the worker sees the flag before it starts the container, or the run is already stopping
            }
        }
        return true;
    }

    /** Whether this process holds the run (queued or running). */
    public boolean holds(UUID runId) {
        return pool.holds(runId);
    }

    /**
     * Stops while the broker connection is still open (ShutdownEvent comes before the Kafka connector closes):
     * queued runs are handed back unreported (run-service dispatches them again when this process's lease lapses);
     * running workers are interrupted, kill and remove their containers and report FAILED.
     */
    void onShutdown(@Observes ShutdownEvent event) {
        stop();
    }

    @PreDestroy
    void stop() {
        boolean stopped = pool.shutdown(handle -> {
            if (handle.neverStarted()) {
                // handed back: its start was never recorded, so run-service dispatches it again once this process's
                // lease has lapsed
                RunRequested r = handle.request();
                pool.release(r.runId(), handle);
                LOG.infof("run %s hands back: it had not started when the service stopped", r.runId());
            }
        }, Duration.ofSeconds(30));
        if (!stopped) {
            LOG.warn("some docker runs did not stop within 30 s; the next start removes their containers");
        }
    }
}
