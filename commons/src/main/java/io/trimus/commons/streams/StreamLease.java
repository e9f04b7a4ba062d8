package io.trimus.commons.streams;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * A place held by one stream ({@link StreamLeases#take}): given back when the guarded stream ends however it ends, or
 * by {@link #giveBack()} for a stream that never started.
 */
public final class StreamLease {
    private final Places.Place place;
    private final Duration recheck;

    StreamLease(Places.Place place, Duration recheck) {
        this.place = place;
        this.recheck = recheck;
    }

    /** This lease, also giving back {@code other} (e.g. a company's place) at its end. */
    public StreamLease and(Places.Place other) {
        return new StreamLease(place.and(other), recheck);
    }

    /**
     * {@code stream} while {@code stillAllowed} answers true, asked every {@code trimus.streams.recheck}
     * ({@link Recheck}); completes at the first check that says no (or cannot say), and gives the place back.
     */
    public <T> Multi<T> guard(Multi<T> stream, Supplier<Uni<Boolean>> stillAllowed) {
        return Recheck.whileAllowed(stream, recheck, stillAllowed).onTermination().invoke(place::giveBack);
    }

    /** Gives the place back; later calls do nothing. */
    public void giveBack() {
        place.giveBack();
    }
}
