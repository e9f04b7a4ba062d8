package io.trimus.adapter.egress;

import io.trimus.events.RunState;

import java.time.Duration;

/**
 * How long a sandbox run waits for egress-service's parts (resolver, proxy, sandbox registry) to answer, e.g. while
 * egress-service is still starting: attempts 250 ms apart at first, doubling up to 2 s, until
 * TRIMUS_EGRESS_READY_TIMEOUT has passed. A cancelled run stops waiting at once.
 */
public final class ReadyWait {
    private static final long FIRST_PAUSE_MS = 250;
    private static final long LONGEST_PAUSE_MS = 2000;

    private final Duration timeout;

    public ReadyWait(Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_READY_TIMEOUT must not be negative, got " + timeout);
        }
        this.timeout = timeout;
    }

    /** The attempts of one run, its time counted from now. */
    public Attempts begin(RunPause pause) {
        return new Attempts(System.nanoTime() + timeout.toNanos(), pause);
    }

    /** One run's attempts. */
    public static final class Attempts {
        private final long deadline;
        private final RunPause pause;
        private long nextPause = FIRST_PAUSE_MS;
        private boolean waited;

        private Attempts(long deadline, RunPause pause) {
            this.deadline = deadline;
            this.pause = pause;
        }

        /** True the first time only: a run says once that it waits, not at every attempt. */
        public boolean firstWait() {
            boolean first = !waited;
            waited = true;
            return first;
        }

        /**
         * Pauses before the next attempt.
         *
         * @return false when the time is up: the last attempt's reason stands
         * @throws SandboxAttachment.Refused (CANCELLED) when the run was cancelled meanwhile
         */
        public boolean again() throws InterruptedException, SandboxAttachment.Refused {
            long leftMs = (deadline - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0) {
                return false;
            }
            long sleep = Math.min(nextPause, leftMs);
            nextPause = Math.min(nextPause * 2, LONGEST_PAUSE_MS);
            if (!pause.sleep(sleep)) {
                throw new SandboxAttachment.Refused("cancelled before it started", RunState.CANCELLED);
            }
            return true;
        }
    }
}
