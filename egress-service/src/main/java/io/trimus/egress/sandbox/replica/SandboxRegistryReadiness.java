package io.trimus.egress.sandbox.replica;

import io.trimus.egress.sandbox.SandboxRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once every stored sandbox registration is in memory and the replica follows the changes other replicas make
 * (its {@link RegistrationFeed} listened before it loaded): until then running or newly registered sandboxes could be
 * refused. A listening connection lost later stays ready (data {@code following_changes: false}): the replica answers
 * with what it knew and reloads when the connection is back, and a database outage must not take every replica, and
 * the DNS of every running sandbox, out of service at once.
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
        RegistrationFeed feed = loader.feed();
        return HealthCheckResponse.named("egress-sandbox-registry").status(registry.isLoaded() && feed.hasSynced())
                .withData("loaded", registry.isLoaded()).withData("following_changes", feed.isLive()).build();
    }
}
