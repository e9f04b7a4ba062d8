package io.trimus.adapter.a2a;

import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.adapter.A2aPeerConfig;
import io.trimus.events.secrets.Redactor;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One delegated run as the caller holds it: what it was asked, the thread that runs its exchange once it left the
 * queue, why it was stopped (a cancel, its deadline, shutdown), and whether it ended.
 */
final class PeerRun {
    final RunRequested request;
    final A2aPeerConfig peer;
    /** The url's host as an IP literal, judged at validation; null for a host name. */
    final InetAddress literal;
    /** The auth header by name, or empty. */
    final Map<String, String> authHeaders;
    final Redactor redactor;
    /** Notes the exchange made, shown on the run's final event. */
    final List<String> notes = new CopyOnWriteArrayList<>();
    private final AtomicReference<Stop> stop = new AtomicReference<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private boolean begun;
    private Thread thread;
    private PeerSession session;
    volatile Long deadlineTimer;

    PeerRun(RunRequested request, A2aPeerConfig peer, InetAddress literal, Map<String, String> authHeaders,
            Redactor redactor) {
        this.request = request;
        this.peer = peer;
        this.literal = literal;
        this.authHeaders = authHeaders;
        this.redactor = redactor;
    }

    /** Why a run was stopped from outside its exchange, with the state it then ends in. */
    record Stop(RunState state, String reason) {
    }

    /** Where a run was when it was stopped. */
    enum Stopped {
        /** It had been stopped already: the first reason stands. */
        ALREADY,
        /** Still queued: no thread will run it, whoever stopped it ends it. */
        QUEUED,
        /** Its thread runs it and ends it. */
        RUNNING
    }

    /** Stops the run once: its calls in flight are reset and its thread interrupted. */
    synchronized Stopped stop(Stop why) {
        if (!stop.compareAndSet(null, why)) {
            return Stopped.ALREADY;
        }
        if (!begun) {
            return Stopped.QUEUED;
        }
        if (session != null) {
            session.abort();
        }
        if (thread != null) {
            thread.interrupt();
        }
        return Stopped.RUNNING;
    }

    Stop stopped() {
        return stop.get();
    }

    /** Binds the run to the thread executing it; false when it was stopped while queued. */
    synchronized boolean begin() {
        if (stop.get() != null) {
            return false;
        }
        begun = true;
        thread = Thread.currentThread();
        return stop.get() == null;
    }

    /** Binds the run to its session; false (and the session aborted) when it was stopped meanwhile. */
    synchronized boolean attach(PeerSession s) {
        session = s;
        if (stop.get() != null) {
            s.abort();
            return false;
        }
        return true;
    }

    synchronized PeerSession session() {
        return session;
    }

    /** Unbinds the thread (and clears an interrupt meant for this run), before the thread serves another. */
    synchronized void leave() {
        thread = null;
        Thread.interrupted();
    }

    /** Claims the run's one ending; false when it already ended. */
    boolean end() {
        return ended.compareAndSet(false, true);
    }
}
