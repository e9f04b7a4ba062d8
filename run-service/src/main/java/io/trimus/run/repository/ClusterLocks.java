package io.trimus.run.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Jobs that one run-service replica at a time may do (the outbox relay, the sweeps): a PostgreSQL advisory lock held
 * until the current transaction ends, so a replica that dies lets go of it with its connection.
 */
@ApplicationScoped
public class ClusterLocks {

    /** A job that runs on one replica at a time. */
    public enum Job {
        OUTBOX_RELAY(0x7472_0001L),
        STALE_RUNS(0x7472_0002L),
        RUN_RECOVERY(0x7472_0003L);

        final long key;

        Job(long key) {
            this.key = key;
        }
    }

    /** Takes the job's lock for the current transaction; false when another replica holds it. Call in a transaction. */
    public Uni<Boolean> tryHold(Job job) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select pg_try_advisory_xact_lock(" + job.key + ")", Boolean.class)
                .getSingleResult());
    }
}
