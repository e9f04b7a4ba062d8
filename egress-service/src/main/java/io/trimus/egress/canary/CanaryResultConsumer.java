package io.trimus.egress.canary;

import io.smallrye.mutiny.Uni;
import io.trimus.events.CanaryResult;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * Reads {@code trimus.egress.canary.results} (channel {@value #CHANNEL}) and ends each canary with its result; the
 * offset moves on once it is stored. A result that cannot be stored after {@link #RETRY_FOR} is logged and skipped:
 * its canary then times out as failed.
 */
@ApplicationScoped
public class CanaryResultConsumer {
    /** The incoming channel; mp.messaging.incoming.egress-canary-results-in.topic names the topic. */
    public static final String CHANNEL = "egress-canary-results-in";
    static final Duration RETRY_FOR = Duration.ofMinutes(1);
    private static final Logger LOG = Logger.getLogger(CanaryResultConsumer.class);

    private final CanaryService canaries;

    CanaryResultConsumer(CanaryService canaries) {
        this.canaries = canaries;
    }

    /** Stores one result. */
    @Incoming(CHANNEL)
    public Uni<Void> consume(CanaryResult result) {
        if (result == null || result.canaryId() == null || result.companyId() == null) {
            LOG.warnf("Skipped a canary result without canary_id or company_id: %s", result);
            return Uni.createFrom().voidItem();
        }
        return canaries.complete(result)
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .expireIn(RETRY_FOR.toMillis())
                .onFailure().invoke(e -> LOG.errorf("Could not store the result of canary %s: %s",
                        result.canaryId(), e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
