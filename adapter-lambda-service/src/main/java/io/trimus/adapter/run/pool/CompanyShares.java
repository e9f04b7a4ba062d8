package io.trimus.adapter.run.pool;

import org.jboss.logging.Logger;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Fair shares of one pool of slots between companies, the one rule behind TRIMUS_COMPANY_MAX_CONCURRENT_RUNS (docker
 * runs), TRIMUS_COMPANY_MAX_CONCURRENT_LAMBDA_RUNS and TRIMUS_COMPANY_MAX_CONCURRENT_A2A_RUNS: one company's runs take
 * at most {@code share} places of the pool (running, or queued for a free slot) at a time; its further runs wait in
 * order in a queue of their own, so they never stand in front of another company's runs, and the next one takes the
 * place when one of the company's runs leaves the pool. Nothing is refused: a run over its share waits, still
 * DISPATCHED and cancellable.
 *
 * <p>Not thread-safe: its owner confines it ({@link RunPool} under a lock, the lambda caller on its event-loop
 * context).
 *
 * @param <W> the owner's unit of work
 */
public final class CompanyShares<W> {

    private static final Logger LOG = Logger.getLogger(CompanyShares.class);

    /** The key of runs whose request names no company: they share one share between them. */
    public static final String NO_COMPANY = "runs without a company";

    private final String knob;
    private final int share;
    /** Per key, its places taken in the pool now. */
    private final Map<Object, Integer> admitted = new HashMap<>();
    /** Per key, its work over the share, in order. */
    private final Map<Object, ArrayDeque<W>> waiting = new HashMap<>();

    /**
     * @param knob  the setting {@code share} comes from, named when it is below 1 and when a run waits
     * @param share places of the pool one key may take at a time
     */
    public CompanyShares(String knob, int share) {
        if (share < 1) {
            throw new IllegalArgumentException(knob + " must be at least 1, got " + share);
        }
        this.knob = knob;
        this.share = share;
    }

    /**
     * The share when the operator sets none: half the slots, rounded down, at least one, so two busy companies can
     * always both make progress and, in a pool of two or more slots, no one company ever holds every slot.
     */
    public static int defaultShare(int slots) {
        return Math.max(1, slots / 2);
    }

    /** The key a run's share is counted under: its company, or {@link #NO_COMPANY}. */
    public static Object key(UUID companyId) {
        return companyId == null ? NO_COMPANY : companyId;
    }

    public int share() {
        return share;
    }

    /** Warns, once at boot, when the share is no share at all: one company may then hold every one of the slots. */
    public void warnIfWhole(String slotsKnob, int slots) {
        if (share >= slots && slots > 1) {
            LOG.warnf("%s=%d is not below %s=%d: one company's runs may hold every slot and keep the others waiting",
                    knob, share, slotsKnob, slots);
        }
    }

    /**
     * Takes one of the key's places for the work (true), or queues the work behind the key's earlier waiting work
     * (false) when the key already holds its share.
     */
    public boolean admit(Object key, UUID runId, W work) {
        int taken = admitted.getOrDefault(key, 0);
        if (taken >= share) {
            waiting.computeIfAbsent(key, k -> new ArrayDeque<>()).add(work);
            LOG.infof("run %s waits: %d runs of %s already hold its share (%s=%d)", runId, taken, key, knob, share);
            return false;
        }
        admitted.put(key, taken + 1);
        return true;
    }

    /**
     * One of the key's runs left the pool: the key's next waiting work takes the place and is returned (the owner puts
     * it into the pool), or, when none waits, the place is given back and null is returned.
     */
    public W ended(Object key) {
        ArrayDeque<W> queue = waiting.get(key);
        W successor = queue == null ? null : queue.poll();
        if (queue != null && queue.isEmpty()) {
            waiting.remove(key);
        }
        if (successor == null) {
            admitted.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
        }
        return successor;
    }

    /** Takes waiting work that will never run (e.g. cancelled) out of its queue; false when none matched. */
    public boolean withdraw(Predicate<W> which) {
        boolean[] removed = {false};
        waiting.values().removeIf(queue -> {
            removed[0] |= queue.removeIf(which);
            return queue.isEmpty();
        });
        return removed[0];
    }

    /** Empties every queue (at shutdown) and returns the work that was waiting. */
    public List<W> clear() {
        List<W> dropped = new ArrayList<>();
        waiting.values().forEach(dropped::addAll);
        waiting.clear();
        return dropped;
    }
}
