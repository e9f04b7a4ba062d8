package io.trimus.adapter.health;

import com.github.dockerjava.api.DockerClient;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.engine.EngineErrors;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready only while the Docker engine answers a ping: without it no docker run can start. */
@Readiness
@ApplicationScoped
public class DockerEngineReadiness implements HealthCheck {

    @Inject
    DockerClient docker;

    @Inject
    TrimusConfig config;

    @Inject
    DockerEngineSwitch engine;

    @Override
    public HealthCheckResponse call() {
        String host = config.docker().host();
        var response = HealthCheckResponse.named("docker-engine").withData("host", host);
        if (!engine.enabled()) {
            return response.up().withData("enabled", false).build();
        }
        try {
            docker.pingCmd().exec();
            return response.up().build();
        } catch (RuntimeException e) {
            return response.down().withData("reason", EngineErrors.describe(e, host, "answer a ping")).build();
        }
    }
}
