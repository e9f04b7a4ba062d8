package io.trimus.commons.streams;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * How an open stream keeps asking whether its caller may still have it: every period, one check at a time (the next
 * period starts when the last check is done), and the stream completes at the first check that answers no, fails or
 * does not answer, since a new request would be refused then too; the client reconnects through the access check.
 * What was sent between a revocation and the next check is the price of checking every period rather than per event.
 */
public final class Recheck {
    private Recheck() {
    }

    /**
     * {@code stream} as long as {@code allowed} answers true every {@code every}; completes when {@code stream} does
     * or a check says no, and cancels {@code stream} then.
     */
    public static <T> Multi<T> whileAllowed(Multi<T> stream, Duration every, Supplier<Uni<Boolean>> allowed) {
        if (every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException("a re-check period must be positive, not " + every);
        }
        Multi<T> checks = Multi.createBy().repeating()
                .uni(() -> Uni.createFrom().voidItem().onItem().delayIt().by(every)
                        .chain(ignored -> Uni.createFrom().deferred(allowed::get))
                        .onFailure().recoverWithItem(Boolean.FALSE)
                        .map(yes -> {
                            if (!Boolean.TRUE.equals(yes)) {
                                throw new Stop();
                            }
                            return yes;
                        }))
                .indefinitely()
                .onItem().transformToMultiAndConcatenate(yes -> Multi.createFrom().<T>empty());
        // the checks never complete: the stream's own end stops them through the same failure
        return Multi.createBy().merging().streams(stream.onCompletion().failWith(Stop::new), checks)
                .onFailure(Stop.class).recoverWithCompletion();
    }

    /** Ends the merged stream without an error: a check said no, or the stream itself completed. */
    private static final class Stop extends RuntimeException {
        Stop() {
            super("the stream ends", null, false, false);
        }
    }
}
