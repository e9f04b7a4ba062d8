package io.trimus.adapter.lambda;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * At most TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS calls in flight, the rest waiting in order. Confined to the caller's
 * event-loop context, so it needs no lock.
 */
final class CallAdmission {

    private final int maxInFlight;
    private final Deque<CallState> waiting = new ArrayDeque<>();
    private int inFlight;

    CallAdmission(int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException(
                    "TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS must be at least 1, got " + maxInFlight);
        }
        this.maxInFlight = maxInFlight;
    }

    /** Takes a slot for the call and returns true, or queues it and returns false. */
    boolean admit(CallState call) {
        if (inFlight < maxInFlight) {
            inFlight++;
            return true;
        }
        waiting.addLast(call);
        return false;
    }

    /**
     * The call ended: a started call frees its slot, which goes to the next waiting call (returned, its slot taken);
     * a call that was still waiting just leaves the queue.
     *
     * @return the call to start now, or null
     */
    CallState release(CallState call) {
        if (!call.started) {
            waiting.remove(call);
            return null;
        }
        CallState next = waiting.pollFirst();
        if (next == null) {
            inFlight--;
        }
        return next;
    }
}
