package io.trimus.admin.auth;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.trimus.admin.client.BackendException;
import io.trimus.commons.streams.StreamLease;
import io.trimus.events.auth.Caller;
import org.jboss.logging.Logger;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The caller of one open live feed, kept current: every period it asks run-service again ({@code GET /api/me}, the
 * same call as every page) by commons' {@link io.trimus.commons.streams.Recheck} rule, one call at a time. Filters
 * read {@link #current()}, so a company the caller lost stops sending its events at the next check;
 * {@link #whileAllowed} ends the feed once the credential is revoked or expired, the feed's condition (e.g. still an
 * operator) no longer holds, or run-service cannot say (as a new page would not be served then either), and gives
 * back the feed's place of its credential (commons' {@link StreamLease}, as the backends' streams hold theirs).
 */
public final class LiveCaller {
    private static final Logger LOG = Logger.getLogger(LiveCaller.class);

    private final AtomicReference<Caller> current;
    private final Predicate<Caller> allowed;
    private final Supplier<Caller> me;
    private final StreamLease lease;

    LiveCaller(Caller caller, Predicate<Caller> allowed, Supplier<Caller> me, StreamLease lease) {
        this.current = new AtomicReference<>(caller);
        this.allowed = allowed;
        this.me = me;
        this.lease = lease;
    }

    /** The caller as run-service last described it. */
    public Caller current() {
        return current.get();
    }

    /** {@code feed} while the caller stays allowed; completes at the first check that says no, then or at any end
     * gives the place back. */
    public <T> Multi<T> whileAllowed(Multi<T> feed) {
        return lease.guard(feed, () -> Uni.createFrom().item(this::recheck)
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())); // the REST call blocks
    }

    private boolean recheck() {
        Caller caller;
        try {
            caller = me.get();
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.UNAUTHENTICATED) {
                LOG.debugf("Live feed re-check failed, the feed ends: %s", e.getMessage());
            }
            return false;
        }
        if (!allowed.test(caller)) {
            return false;
        }
        current.set(caller);
        return true;
    }
}
