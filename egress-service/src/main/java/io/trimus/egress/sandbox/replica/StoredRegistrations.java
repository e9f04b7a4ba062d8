package io.trimus.egress.sandbox.replica;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.egress.sandbox.registration.RegisteredSandbox;
import io.trimus.egress.sandbox.registration.SandboxRegistrationRepository;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/** What a replica reads of the stored registrations to follow them: every company's, as Trimus's own work. */
@ApplicationScoped
public class StoredRegistrations {
    private final SandboxRegistrationRepository registrations;

    StoredRegistrations(SandboxRegistrationRepository registrations) {
        this.registrations = registrations;
    }

    /** Every stored registration, with the sealed masks of masked runs. */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<List<RegisteredSandbox>> all() {
        return registrations.all();
    }

    /** The registration {@code runId} holds at {@code ip}, or null. */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<RegisteredSandbox> held(String ip, UUID runId) {
        return registrations.held(ip, runId);
    }
}
