package io.trimus.egress.policy.replica;

import io.trimus.egress.policy.PolicyCurrency;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready while this replica's egress policy is in memory and confirmed current ({@link PolicyCurrency}): until the
 * first load a company in report mode would be enforced and every allowed name denied; once it cannot confirm its copy
 * (the database does not answer for TRIMUS_EGRESS_POLICY_STALE_AFTER) it refuses sandboxes' requests, and being DOWN
 * sends them to a replica that can. Data {@code following_changes}: whether its listening connection is up.
 */
@Readiness
@ApplicationScoped
public class PolicyReadiness implements HealthCheck {
    private final PolicyLoader loader;

    PolicyReadiness(PolicyLoader loader) {
        this.loader = loader;
    }

    @Override
    public HealthCheckResponse call() {
        PolicyFeed feed = loader.feed();
        boolean current = feed.isCurrent();
        return HealthCheckResponse.named("egress-policy").status(feed.hasSynced() && current)
                .withData("loaded", feed.hasSynced()).withData("current", current)
                .withData("following_changes", feed.isLive()).build();
    }
}
