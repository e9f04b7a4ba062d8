package io.trimus.adapter.run;

import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Held runs on a bounded pool of daemon threads: a run is held from submit until its work returns, the rest wait in
 * order for a free thread, and at shutdown every run still held is handed back to its executor to be stopped and
 * reported. Blocking adapters (docker-java, host processes) execute here, never on the event loop.
 *
 * @param <H> the executor's handle of one run
 */
public final class RunPool<H> {

    private static final Logger LOG = Logger.getLogger(RunPool.class);

    private final RunTable<H> held = new RunTable<>();
    private final ThreadPoolExecutor pool;

    /**
     * A pool of {@code size} threads named {@code <threadPrefix>-<n>}.
     *
     * @param knob the setting {@code size} comes from, named when it is below 1
     */
    public RunPool(String knob, String threadPrefix, int size) {
        if (size < 1) {
            throw new IllegalArgumentException(knob + " must be at least 1, got " + size);
        }
        AtomicInteger next = new AtomicInteger(1);
        this.pool = new ThreadPoolExecutor(size, size, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread t = new Thread(task, threadPrefix + "-" + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Holds the run and queues its work, unless the run is already held (then nothing happens). The run is released
     * when its work returns.
     *
     * @param shuttingDown called instead, once the run is released, when the pool no longer takes work
     */
    public void submit(UUID runId, H handle, Runnable work, Runnable shuttingDown) {
        if (!held.hold(runId, handle)) {
            return;
        }
        try {
            pool.execute(() -> {
                try {
                    work.run();
                } finally {
                    held.release(runId, handle);
                }
            });
        } catch (RejectedExecutionException e) {
            held.release(runId, handle);
            shuttingDown.run();
        }
    }

    /** The handle of a held run, or null when the run is not held here. */
    public H held(UUID runId) {
        return held.get(runId);
    }

    /** Lets go of a run that will never run (e.g. cancelled while queued). */
    public void release(UUID runId, H handle) {
        held.release(runId, handle);
    }

    /** Whether the run is held here (queued or running). */
    public boolean holds(UUID runId) {
        return held.holds(runId);
    }

    /**
     * Stops: queued work never starts, running work is interrupted, each run still held is handed to {@code stop}, and
     * then the work has {@code wait} to end. Does nothing when already stopped.
     *
     * @return false when some work was still running after {@code wait}
     */
    public boolean shutdown(Consumer<H> stop, Duration wait) {
        if (pool.isShutdown()) {
            return true;
        }
        pool.shutdownNow();
        held.all().forEach(stop);
        try {
            return pool.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.debug("interrupted while waiting for runs to stop");
            return false;
        }
    }
}
