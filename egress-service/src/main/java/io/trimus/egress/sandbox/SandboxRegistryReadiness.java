package io.trimus.egress.sandbox;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once every stored sandbox registration is in memory; until then running sandboxes would be refused. */
@Readiness
@ApplicationScoped
public class SandboxRegistryReadiness implements HealthCheck {
    private final SandboxRegistry registry;

    SandboxRegistryReadiness(SandboxRegistry registry) {
        this.registry = registry;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("egress-sandbox-registry").status(registry.isLoaded()).build();
    }
}
