package io.trimus.egress.sandbox.registration;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/**
 * This process's name among the egress-service replicas, written into the transaction of each registration change it
 * makes, so its own announcement of a change it already applied in memory is not applied a second time (late).
 */
@ApplicationScoped
public class ReplicaOrigin {
    /** The transaction-local setting the notification trigger reads. */
    static final String SETTING = "trimus.egress_replica";

    private final String id = UUID.randomUUID().toString();

    /** This process's replica id. */
    public String id() {
        return id;
    }
}
