package io.trimus.commons.access;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.context.FreshContext;
import io.trimus.commons.streams.Places;
import io.trimus.commons.streams.StreamLease;
import io.trimus.commons.streams.StreamLeases;
import io.trimus.commons.streams.StreamLimits;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * What a long-lived answer of a REST service (an SSE stream, an A2A stream or blocking send) holds while it is open:
 * one of its credential's places ({@code trimus.streams.max-per-caller} on this instance), and a re-check every
 * {@code trimus.streams.recheck} that asks the service's {@link Credentials} again and applies {@link AccessFilter}'s
 * rule to the same level and company, so a revoked or expired credential, a removed membership or a lowered role ends
 * the stream as it would refuse a new request. Each service that indexes commons provides the {@link StreamLimits}.
 * The places and the re-check are commons' {@link StreamLeases}, the same as the dashboard's live feeds.
 */
@ApplicationScoped
public class StreamAccess {
    private final Credentials credentials;
    private final CurrentCaller current;
    private final StreamLimits limits;
    private final Vertx vertx;
    private final StreamLeases leases = new StreamLeases();

    StreamAccess(Credentials credentials, CurrentCaller current, StreamLimits limits, Vertx vertx) {
        this.credentials = credentials;
        this.current = current;
        this.limits = limits;
        this.vertx = vertx;
    }

    /**
     * The request's caller as AccessFilter admitted it, to hold streams beyond the request; call it while the request
     * is served. Fails for endpoints open to anyone or to the services: a stream needs a caller to ask again.
     */
    public Holder caller() {
        CurrentCaller.Admission admission = current.admission();
        if (admission == null) {
            throw new IllegalStateException("a stream needs a caller admitted by AccessFilter");
        }
        return new Holder(admission);
    }

    /** The request's caller's next stream: {@code caller().take()}. */
    public Lease open() {
        return caller().take();
    }

    /** A caller that may open streams after its request: its credential, level and company, as admitted. */
    public final class Holder {
        private final CurrentCaller.Admission admission;

        private Holder(CurrentCaller.Admission admission) {
            this.admission = admission;
        }

        /**
         * One of the credential's places; {@link io.trimus.commons.streams.TooManyStreams} when it holds the most it
         * may.
         */
        public Lease take() {
            return new Lease(this, leases.take(admission.credential(), limits));
        }

        private Uni<Boolean> stillAdmitted() {
            return FreshContext.run(vertx, () -> credentials.caller(admission.credential()))
                    .map(caller -> caller != null
                            && AccessFilter.admits(admission.level(), caller, admission.namedCompany()));
        }
    }

    /** A place held by one stream: given back when the guarded stream ends, or by {@link #giveBack()}. */
    public final class Lease {
        private final Holder holder;
        private final StreamLease lease;

        private Lease(Holder holder, StreamLease lease) {
            this.holder = holder;
            this.lease = lease;
        }

        /** This lease, also giving back {@code other} (e.g. a company's place) at its end. */
        public Lease and(Places.Place other) {
            return new Lease(holder, lease.and(other));
        }

        /**
         * {@code stream} while the caller stays admitted, re-checked every {@code trimus.streams.recheck}; completes
         * at the first check that says no (or cannot say), and gives the place back however it ends.
         */
        public <T> Multi<T> guard(Multi<T> stream) {
            return lease.guard(stream, holder::stillAdmitted);
        }

        /** Gives the place back (a stream that never started); later calls do nothing. */
        public void giveBack() {
            lease.giveBack();
        }
    }
}
