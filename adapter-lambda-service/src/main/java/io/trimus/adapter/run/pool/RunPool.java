package io.trimus.adapter.run.pool;

import io.trimus.adapter.run.RunTable;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Collection;
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
 * <p>With a share, runs submitted under a key (a company) hold at most that many of the pool's places (running or
 * queued for a thread) at a time ({@link CompanyShares}): the key's further runs wait in order outside the pool, so
 * they never stand in front of another key's runs, and the next one goes to the pool when one of the key's runs ends.
 * Idle threads end after a minute.
 *
 * @param <H> the executor's handle of one run
 */
public final class RunPool<H> {

    private static final Logger LOG = Logger.getLogger(RunPool.class);

    private final RunTable<H> held = new RunTable<>();
    private final ThreadPoolExecutor pool;
    /** The keys' shares; guarded by itself together with {@link #closed}. */
    private final CompanyShares<Work<H>> shares;
    private boolean closed;

    /**
     * A pool of {@code size} threads named {@code <threadPrefix>-<n>}, with no share per key.
     *
     * @param knob the setting {@code size} comes from, named when it is below 1
     */
    public RunPool(String knob, String threadPrefix, int size) {
        this(knob, threadPrefix, size, null, size);
    }

    /**
     * A pool of {@code size} threads of which one key's runs hold at most {@code share}.
     *
     * @param shareKnob the setting {@code share} comes from, named when it is below 1
     */
    public RunPool(String knob, String threadPrefix, int size, String shareKnob, int share) {
        if (size < 1) {
            throw new IllegalArgumentException(knob + " must be at least 1, got " + size);
        }
        this.shares = new CompanyShares<>(shareKnob, share);
        if (shareKnob != null) {
            shares.warnIfWhole(knob, size);
        }
        AtomicInteger next = new AtomicInteger(1);
        this.pool = new ThreadPoolExecutor(size, size, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread t = new Thread(task, threadPrefix + "-" + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        this.pool.allowCoreThreadTimeOut(true);
    }

    /** {@link #submit(UUID, Object, Object, Runnable, Runnable)} outside any share. */
    public void submit(UUID runId, H handle, Runnable work, Runnable shuttingDown) {
        submit(runId, null, handle, work, shuttingDown);
    }

    /**
     * Holds the run and queues its work, unless the run is already held (then nothing happens). The run is released
     * when its work returns. When {@code key} already has its share of runs in the pool, the work waits behind the
     * key's earlier runs; the run is held (a cancel finds it) all the while.
     *
     * @param key          whose share the run counts against (e.g. its company); null: none
     * @param shuttingDown called instead, once the run is released, when the pool no longer takes work
     */
    public void submit(UUID runId, Object key, H handle, Runnable work, Runnable shuttingDown) {
        if (!held.hold(runId, handle)) {
            return;
        }
        Work<H> next = new Work<>(runId, key, handle, work, shuttingDown);
        synchronized (shares) {
            if (key != null && !closed && !shares.admit(key, runId, next)) {
                return;
            }
        }
        execute(next);
    }

    private void execute(Work<H> next) {
        try {
            pool.execute(() -> {
                try {
                    next.work.run();
                } finally {
                    held.release(next.runId, next.handle);
                    ended(next.key);
                }
            });
        } catch (RejectedExecutionException e) {
            held.release(next.runId, next.handle);
            ended(next.key);
            next.shuttingDown.run();
        }
    }

    /** One of the key's runs left the pool: its next waiting run, if any, takes the place. */
    private void ended(Object key) {
        if (key == null) {
            return;
        }
        Work<H> successor;
        synchronized (shares) {
            successor = shares.ended(key);
        }
        if (successor != null) {
            LOG.infof("run %s of %s goes ahead: one of its earlier runs ended", successor.runId, key);
            execute(successor);
        }
    }

    /** The handle of a held run, or null when the run is not held here. */
    public H held(UUID runId) {
        return held.get(runId);
    }

    /** Lets go of a run that will never run (e.g. cancelled while queued); one waiting for its share never starts. */
    public void release(UUID runId, H handle) {
        held.release(runId, handle);
        synchronized (shares) {
            shares.withdraw(w -> w.runId.equals(runId) && w.handle == handle);
        }
    }

    /** Every run held now (a live view, safe to iterate while runs end). */
    public Collection<H> all() {
        return held.all();
    }

    /** Whether the run is held here (queued, waiting for its share, or running). */
    public boolean holds(UUID runId) {
        return held.holds(runId);
    }

    /**
     * Stops: queued and waiting work never starts, running work is interrupted, each run still held is handed to
     * {@code stop}, and then the work has {@code wait} to end. Does nothing when already stopped.
     *
     * @return false when some work was still running after {@code wait}
     */
    public boolean shutdown(Consumer<H> stop, Duration wait) {
        synchronized (shares) {
            if (closed) {
                return true;
            }
            closed = true;
            shares.clear();
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

    private record Work<H>(UUID runId, Object key, H handle, Runnable work, Runnable shuttingDown) {
    }
}
