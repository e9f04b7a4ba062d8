package io.trimus.egress.feed;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.pubsub.PgSubscriber;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Keeps one replica's in-memory copy of some stored rows equal to the database while other replicas change them: it
 * LISTENs on a connection of its own on one channel, whose notifications a trigger sends in the transaction that
 * changes the rows (so they arrive when the change commits, never for one rolled back), and hands each to its
 * {@link Follower}; whenever that connection is (re)established it reloads everything, since notifications sent while
 * it was away are lost; and every {@code period} it asks the follower whether its copy is still current, reloading
 * when it is not. Changes announced while a reload reads are held back and handed over, in order, on top of what it
 * read, so a reload never puts back an older state.
 *
 * <p>Live (see {@link #isLive()}) once a reload completed after the current connection began listening: from then on
 * nothing committed is missed. A lost connection is retried at once, then every {@value #RECONNECT_FIRST_MS} ms
 * doubling up to {@value #RECONNECT_LONGEST_MS} ms, forever; meanwhile the replica keeps what it knew.
 *
 * @param <S> what a reload reads
 * @param <C> one announced change
 */
public final class ChangeFeed<S, C> {
    /** The first pause before reconnecting after a failed try (the first try is at once). */
    public static final long RECONNECT_FIRST_MS = 250;
    /** The longest pause between tries to reconnect. */
    public static final long RECONNECT_LONGEST_MS = 5000;
    private static final Logger LOG = Logger.getLogger(ChangeFeed.class);

    /** What one in-memory copy does with what its feed reads and hears. */
    public interface Follower<S, C> {
        /**
         * Reads everything stored. {@code listening} is the feed's own connection (null while it has none), for a
         * follower that reads through it; others read through the service's pool.
         */
        Uni<S> readAll(PgConnection listening);

        /** Makes {@code snapshot} the in-memory copy; returns how many rows it holds, for the log. */
        int install(S snapshot);

        /** The change a notification's payload announces; IllegalArgumentException when unreadable (reloads all). */
        C parse(String payload);

        /**
         * Applies one announced change.
         *
         * @param replayed the change was held back while a reload read, and comes now on top of what it read (it may
         *                 be one this replica made and applied before the reload put an older copy back)
         * @return false when only a reload can apply it
         */
        boolean apply(C change, boolean replayed);

        /**
         * Whether the in-memory copy still holds everything stored, asked every period (never while a reload runs);
         * false reloads everything, and so does the default, which suits a follower that cannot tell.
         */
        default Uni<Boolean> isCurrent(PgConnection listening) {
            return Uni.createFrom().item(false);
        }
    }

    private final Vertx vertx;
    private final String channel;
    private final String what;
    private final Follower<S, C> follower;
    private final Duration period;
    private final PgSubscriber subscriber;
    private final CompletableFuture<Void> firstSync = new CompletableFuture<>();

    private volatile PgConnection listening;
    private volatile PgConnection synced;
    private long periodTimer = -1;
    // guarded by this: the reload in flight, changes held back meanwhile, and a reload asked for during it
    private CompletableFuture<Integer> running;
    private List<C> heldBack;
    private CompletableFuture<Integer> next;

    /**
     * A feed of {@code channel} for {@code follower}, on its own connection to {@code database}.
     *
     * @param what   what the follower holds, for the log ("sandbox registrations")
     * @param period how often the follower is asked whether it is current; positive
     */
    public ChangeFeed(Vertx vertx, PgConnectOptions database, String channel, String what, Follower<S, C> follower,
                      Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("the period of the " + what + " feed must be positive, got " + period);
        }
        this.vertx = vertx;
        this.channel = channel;
        this.what = what;
        this.follower = follower;
        this.period = period;
        this.subscriber = PgSubscriber.subscriber(vertx, database)
                .reconnectPolicy(retries -> retries == 0 ? 0
                        : Math.min(RECONNECT_FIRST_MS << Math.min(retries - 1, 5), RECONNECT_LONGEST_MS));
        subscriber.channel(channel)
                .handler(this::onChange)
                .subscribeHandler(v -> onListening());
    }

    /**
     * Connects, listens and reads everything, retrying the connection until {@code timeout}; completes once the copy
     * is live. Asks the follower every period from then on.
     */
    public Uni<Void> start(Duration timeout) {
        return Uni.createFrom().completionStage(() -> subscriber.connect().toCompletionStage())
                .onFailure().retry().withBackOff(Duration.ofMillis(RECONNECT_FIRST_MS),
                        Duration.ofMillis(RECONNECT_LONGEST_MS)).expireIn(System.currentTimeMillis()
                        + timeout.toMillis())
                .chain(() -> Uni.createFrom().completionStage(firstSync))
                .invoke(() -> {
                    synchronized (this) {
                        periodTimer = vertx.setPeriodic(period.toMillis(), id -> tick());
                    }
                });
    }

    /** Stops listening and asking. */
    public synchronized void stop() {
        if (periodTimer >= 0) {
            vertx.cancelTimer(periodTimer);
            periodTimer = -1;
        }
        subscriber.close();
    }

    /**
     * True while the copy follows every change: its connection listens and a reload completed since it began to.
     * False while the connection is lost (the copy stays as it was, and misses what changes meanwhile).
     */
    public boolean isLive() {
        PgConnection now = subscriber.actualConnection();
        return now != null && now == listening && now == synced;
    }

    /** True once the first reload after listening completed. */
    public boolean hasSynced() {
        return firstSync.isDone() && !firstSync.isCompletedExceptionally();
    }

    /** The backend process of the listening connection (for pg_terminate_backend in tests), or -1. */
    public int listenerProcessId() {
        PgConnection now = subscriber.actualConnection();
        return now == null ? -1 : now.processId();
    }

    /**
     * Reloads everything; completes with the follower's count once a reload that began after this call is installed
     * (one in flight may have read before the call, so another follows it).
     */
    public synchronized CompletableFuture<Integer> reload() {
        if (running != null) {
            if (next == null) {
                next = new CompletableFuture<>();
            }
            return next;
        }
        CompletableFuture<Integer> done = new CompletableFuture<>();
        begin(done);
        return done;
    }

    /** Runs {@code work} on a new duplicated context (Hibernate Reactive needs one; callers may be event loops). */
    public static <T> void onNewContext(Vertx vertx, Supplier<Uni<T>> work, Consumer<T> done,
                                        Consumer<Throwable> failed) {
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(v -> {
            Uni<T> uni;
            try {
                uni = work.get();
            } catch (RuntimeException e) {
                failed.accept(e);
                return;
            }
            uni.subscribe().with(done, failed);
        });
    }

    // --- guarded by this

    private void begin(CompletableFuture<Integer> done) {
        running = done;
        heldBack = new ArrayList<>();
        PgConnection on = listening;
        onNewContext(vertx, () -> follower.readAll(subscriber.actualConnection()),
                snapshot -> finish(snapshot, on, done), failure -> failed(failure, done));
    }

    private synchronized void finish(S snapshot, PgConnection on, CompletableFuture<Integer> done) {
        int count = follower.install(snapshot);
        int replayed = replayHeldBack();
        synced = on;
        LOG.debugf("Loaded %d %s (%d changes announced meanwhile)", (Object) count, what, replayed);
        if (on != null && on == subscriber.actualConnection()) {
            firstSync.complete(null);
        }
        done.complete(count);
        afterReload();
    }

    private synchronized void failed(Throwable failure, CompletableFuture<Integer> done) {
        replayHeldBack();
        LOG.warnf("Could not reload the %s (tried again at the next check or reconnect): %s", what,
                failure.getMessage());
        done.completeExceptionally(failure);
        afterReload();
        if (!firstSync.isDone()) {
            // start waits for a first load: try again soon rather than at the first period
            vertx.setTimer(RECONNECT_LONGEST_MS, id -> reload());
        }
    }

    /** Hands the changes held back to the follower, in order; queues another reload if one needs it. */
    private int replayHeldBack() {
        List<C> replay = heldBack;
        heldBack = null;
        boolean again = false;
        for (C change : replay) {
            again |= !follower.apply(change, true);
        }
        if (again && next == null) {
            next = new CompletableFuture<>();
        }
        return replay.size();
    }

    private void afterReload() {
        running = null;
        CompletableFuture<Integer> queued = next;
        next = null;
        if (queued != null) {
            begin(queued);
        }
    }

    private synchronized void onChange(String payload) {
        C change;
        try {
            change = follower.parse(payload);
        } catch (IllegalArgumentException e) {
            LOG.warnf("An unreadable change of the %s was announced (%s): reloading them all", what, e.getMessage());
            reload();
            return;
        }
        if (heldBack != null) {
            heldBack.add(change);
        } else if (!follower.apply(change, false)) {
            reload();
        }
    }

    private void tick() {
        synchronized (this) {
            if (running != null) {
                return;
            }
        }
        PgConnection on = subscriber.actualConnection();
        onNewContext(vertx, () -> follower.isCurrent(on), current -> {
            if (!current) {
                reload();
            }
        }, failure -> LOG.debugf("Could not check whether the %s are current: %s", what, failure.getMessage()));
    }

    private void onListening() {
        PgConnection now = subscriber.actualConnection();
        boolean again = listening != null;
        listening = now;
        if (again) {
            LOG.infof("Listening to changes of the %s again: reloading them all, changes made meanwhile were not"
                    + " announced to this replica", what);
        }
        reload();
    }
}
