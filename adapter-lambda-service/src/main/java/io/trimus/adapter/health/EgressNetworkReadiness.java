package io.trimus.adapter.health;

import io.trimus.adapter.egress.network.EgressNetwork;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.engine.DockerEngineSwitch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready only once the egress network exists and sandboxes may join it: until then every sandbox run fails. */
@Readiness
@ApplicationScoped
public class EgressNetworkReadiness implements HealthCheck {

    @Inject
    EnsureEgressNetwork egressNetwork;

    @Inject
    DockerEngineSwitch engine;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("egress-network")
                .withData("name", egressNetwork.settings().name());
        if (!engine.enabled()) {
            return response.up().withData("enabled", false).build();
        }
        EnsureEgressNetwork.Status status = egressNetwork.verify();
        if (!status.ready()) {
            return response.down().withData("reason", status.problem()).build();
        }
        EgressNetwork network = status.network();
        return response.up()
                .withData("id", network.id())
                .withData("subnet", String.valueOf(network.subnet()))
                .withData("gateway", network.gateway())
                .withData("dns", egressNetwork.settings().dnsDefault().orElse(network.gateway()))
                .build();
    }
}
