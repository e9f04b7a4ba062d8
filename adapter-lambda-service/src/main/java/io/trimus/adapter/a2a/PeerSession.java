package io.trimus.adapter.a2a;

import io.trimus.events.adapter.A2aPeerConfig;
import io.vertx.core.http.HttpClientRequest;

import java.net.InetAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the guarded client and the run's exchange share about one run's calls to its peer: the peer and the address that
 * was judged for it, the deadline every request must answer within, the requests in flight (so a cancel or the deadline
 * can reset them), and the first reason the guard gave for failing a call, which is the run's reason when the SDK wraps
 * it into its own exception.
 */
final class PeerSession {
    private final A2aPeerConfig peer;
    private final InetAddress address;
    private final Set<HttpClientRequest> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicReference<String> refusal = new AtomicReference<>();
    private volatile long deadlineAt;
    private volatile boolean aborted;
    private volatile int lastStatus;

    PeerSession(A2aPeerConfig peer, InetAddress address, long deadlineAt) {
        this.peer = peer;
        this.address = address;
        this.deadlineAt = deadlineAt;
    }

    A2aPeerConfig peer() {
        return peer;
    }

    InetAddress address() {
        return address;
    }

    /** Milliseconds left before the deadline; 0 once it passed. */
    long remainingMs() {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineAt - System.nanoTime()));
    }

    /** Gives the calls that follow (a best-effort tasks/cancel) a budget of their own, after an abort. */
    void grace(long ms) {
        aborted = false;
        deadlineAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    }

    /** Records the guard's reason for failing a call; the first one stands. */
    void refuse(String reason) {
        refusal.compareAndSet(null, reason);
    }

    /** The guard's reason for the first call it failed, or null. */
    String refusal() {
        return refusal.get();
    }

    void status(int status) {
        lastStatus = status;
    }

    /** The HTTP status of the last answer the peer gave, 0 before any. */
    int lastStatus() {
        return lastStatus;
    }

    /** Tracks a request in flight; false (and nothing tracked) once the session was aborted. */
    boolean track(HttpClientRequest request) {
        inFlight.add(request);
        if (aborted) {
            inFlight.remove(request);
            return false;
        }
        return true;
    }

    void untrack(HttpClientRequest request) {
        inFlight.remove(request);
    }

    /** Resets every request in flight and refuses new ones until {@link #grace}. */
    void abort() {
        aborted = true;
        for (HttpClientRequest request : inFlight) {
            request.reset();
        }
        inFlight.clear();
    }
}
