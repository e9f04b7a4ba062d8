package io.trimus.egress.sandbox;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once every stored sandbox registration is in memory and the replica follows the changes other replicas make
 * (its {@link RegistrationFeed} listens and reloaded since): until then running or newly registered sandboxes could be
 * refused. Not ready while the listening connection is lost; the replica still answers with what it knew.
 */
@Readiness
@ApplicationScoped
public class SandboxRegistryReadiness implements HealthCheck {
    private final SandboxRegistry registry;
    private final SandboxRegistryLoader loader;

    SandboxRegistryReadiness(SandboxRegistry registry, SandboxRegistryLoader loader) {
        this.registry = registry;
        this.loader = loader;
    }

    @Override
    public HealthCheckResponse call() {
        boolean following = loader.feed().isLive();
        return HealthCheckResponse.named("egress-sandbox-registry").status(registry.isLoaded() && following)
                .withData("loaded", registry.isLoaded()).withData("following_changes", following).build();
    }
}
