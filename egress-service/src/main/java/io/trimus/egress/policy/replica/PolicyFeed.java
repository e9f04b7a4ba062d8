package io.trimus.egress.policy.replica;

import io.smallrye.mutiny.Uni;
import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.feed.ReplicaFeed;
import io.trimus.egress.policy.EgressModeCache;
import io.trimus.egress.policy.PolicyCurrency;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Keeps one replica's egress policy, every company's allowlist ({@link AllowlistCache}) and mode
 * ({@link EgressModeCache}) and every agent's own list ({@link AgentAllowlistCache}), equal to the stored one while other replicas change it, and says whether it can vouch for
 * that ({@link PolicyCurrency}).
 *
 * <p>Its {@link io.trimus.egress.feed.ChangeFeed} ({@link ReplicaFeed}) listens on channel {@value #CHANNEL} (migration
 * V12): any announcement, and every (re)connection, makes the replica read what changed, in one snapshot with the
 * policy revision it reflects. Every {@code check} period it reads that revision again on the same connection: equal to
 * the one it holds confirms its copy current as of the moment it asked; another one (an announcement lost on a
 * connection that looked fine) makes it read what changed. The copy counts as current for {@code staleAfter} after its
 * last confirmation; past that (the database cannot be reached, or a read does not answer within {@code staleAfter},
 * which also drops the connection so it is made again) the resolver and the proxy refuse to decide by it, so a host
 * removed or a switch to enforce on another replica never stays open here. It is logged when that starts and ends.
 */
public final class PolicyFeed extends ReplicaFeed<PolicyFeed.Read, String> implements PolicyCurrency {
    /** The notification channel of the policy changes. */
    public static final String CHANNEL = "egress_policy";
    private static final Logger LOG = Logger.getLogger(PolicyFeed.class);

    private final AllowlistCache allowlists;
    private final AgentAllowlistCache agentAllowlists;
    private final EgressModeCache modes;
    private final long staleAfterNanos;
    private final LongSupplier clock;

    // the nanoTime until which the copy counts as current; behind the clock until the first confirmation
    private volatile long currentUntil;
    // guarded by this: the policy revision the copy holds at least, and whether it was reported stale
    private long installed = -1;
    private boolean reportedStale;

    /**
     * A feed for {@code allowlists} and {@code modes} over its own connection to {@code database}.
     *
     * @param check      how often the policy revision is read; positive
     * @param staleAfter how long the copy counts as current after its last confirmation; longer than {@code check}
     */
    public PolicyFeed(Vertx vertx, PgConnectOptions database, AllowlistCache allowlists, EgressModeCache modes,
                      Duration check, Duration staleAfter) {
        this(vertx, database, allowlists, new AgentAllowlistCache(), modes, check, staleAfter);
    }

    /**
     * A feed for {@code allowlists}, agents' own lists ({@code agentAllowlists}) and {@code modes} over its own
     * connection to {@code database}.
     *
     * @param check      how often the policy revision is read; positive
     * @param staleAfter how long the copy counts as current after its last confirmation; longer than {@code check}
     */
    public PolicyFeed(Vertx vertx, PgConnectOptions database, AllowlistCache allowlists,
                      AgentAllowlistCache agentAllowlists, EgressModeCache modes, Duration check,
                      Duration staleAfter) {
        super(vertx, database, CHANNEL, "egress policy", validated(check, staleAfter));
        this.allowlists = allowlists;
        this.agentAllowlists = agentAllowlists;
        this.modes = modes;
        this.staleAfterNanos = staleAfter.toNanos();
        this.clock = System::nanoTime;
        this.currentUntil = clock.getAsLong() - 1;
    }

    /** {@code check}, once it and {@code staleAfter} are found sound. */
    private static Duration validated(Duration check, Duration staleAfter) {
        if (check.isNegative() || check.isZero()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_POLICY_CHECK_INTERVAL must be positive, got " + check);
        }
        if (staleAfter.compareTo(check) <= 0) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_POLICY_STALE_AFTER (" + staleAfter + ") must be longer"
                    + " than TRIMUS_EGRESS_POLICY_CHECK_INTERVAL (" + check + "), or every replica would refuse"
                    + " between two checks");
        }
        return check;
    }

    @Override
    public boolean isCurrent() {
        return clock.getAsLong() - currentUntil < 0;
    }

    /** Confirms the copy current as of {@code askedAt}: it holds every change committed before that. */
    private synchronized void confirm(long askedAt) {
        long until = askedAt + staleAfterNanos;
        if (until - currentUntil > 0) {
            currentUntil = until;
        }
        if (reportedStale && isCurrent()) {
            reportedStale = false;
            LOG.infof("The egress policy of this replica is current again (revision %d): the resolver and the proxy"
                    + " decide again", installed);
        }
    }

    private synchronized void noteStaleness() {
        if (!reportedStale && hasSynced() && !isCurrent()) {
            reportedStale = true;
            LOG.warnf("This replica could not confirm its egress policy current for %d ms (the database does not"
                    + " answer on its policy connection): the resolver and the proxy refuse sandboxes' requests"
                    + " (policy_stale) until it can", TimeUnit.NANOSECONDS.toMillis(staleAfterNanos));
        }
    }

    private synchronized long installed() {
        return installed;
    }

    /** What one read found, and when it was asked. */
    record Read(StoredPolicy.Changes changes, long askedAt) {
    }

    // the copy reads through the feed's own connection; any announcement makes it read what changed

    @Override
    protected Uni<Read> readAll(PgConnection listening) {
        long askedAt = clock.getAsLong();
        return answered(listening, on -> StoredPolicy.changes(on, allowlists::holds, agentAllowlists::holds))
                .map(changes -> new Read(changes, askedAt));
    }

    @Override
    protected int install(Read read) {
        StoredPolicy.Changes changes = read.changes();
        changes.modes().forEach((company, mode) -> modes.replace(company, mode.mode(), mode.revision()));
        changes.lists().forEach((company, list) -> allowlists.replace(company, list.entries(), list.revision()));
        changes.agentLists().forEach((agent, list) -> agentAllowlists.replace(agent.companyId(), agent.agentId(),
                list.entries(), list.revision()));
        synchronized (this) {
            installed = Math.max(installed, changes.revision());
        }
        confirm(read.askedAt());
        return changes.lists().size() + changes.agentLists().size();
    }

    @Override
    protected String parse(String payload) {
        return payload;
    }

    @Override
    protected boolean apply(String table, boolean replayed) {
        return false;
    }

    @Override
    protected Uni<Boolean> confirmCurrent(PgConnection listening) {
        noteStaleness();
        long askedAt = clock.getAsLong();
        return answered(listening, StoredPolicy::revision).map(revision -> {
            if (revision > installed()) {
                return false;
            }
            confirm(askedAt);
            return true;
        });
    }

    /**
     * {@code read} on the listening connection, failed when there is none, and when it does not answer within
     * the stale period: then the connection is presumed dead and closed, so the feed makes a new one.
     */
    private <T> Uni<T> answered(PgConnection listening, java.util.function.Function<PgConnection, Future<T>> read) {
        if (listening == null) {
            return Uni.createFrom().failure(new IllegalStateException("no connection to the database"));
        }
        return Uni.createFrom().completionStage(() -> read.apply(listening).toCompletionStage())
                .ifNoItem().after(Duration.ofNanos(staleAfterNanos)).failWith(() -> {
                    listening.close();
                    return new IllegalStateException("the policy connection did not answer within "
                            + Duration.ofNanos(staleAfterNanos) + ": closed, connecting again");
                });
    }
}
