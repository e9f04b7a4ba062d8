package io.trimus.adapter.docker;

import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import jakarta.annotation.PreDestroy;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs docker runs on a bounded pool of TRIMUS_DOCKER_MAX_CONCURRENT_RUNS threads (docker-java blocks; it
 * never runs on the event loop) and keeps the runs it holds, so a cancel can find a queued run or kill a
 * running container.
 */
@ApplicationScoped
public class RunExecutor {

    private static final Logger LOG = Logger.getLogger(RunExecutor.class);

    private final DockerContainerRunner runner;
    private final RunReporter reporter;
    private final ThreadPoolExecutor pool;
    private final Map<UUID, RunHandle> held = new ConcurrentHashMap<>();

    @Inject
    public RunExecutor(DockerContainerRunner runner, RunReporter reporter, TrimusConfig config) {
        this(runner, reporter, config.docker().maxConcurrentRuns());
    }

    RunExecutor(DockerContainerRunner runner, RunReporter reporter, int maxConcurrentRuns) {
        if (maxConcurrentRuns < 1) {
            throw new IllegalArgumentException(
                    "TRIMUS_DOCKER_MAX_CONCURRENT_RUNS must be at least 1, got " + maxConcurrentRuns);
        }
        this.runner = runner;
        this.reporter = reporter;
        this.pool = new ThreadPoolExecutor(maxConcurrentRuns, maxConcurrentRuns, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), new NamedThreads());
    }

    /** Queues the run unless it is already held; it starts when a slot is free. */
    public void submit(RunRequested request, ContainerPolicy policy) {
        RunHandle handle = new RunHandle(request);
        if (held.putIfAbsent(request.runId(), handle) != null) {
            LOG.infof("run %s is already being executed; ignoring the second request", request.runId());
            return;
        }
        try {
            pool.execute(() -> {
                try {
                    if (handle.begin()) {
                        runner.run(request, policy, handle);
                    }
                } finally {
                    held.remove(request.runId(), handle);
                }
            });
        } catch (RejectedExecutionException e) {
            held.remove(request.runId(), handle);
            reporter.report(RunStatusChanged.of(request.runId(), request.companyId(), request.agentId(),
                    RunState.FAILED, null, null, "the adapter service is shutting down; the run was not started"));
        }
    }

    /**
     * Cancels a held run: a queued run never starts and is reported CANCELLED now; a running container is
     * killed and its worker reports CANCELLED with the output so far.
     *
     * @return false when the run is not held here
     */
    public boolean cancel(UUID runId) {
        RunHandle handle = held.get(runId);
        if (handle == null) {
            return false;
        }
        switch (handle.cancel()) {
            case REPORT_NOW -> {
                held.remove(runId, handle);
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
        return held.containsKey(runId);
    }

    /**
     * Stops while the broker connection is still open (ShutdownEvent comes before the Kafka connector closes):
     * queued runs are reported FAILED without starting; running workers are interrupted, kill and remove
     * their containers and report FAILED.
     */
    void onShutdown(@Observes ShutdownEvent event) {
        stop();
    }

    @PreDestroy
    void stop() {
        if (pool.isShutdown()) {
            return;
        }
        pool.shutdownNow();
        for (RunHandle handle : held.values()) {
            if (handle.neverStarted()) {
                RunRequested r = handle.request();
                held.remove(r.runId(), handle);
                reporter.report(RunStatusChanged.of(r.runId(), r.companyId(), r.agentId(), RunState.FAILED, null,
                        null, "the adapter service stopped before the run started"));
            }
        }
        try {
            if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("some docker runs did not stop within 30 s; the next start removes their containers");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class NamedThreads implements ThreadFactory {
        private final AtomicInteger next = new AtomicInteger(1);

        @Override
        public Thread newThread(Runnable task) {
            Thread t = new Thread(task, "trimus-docker-run-" + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        }
    }
}
