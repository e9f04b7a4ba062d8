package io.trimus.egress.sandbox;

import io.smallrye.mutiny.Uni;
import io.trimus.egress.feed.ChangeFeed;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps one replica's {@link RegistryReplica} equal to the stored registrations while other replicas change them,
 * through a {@link ChangeFeed} on the changes the database announces (migration V11): each is applied as it arrives,
 * every row is reloaded when the listening connection is (re)established and every {@code reconcile} period as a
 * safety net. A change this replica made itself was applied by it already and is skipped, unless it was held back
 * during a reload (which may have read the row before it).
 */
public final class RegistrationFeed {
    /** The notification channel of the registration changes. */
    public static final String CHANNEL = "egress_sandbox_registration";
    private static final Logger LOG = Logger.getLogger(RegistrationFeed.class);

    private final ChangeFeed<List<RegisteredSandbox>, RegistrationChange> feed;

    /**
     * A feed for {@code replica}, reading through {@code stored}.
     *
     * @param origin    this replica's id: changes it made itself were applied by it already
     * @param reconcile how often everything is reloaded anyway
     */
    public RegistrationFeed(Vertx vertx, PgConnectOptions database, RegistryReplica replica,
                            StoredRegistrations stored, String origin, Duration reconcile) {
        if (reconcile.isNegative() || reconcile.isZero()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_SANDBOXES_RECONCILE_INTERVAL must be positive, got "
                    + reconcile);
        }
        this.feed = new ChangeFeed<>(vertx, database, CHANNEL, "sandbox registrations",
                new Follower(vertx, replica, stored, origin), reconcile);
    }

    /**
     * Connects, listens and loads every registration, retrying the connection until {@code timeout}; completes once
     * the replica is live. Reloads every reconcile period from then on.
     */
    public Uni<Void> start(Duration timeout) {
        return feed.start(timeout);
    }

    /** Stops listening and reconciling. */
    public void stop() {
        feed.stop();
    }

    /**
     * True while the replica follows every change: its connection listens and a reload completed since it began to.
     * False while the connection is lost (the replica answers from what it knew, and misses what changes meanwhile).
     */
    public boolean isLive() {
        return feed.isLive();
    }

    /** True once the first load after listening completed: from then on the replica may answer for every sandbox. */
    public boolean hasSynced() {
        return feed.hasSynced();
    }

    /** The backend process of the listening connection (for pg_terminate_backend in tests), or -1. */
    public int listenerProcessId() {
        return feed.listenerProcessId();
    }

    /**
     * Reloads every registration; completes with their number once a reload that began after this call is applied
     * (one in flight may have read before the call, so another follows it).
     */
    public CompletableFuture<Integer> reload() {
        return feed.reload();
    }

    /** Reads through the service's pool, applies changes one by one, fetching the masks of masked runs. */
    private record Follower(Vertx vertx, RegistryReplica replica, StoredRegistrations stored, String origin)
            implements ChangeFeed.Follower<List<RegisteredSandbox>, RegistrationChange> {

        @Override
        public Uni<List<RegisteredSandbox>> readAll(PgConnection listening) {
            return stored.all();
        }

        @Override
        public int install(List<RegisteredSandbox> rows) {
            return replica.install(rows);
        }

        @Override
        public RegistrationChange parse(String payload) {
            return RegistrationChange.parse(payload);
        }

        @Override
        public boolean apply(RegistrationChange change, boolean replayed) {
            if (!replayed && origin.equals(change.origin())) {
                return true;
            }
            if (replica.apply(change)) {
                Sandbox sandbox = change.sandbox();
                ChangeFeed.onNewContext(vertx, () -> stored.held(sandbox.ip(), sandbox.runId()), replica::open,
                        failure -> LOG.warnf("Could not read the masks of run %s at sandbox %s (its connections are"
                                + " refused until the next reload): %s", sandbox.runId(), sandbox.ip(),
                                failure.getMessage()));
            }
            return true;
        }
    }
}
