package io.trimus.egress.sandbox.replica;

import io.smallrye.mutiny.Uni;
import io.trimus.egress.feed.ChangeFeed;
import io.trimus.egress.feed.ReplicaFeed;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.registration.RegisteredSandbox;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;

/**
 * Keeps one replica's {@link RegistryReplica} equal to the stored registrations while other replicas change them,
 * through a {@link ChangeFeed} ({@link ReplicaFeed}) on the changes the database announces (migration V11): each is
 * applied as it arrives, every row is reloaded when the listening connection is (re)established and every
 * {@code reconcile} period as a safety net. A change this replica made itself was applied by it already and is
 * skipped, unless it was held back during a reload (which may have read the row before it). Rows are read through the
 * service's pool; the masks of a masked run are fetched as its registration arrives.
 */
public final class RegistrationFeed extends ReplicaFeed<List<RegisteredSandbox>, RegistrationChange> {
    /** The notification channel of the registration changes. */
    public static final String CHANNEL = "egress_sandbox_registration";
    private static final Logger LOG = Logger.getLogger(RegistrationFeed.class);

    private final Vertx vertx;
    private final RegistryReplica replica;
    private final StoredRegistrations stored;
    private final String origin;

    /**
     * A feed for {@code replica}, reading through {@code stored}.
     *
     * @param origin    this replica's id: changes it made itself were applied by it already
     * @param reconcile how often everything is reloaded anyway
     */
    public RegistrationFeed(Vertx vertx, PgConnectOptions database, RegistryReplica replica,
                            StoredRegistrations stored, String origin, Duration reconcile) {
        super(vertx, database, CHANNEL, "sandbox registrations", positive(reconcile));
        this.vertx = vertx;
        this.replica = replica;
        this.stored = stored;
        this.origin = origin;
    }

    private static Duration positive(Duration reconcile) {
        if (reconcile.isNegative() || reconcile.isZero()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_SANDBOXES_RECONCILE_INTERVAL must be positive, got "
                    + reconcile);
        }
        return reconcile;
    }

    @Override
    protected Uni<List<RegisteredSandbox>> readAll(PgConnection listening) {
        return stored.all();
    }

    @Override
    protected int install(List<RegisteredSandbox> rows) {
        return replica.install(rows);
    }

    @Override
    protected RegistrationChange parse(String payload) {
        return RegistrationChange.parse(payload);
    }

    @Override
    protected boolean apply(RegistrationChange change, boolean replayed) {
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
