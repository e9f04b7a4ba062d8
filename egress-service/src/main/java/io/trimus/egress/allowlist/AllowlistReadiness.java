package io.trimus.egress.allowlist;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once every stored allowlist is in memory; until then the resolver would deny names a company allowed. */
@Readiness
@ApplicationScoped
public class AllowlistReadiness implements HealthCheck {
    private final AllowlistCache cache;

    AllowlistReadiness(AllowlistCache cache) {
        this.cache = cache;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("egress-allowlists").status(cache.isLoaded()).build();
    }
}
