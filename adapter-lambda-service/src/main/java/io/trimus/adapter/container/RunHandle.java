package io.trimus.adapter.container;

import io.trimus.events.RunRequested;

/**
 * The shared state of one run between its worker thread and a cancel request: whether it started, which
 * container it has, and whether it was cancelled. Every transition is atomic, so a cancel either keeps the
 * run from starting or finds a container to kill.
 */
final class RunHandle {

    /** What a cancel request has to do. */
    enum CancelAction {
        /** The run had not started: report CANCELLED now; it will never start. */
        REPORT_NOW,
        /** The run has a container: kill it; the worker reports CANCELLED. */
        KILL,
        /** The run is starting and has no container yet: the worker sees the flag and stops. */
        WORKER_STOPS,
        /** The run was already cancelled. */
        NOTHING
    }

    private final RunRequested request;
    private boolean started;
    private boolean cancelled;
    private String containerId;

    RunHandle(RunRequested request) {
        this.request = request;
    }

    RunRequested request() {
        return request;
    }

    /** Called by the worker before it does anything; false when the run was cancelled while queued. */
    synchronized boolean begin() {
        if (cancelled) {
            return false;
        }
        started = true;
        return true;
    }

    /** Records the run's container; false when a cancel arrived meanwhile (the worker must not start it). */
    synchronized boolean attach(String id) {
        containerId = id;
        return !cancelled;
    }

    /** True (once) for a run that never started and now never will: it is marked cancelled. */
    synchronized boolean neverStarted() {
        if (started || cancelled) {
            return false;
        }
        cancelled = true;
        return true;
    }

    synchronized boolean isCancelled() {
        return cancelled;
    }

    synchronized String containerId() {
        return containerId;
    }

    /**
     * Sleeps the worker up to {@code millis} while the run waits for something before its container exists; a cancel
     * wakes it at once.
     *
     * @return false when the run is cancelled
     */
    synchronized boolean pause(long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (!cancelled) {
            long leftMs = (end - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0) {
                return true;
            }
            wait(leftMs);
        }
        return false;
    }

    synchronized CancelAction cancel() {
        if (cancelled) {
            return CancelAction.NOTHING;
        }
        cancelled = true;
        notifyAll();
        if (!started) {
            return CancelAction.REPORT_NOW;
        }
        return containerId == null ? CancelAction.WORKER_STOPS : CancelAction.KILL;
    }
}
