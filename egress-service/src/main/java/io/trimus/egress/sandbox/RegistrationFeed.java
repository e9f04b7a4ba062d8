package io.trimus.egress.sandbox;

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
 * Keeps one replica's {@link RegistryReplica} equal to the stored registrations while other replicas change them: it
 * LISTENs on a connection of its own for the changes the database announces (migration V11) and applies each as it
 * arrives; whenever that connection is (re)established it reloads every row, since announcements sent while it was
 * away are lost, and it reloads every {@code reconcile} period as a safety net. Changes announced while a reload reads
 * are held back and applied, in order, on top of what it read, so a reload never puts back an older state.
 *
 * <p>Live (see {@link #isLive()}) once a reload completed after the current connection began listening: from then on
 * nothing committed is missed. A lost connection is retried at once, then every {@value #RECONNECT_FIRST_MS} ms
 * doubling up to {@value #RECONNECT_LONGEST_MS} ms, forever; meanwhile the replica keeps answering with what it knew.
 */
public final class RegistrationFeed {
    /** The notification channel of the registration changes. */
    public static final String CHANNEL = "egress_sandbox_registration";
    static final long RECONNECT_FIRST_MS = 250;
    static final long RECONNECT_LONGEST_MS = 5000;
    private static final Logger LOG = Logger.getLogger(RegistrationFeed.class);

    private final Vertx vertx;
    private final RegistryReplica replica;
    private final StoredRegistrations stored;
    private final String origin;
    private final Duration reconcile;
    private final PgSubscriber subscriber;
    private final CompletableFuture<Void> firstSync = new CompletableFuture<>();

    private volatile PgConnection listening;
    private volatile PgConnection synced;
    private long reconcileTimer = -1;
    // guarded by this: the reload in flight, changes held back meanwhile, and a reload asked for during it
    private CompletableFuture<Integer> running;
    private List<RegistrationChange> heldBack;
    private CompletableFuture<Integer> next;

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
        this.vertx = vertx;
        this.replica = replica;
        this.stored = stored;
        this.origin = origin;
        this.reconcile = reconcile;
        this.subscriber = PgSubscriber.subscriber(vertx, database)
                .reconnectPolicy(retries -> retries == 0 ? 0
                        : Math.min(RECONNECT_FIRST_MS << Math.min(retries - 1, 5), RECONNECT_LONGEST_MS));
        subscriber.channel(CHANNEL)
                .handler(this::onChange)
                .subscribeHandler(v -> onListening());
    }

    /**
     * Connects, listens and loads every registration, retrying the connection until {@code timeout}; completes once
     * the replica is live. Reloads every reconcile period from then on.
     */
    public Uni<Void> start(Duration timeout) {
        return Uni.createFrom().completionStage(() -> subscriber.connect().toCompletionStage())
                .onFailure().retry().withBackOff(Duration.ofMillis(RECONNECT_FIRST_MS),
                        Duration.ofMillis(RECONNECT_LONGEST_MS)).expireIn(System.currentTimeMillis()
                        + timeout.toMillis())
                .chain(() -> Uni.createFrom().completionStage(firstSync))
                .invoke(() -> {
                    synchronized (this) {
                        reconcileTimer = vertx.setPeriodic(reconcile.toMillis(), id -> reload()
                                .exceptionally(e -> null));
                    }
                });
    }

    /** Stops listening and reconciling. */
    public synchronized void stop() {
        if (reconcileTimer >= 0) {
            vertx.cancelTimer(reconcileTimer);
            reconcileTimer = -1;
        }
        subscriber.close();
    }

    /**
     * True while the replica follows every change: its connection listens and a reload completed since it began to.
     * False while the connection is lost (the replica answers from what it knew, and misses what changes meanwhile).
     */
    public boolean isLive() {
        PgConnection now = subscriber.actualConnection();
        return now != null && now == listening && now == synced;
    }

    /** True once the first load after listening completed: from then on the replica may answer for every sandbox. */
    public boolean hasSynced() {
        return firstSync.isDone() && !firstSync.isCompletedExceptionally();
    }

    /** The backend process of the listening connection (for pg_terminate_backend in tests), or -1. */
    public int listenerProcessId() {
        PgConnection now = subscriber.actualConnection();
        return now == null ? -1 : now.processId();
    }

    /**
     * Reloads every registration; completes with their number once a reload that began after this call is applied
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

    // --- guarded by this

    private void begin(CompletableFuture<Integer> done) {
        running = done;
        heldBack = new ArrayList<>();
        PgConnection on = listening;
        read(stored::all, rows -> finish(rows, on, done), failure -> failed(failure, done));
    }

    private synchronized void finish(List<RegisteredSandbox> rows, PgConnection on, CompletableFuture<Integer> done) {
        int count = replica.install(rows);
        List<RegistrationChange> replay = heldBack;
        heldBack = null;
        replay.forEach(this::applyNow);
        synced = on;
        LOG.debugf("Loaded %d sandbox registrations (%d changes announced meanwhile)", count, replay.size());
        if (on != null && on == subscriber.actualConnection()) {
            firstSync.complete(null);
        }
        done.complete(count);
        afterReload();
    }

    private synchronized void failed(Throwable failure, CompletableFuture<Integer> done) {
        List<RegistrationChange> replay = heldBack;
        heldBack = null;
        replay.forEach(this::applyNow);
        LOG.warnf("Could not reload the sandbox registrations (tried again at the next reconcile or reconnect): %s",
                failure.getMessage());
        done.completeExceptionally(failure);
        afterReload();
        if (!firstSync.isDone()) {
            // start waits for a first load: try again soon rather than at the first reconcile
            vertx.setTimer(RECONNECT_LONGEST_MS, id -> reload());
        }
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
        RegistrationChange change;
        try {
            change = RegistrationChange.parse(payload);
        } catch (IllegalArgumentException e) {
            LOG.warnf("An unreadable sandbox registration change was announced (%s): reloading them all",
                    e.getMessage());
            reload();
            return;
        }
        if (heldBack != null) {
            heldBack.add(change);
        } else if (!origin.equals(change.origin())) {
            applyNow(change);
        }
    }

    private void applyNow(RegistrationChange change) {
        if (replica.apply(change)) {
            Sandbox sandbox = change.sandbox();
            read(() -> stored.held(sandbox.ip(), sandbox.runId()), replica::open, failure -> LOG.warnf("Could not"
                    + " read the masks of run %s at sandbox %s (its connections are refused until the next reload):"
                    + " %s", sandbox.runId(), sandbox.ip(), failure.getMessage()));
        }
    }

    /** Runs {@code work} on a new duplicated context (Hibernate Reactive needs one; callers may be event loops). */
    private <T> void read(Supplier<Uni<T>> work, Consumer<T> done, Consumer<Throwable> failed) {
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(v -> work.get().subscribe().with(done, failed));
    }

    private void onListening() {
        PgConnection now = subscriber.actualConnection();
        boolean again = listening != null;
        listening = now;
        if (again) {
            LOG.infof("Listening to sandbox registration changes again: reloading them all, changes made meanwhile"
                    + " were not announced to this replica");
        }
        reload();
    }
}
