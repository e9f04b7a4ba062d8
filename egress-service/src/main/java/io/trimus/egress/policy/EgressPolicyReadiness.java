package io.trimus.egress.policy;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once every stored egress policy is in memory; until then a company in report mode would be enforced. */
@Readiness
@ApplicationScoped
public class EgressPolicyReadiness implements HealthCheck {
    private final EgressModeCache cache;

    EgressPolicyReadiness(EgressModeCache cache) {
        this.cache = cache;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("egress-policies").status(cache.isLoaded()).build();
    }
}
