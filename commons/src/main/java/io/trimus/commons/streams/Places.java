package io.trimus.commons.streams;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Counted places per key (a credential, a company) with a ceiling: what bounds how many streams one key holds open
 * on this instance. A key whose last place is given back is forgotten, so keys that come and go (sessions, tokens)
 * leave nothing behind.
 *
 * @param <K> the key places are counted by
 */
public final class Places<K> {
    private final ConcurrentHashMap<K, Integer> taken = new ConcurrentHashMap<>();

    /** One more place of {@code key}, or empty when {@code key} already holds {@code max}. */
    public Optional<Place> take(K key, int max) {
        boolean[] granted = {false};
        taken.compute(key, (k, count) -> {
            int now = count == null ? 0 : count;
            if (now >= max) {
                return count;
            }
            granted[0] = true;
            return now + 1;
        });
        return granted[0] ? Optional.of(new Place(() -> release(key))) : Optional.empty();
    }

    /** How many places {@code key} holds now. */
    public int taken(K key) {
        return taken.getOrDefault(key, 0);
    }

    private void release(K key) {
        taken.computeIfPresent(key, (k, count) -> count <= 1 ? null : count - 1);
    }

    /** A place taken, given back once: later calls do nothing. */
    public static final class Place {
        private final Runnable release;
        private final AtomicBoolean given = new AtomicBoolean();

        private Place(Runnable release) {
            this.release = release;
        }

        /** A place that gives back this one and {@code other} together. */
        public Place and(Place other) {
            return new Place(() -> {
                giveBack();
                other.giveBack();
            });
        }

        /** Gives the place back; later calls do nothing. */
        public void giveBack() {
            if (given.compareAndSet(false, true)) {
                release.run();
            }
        }
    }
}
