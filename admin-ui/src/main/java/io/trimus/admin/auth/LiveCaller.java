package io.trimus.admin.auth;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.trimus.admin.client.BackendException;
import io.trimus.events.auth.Caller;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The caller of one open live feed, kept current: every period it asks run-service again ({@code GET /api/me}, the
 * same call as every page), one call at a time and never more often. Filters read {@link #current()}, so a company the
 * caller lost stops sending its events at the next check; {@link #ending()} fails with {@link Ended} once the
 * credential is revoked or expired, or the feed's condition (e.g. still an operator) no longer holds.
 */
public final class LiveCaller {
    private static final Logger LOG = Logger.getLogger(LiveCaller.class);

    private final AtomicReference<Caller> current;
    private final Predicate<Caller> allowed;
    private final Duration every;
    private final Supplier<Caller> me;

    LiveCaller(Caller caller, Predicate<Caller> allowed, Duration every, Supplier<Caller> me) {
        this.current = new AtomicReference<>(caller);
        this.allowed = allowed;
        this.every = every;
        this.me = me;
    }

    /** The caller as run-service last described it. */
    public Caller current() {
        return current.get();
    }

    /** A stream without items that runs the checks while subscribed and fails with {@link Ended} when one says so. */
    public <T> Multi<T> ending() {
        // repeating subscribes to the next check only after the last one is done: one in flight, one per period
        return Multi.createBy().repeating()
                .uni(() -> Uni.createFrom().item(Boolean.TRUE).onItem().delayIt().by(every)
                        .emitOn(Infrastructure.getDefaultWorkerPool()) // the REST call blocks
                        .map(tick -> recheck()))
                .indefinitely()
                .onItem().transformToMultiAndConcatenate(caller -> Multi.createFrom().empty());
    }

    private Caller recheck() {
        Caller caller;
        try {
            caller = me.get();
        } catch (BackendException e) {
            if (e.kind() == BackendException.Kind.UNAUTHENTICATED) {
                throw new Ended();
            }
            // run-service not answering is no verdict on the credential: keep the last answer until the next check
            LOG.debugf("Live feed re-check failed: %s", e.getMessage());
            return current.get();
        }
        if (!allowed.test(caller)) {
            throw new Ended();
        }
        current.set(caller);
        return caller;
    }

    /** Why a live feed ends early: its credential or its caller's role no longer allows it. */
    public static final class Ended extends RuntimeException {
        Ended() {
            super("the live feed's caller is no longer allowed", null, false, false);
        }
    }
}
