package io.trimus.admin.client;

import io.trimus.admin.client.EgressServiceApi.Canary;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/**
 * A company's egress canaries as egress-service keeps them: the latest with its history, and "run one now". Who may
 * do which is egress-service's to decide (any role reads, admins and operators run); its refusals come back as
 * {@link BackendException}s with their sentence.
 */
@ApplicationScoped
public class EgressCanaries {
    private final Backends backends;
    private final EgressServiceApi egress;

    EgressCanaries(Backends backends, EgressServiceApi egress) {
        this.backends = backends;
        this.egress = egress;
    }

    /** The company's latest canary and up to 20 earlier ones; status {@code none} when it never had one. */
    public Canary latest(UUID companyId) {
        return backends.call(Backend.EGRESS_SERVICE, auth -> egress.canary(auth, companyId));
    }

    /** Requests a canary now; the one already running when there is one. */
    public Canary run(UUID companyId) {
        return backends.call(Backend.EGRESS_SERVICE, auth -> egress.runCanary(auth, companyId));
    }
}
