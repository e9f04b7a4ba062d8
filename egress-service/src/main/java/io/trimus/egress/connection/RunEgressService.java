package io.trimus.egress.connection;

import io.trimus.commons.rows.TenantTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/**
 * Reads what a run talked to, always within one company: a run id of another company finds nothing. egress-service
 * does not know runs, so an unknown run is simply one without connections.
 */
@ApplicationScoped
public class RunEgressService {
    /** Hosts listed in a run's summary at most (most connections first); the totals count every host. */
    public static final int MAX_HOSTS = 200;

    private final ConnectionRepository connections;

    RunEgressService(ConnectionRepository connections) {
        this.connections = connections;
    }

    /** The run's totals, its busiest hosts and its {@code limit} latest connections. */
    @TenantTransaction
    public Uni<RunEgress> of(UUID companyId, UUID runId, int limit) {
        return connections.totals(companyId, runId)
                .flatMap(totals -> connections.perHost(companyId, runId, MAX_HOSTS)
                        .flatMap(hosts -> connections.latest(companyId, runId, limit)
                                .flatMap(latest -> connections.maskedUse(companyId, runId, MAX_HOSTS)
                                        .map(masked -> new RunEgress(runId, totals, hosts, latest, masked)))));
    }
}
