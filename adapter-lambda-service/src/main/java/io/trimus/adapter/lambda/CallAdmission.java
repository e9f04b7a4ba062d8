package io.trimus.adapter.lambda;

import io.trimus.adapter.run.pool.CompanyShares;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * At most TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS calls in flight, the rest waiting in order; one company's calls take at
 * most TRIMUS_COMPANY_MAX_CONCURRENT_LAMBDA_RUNS of those places (in flight or queued for a slot), its further calls
 * waiting in a queue of their own ({@link CompanyShares}). Where each call is, is kept here, so a call that ends
 * anywhere (cancelled while queued, dropped while its start was being recorded, finished) gives back exactly what it
 * took. Confined to the caller's event-loop context, so it needs no lock.
 */
final class CallAdmission {

    /** Where a call is. */
    enum Place {
        /** Over its company's share, in the company's queue. */
        SHARE_QUEUE,
        /** Within its share, waiting for a free slot. */
        SLOT_QUEUE,
        /** Holds a slot. */
        IN_FLIGHT,
        /** Gave back whatever it took. */
        OUT
    }

    private final int maxInFlight;
    private final CompanyShares<CallState> shares;
    private final Deque<CallState> waiting = new ArrayDeque<>();
    private int inFlight;

    CallAdmission(int maxInFlight, int share) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException(
                    "TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS must be at least 1, got " + maxInFlight);
        }
        this.maxInFlight = maxInFlight;
        this.shares = new CompanyShares<>("TRIMUS_COMPANY_MAX_CONCURRENT_LAMBDA_RUNS", share);
        shares.warnIfWhole("TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS", maxInFlight);
    }

    /** Takes a slot for the call and returns true (start it), or queues it and returns false. */
    boolean admit(CallState call) {
        if (!shares.admit(key(call), call.spec.run().runId(), call)) {
            call.place = Place.SHARE_QUEUE;
            return false;
        }
        return slot(call);
    }

    /**
     * The call ended wherever it was: it gives back its slot and its company's place; the calls that now take a slot
     * (their slot taken) are returned, to be started.
     */
    List<CallState> release(CallState call) {
        List<CallState> start = new ArrayList<>();
        Place was = call.place;
        call.place = Place.OUT;
        if (was == null || was == Place.OUT) {
            return start;
        }
        if (was == Place.SHARE_QUEUE) {
            shares.withdraw(w -> w == call);
            return start;
        }
        if (was == Place.SLOT_QUEUE) {
            waiting.remove(call);
        } else {
            inFlight--;
        }
        CallState promoted = shares.ended(key(call));
        if (promoted != null && slot(promoted)) {
            start.add(promoted);
        }
        while (inFlight < maxInFlight && !waiting.isEmpty()) {
            CallState next = waiting.pollFirst();
            inFlight++;
            next.place = Place.IN_FLIGHT;
            start.add(next);
        }
        return start;
    }

    private boolean slot(CallState call) {
        if (inFlight < maxInFlight) {
            inFlight++;
            call.place = Place.IN_FLIGHT;
            return true;
        }
        waiting.addLast(call);
        call.place = Place.SLOT_QUEUE;
        return false;
    }

    private static Object key(CallState call) {
        return CompanyShares.key(call.spec.run().companyId());
    }
}
