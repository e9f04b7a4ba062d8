package io.trimus.egress.canary;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.egress.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Every {@value #TICK}: starts a canary for each company due one (none for TRIMUS_EGRESS_CANARY_INTERVAL), at most
 * {@value #PER_TICK} per tick so a deployment with many companies spreads them out; ends the canaries that got no
 * result in time; and once an hour deletes finished canaries older than TRIMUS_EGRESS_CANARY_RETENTION. Every
 * replica runs it: the running canary's unique index makes one canary per company however many ask.
 */
@ApplicationScoped
public class CanarySchedule {
    static final String TICK = "30s";
    static final int PER_TICK = 20;
    private static final Logger LOG = Logger.getLogger(CanarySchedule.class);

    private final CanaryRepository canaries;
    private final CanaryService service;
    private final Duration interval;
    private final Duration retention;

    CanarySchedule(CanaryRepository canaries, CanaryService service, TrimusConfig config) {
        this.canaries = canaries;
        this.service = service;
        this.interval = config.egress().canary().interval();
        this.retention = config.egress().canary().retention();
    }

    @Scheduled(identity = "trimus-egress-canary", every = TICK, delayed = "20s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> onTick() {
        return service.expire()
                .invoke(n -> {
                    if (n > 0) {
                        LOG.warnf("%d canaries got no result in time and ended failed", n);
                    }
                })
                .chain(() -> startDue())
                .onFailure().invoke(e -> LOG.warnf("Canary schedule failed, next try in %s: %s", TICK, e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Starts the canaries due now; how many companies were due. */
    Uni<Integer> startDue() {
        if (interval.isZero() || interval.isNegative()) {
            return Uni.createFrom().item(0);
        }
        return TenantTransactions.acrossCompanies(() -> canaries.due(interval, PER_TICK))
                .flatMap(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate((UUID company) -> service.start(company, Canary.SCHEDULED)
                                .onFailure().invoke(e -> LOG.warnf("Could not start the canary of company %s: %s",
                                        company, e.getMessage()))
                                .onFailure().recoverWithNull())
                        .collect().asList().map(List::size));
    }

    @Scheduled(identity = "trimus-egress-canary-retention", every = "1h", delayed = "2m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        return TenantTransactions.acrossCompanies(() -> canaries.purge(Instant.now().minus(retention)))
                .onFailure().invoke(e -> LOG.warnf("Deleting old canaries failed: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
