package io.trimus.run.service.identity.password;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A few slots shared fairly by whoever asks: a caller gets a slot when one is free, else waits its turn, and turns go
 * round-robin over the peers (network sources) that wait, then over the claims (what a peer says it forwards for) of
 * that peer, first come first served within one claim. So one source flooding requests gets one turn in as many as
 * there are sources waiting, and claiming many clients only splits its own share. At most {@code maxWaiting} wait:
 * when full, a newcomer pushes out the newest waiter of the source with the most waiting, if that holds more than the
 * newcomer's own source would; otherwise the newcomer is refused. Pure, thread-safe; callbacks run outside its lock.
 */
final class FairShares {
    private final int slots;
    private final int maxWaiting;
    private final LinkedHashMap<String, Peer> peers = new LinkedHashMap<>();
    private int running;
    private int waiting;

    FairShares(int slots, int maxWaiting) {
        if (slots < 1 || maxWaiting < 0) {
            throw new IllegalArgumentException("slots must be at least 1 and maxWaiting at least 0");
        }
        this.slots = slots;
        this.maxWaiting = maxWaiting;
    }

    /** Someone who waits: {@code grant} runs when it gets its slot, {@code refuse} when it is pushed out. */
    record Waiter(Runnable grant, Runnable refuse) {
    }

    /**
     * Asks for a slot for {@code peer} claiming {@code claim}: {@code grant} runs once it has one (at once, or when its
     * turn comes), {@code refuse} if it is refused or pushed out. Exactly one of the two runs, once. A granted slot is
     * given back with {@link #release}.
     */
    void ask(String peer, String claim, Runnable grant, Runnable refuse) {
        List<Runnable> then = new ArrayList<>(1);
        synchronized (this) {
            if (running < slots) {
                running++;
                then.add(grant);
            } else if (waiting < maxWaiting || pushOutFor(peer, claim, then)) {
                peers.computeIfAbsent(peer, p -> new Peer()).add(claim, new Waiter(grant, refuse));
                waiting++;
            } else {
                then.add(refuse);
            }
        }
        then.forEach(Runnable::run);
    }

    /** Gives a granted slot back; the next waiter in turn gets it. */
    void release() {
        Runnable next = null;
        synchronized (this) {
            running--;
            Iterator<Map.Entry<String, Peer>> first = peers.entrySet().iterator();
            if (first.hasNext()) {
                Map.Entry<String, Peer> entry = first.next();
                first.remove();
                next = entry.getValue().next().grant();
                if (entry.getValue().size > 0) {
                    peers.put(entry.getKey(), entry.getValue());   // to the back of the round
                }
                waiting--;
                running++;
            }
        }
        if (next != null) {
            next.run();
        }
    }

    /** Slots in use and callers waiting, for tests and metrics. */
    synchronized int[] load() {
        return new int[]{running, waiting};
    }

    /** Makes room for a newcomer by refusing the newest waiter of the longest queue, if that is longer than its own. */
    private boolean pushOutFor(String peer, String claim, List<Runnable> then) {
        if (maxWaiting == 0) {
            return false;
        }
        Map.Entry<String, Peer> longest = null;
        for (Map.Entry<String, Peer> entry : peers.entrySet()) {
            if (longest == null || entry.getValue().size > longest.getValue().size) {
                longest = entry;
            }
        }
        Peer own = peers.get(peer);
        Waiter dropped;
        if (longest.getKey().equals(peer)) {
            String longestClaim = own.longestClaim();
            if (own.sizeOf(claim) + 1 >= own.sizeOf(longestClaim)) {
                return false;
            }
            dropped = own.dropNewest(longestClaim);
        } else {
            if ((own == null ? 0 : own.size) + 1 >= longest.getValue().size) {
                return false;
            }
            Peer victim = longest.getValue();
            dropped = victim.dropNewest(victim.longestClaim());
            if (victim.size == 0) {
                peers.remove(longest.getKey());
            }
        }
        waiting--;
        then.add(dropped.refuse());
        return true;
    }

    /** The waiters of one peer, by claim, in round-robin order. */
    private static final class Peer {
        private final LinkedHashMap<String, ArrayDeque<Waiter>> claims = new LinkedHashMap<>();
        private int size;

        void add(String claim, Waiter waiter) {
            claims.computeIfAbsent(claim, c -> new ArrayDeque<>()).addLast(waiter);
            size++;
        }

        Waiter next() {
            Iterator<Map.Entry<String, ArrayDeque<Waiter>>> first = claims.entrySet().iterator();
            Map.Entry<String, ArrayDeque<Waiter>> entry = first.next();
            first.remove();
            Waiter waiter = entry.getValue().pollFirst();
            if (!entry.getValue().isEmpty()) {
                claims.put(entry.getKey(), entry.getValue());
            }
            size--;
            return waiter;
        }

        int sizeOf(String claim) {
            ArrayDeque<Waiter> queue = claims.get(claim);
            return queue == null ? 0 : queue.size();
        }

        String longestClaim() {
            String longest = null;
            for (Map.Entry<String, ArrayDeque<Waiter>> entry : claims.entrySet()) {
                if (longest == null || entry.getValue().size() > claims.get(longest).size()) {
                    longest = entry.getKey();
                }
            }
            return longest;
        }

        Waiter dropNewest(String claim) {
            ArrayDeque<Waiter> queue = claims.get(claim);
            Waiter waiter = queue.pollLast();
            if (queue.isEmpty()) {
                claims.remove(claim);
            }
            size--;
            return waiter;
        }
    }
}
