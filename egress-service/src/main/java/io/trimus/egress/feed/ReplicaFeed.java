package io.trimus.egress.feed;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One replica's in-memory copy of some stored rows, kept following the database by a {@link ChangeFeed} of its own:
 * what every such copy offers (start, stop, whether it is live, a reload to wait for), written once for the sandbox
 * registrations and the egress policy alike. A subclass says how its copy is read, installed and changed: the
 * {@link ChangeFeed.Follower} steps, which the feed calls only once {@link #start} has run.
 *
 * @param <S> what a reload reads
 * @param <C> one announced change
 */
public abstract class ReplicaFeed<S, C> {
    private final ChangeFeed<S, C> feed;

    /**
     * A feed of {@code channel} on its own connection to {@code database}.
     *
     * @param what   what the copy holds, for the log ("sandbox registrations")
     * @param period how often the copy is asked whether it is current; positive
     */
    protected ReplicaFeed(Vertx vertx, PgConnectOptions database, String channel, String what, Duration period) {
        this.feed = new ChangeFeed<>(vertx, database, channel, what, new ChangeFeed.Follower<>() {
            @Override
            public Uni<S> readAll(PgConnection listening) {
                return ReplicaFeed.this.readAll(listening);
            }

            @Override
            public int install(S snapshot) {
                return ReplicaFeed.this.install(snapshot);
            }

            @Override
            public C parse(String payload) {
                return ReplicaFeed.this.parse(payload);
            }

            @Override
            public boolean apply(C change, boolean replayed) {
                return ReplicaFeed.this.apply(change, replayed);
            }

            @Override
            public Uni<Boolean> isCurrent(PgConnection listening) {
                return ReplicaFeed.this.confirmCurrent(listening);
            }
        }, period);
    }

    /** {@link ChangeFeed.Follower#readAll}. */
    protected abstract Uni<S> readAll(PgConnection listening);

    /** {@link ChangeFeed.Follower#install}. */
    protected abstract int install(S snapshot);

    /** {@link ChangeFeed.Follower#parse}. */
    protected abstract C parse(String payload);

    /** {@link ChangeFeed.Follower#apply}. */
    protected abstract boolean apply(C change, boolean replayed);

    /** {@link ChangeFeed.Follower#isCurrent}: by default the copy cannot tell, and every period reloads it. */
    protected Uni<Boolean> confirmCurrent(PgConnection listening) {
        return Uni.createFrom().item(false);
    }

    /**
     * Connects, listens and reads everything, retrying the connection until {@code timeout}; completes once the copy
     * is live. Asks the copy every period from then on.
     */
    public Uni<Void> start(Duration timeout) {
        return feed.start(timeout);
    }

    /** {@link #start} on the calling thread, for a service's start that must not go on without the copy. */
    public void startAndWait(Duration timeout) {
        start(timeout).await().atMost(timeout.plusSeconds(5));
    }

    /** Stops listening and asking. */
    public void stop() {
        feed.stop();
    }

    /**
     * True while the copy follows every change: its connection listens and a reload completed since it began to.
     * False while the connection is lost (the copy stays as it was, and misses what changes meanwhile).
     */
    public boolean isLive() {
        return feed.isLive();
    }

    /** True once the first reload after listening completed. */
    public boolean hasSynced() {
        return feed.hasSynced();
    }

    /** The backend process of the listening connection (for pg_terminate_backend in tests), or -1. */
    public int listenerProcessId() {
        return feed.listenerProcessId();
    }

    /**
     * Reloads everything; completes with the copy's count once a reload that began after this call is installed
     * (one in flight may have read before the call, so another follows it).
     */
    public CompletableFuture<Integer> reload() {
        return feed.reload();
    }

    /** {@link #reload} on the calling thread; throws what the reload failed with. */
    public int reloadAndWait(Duration timeout) throws Throwable {
        try {
            return reload().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }
}
