package io.trimus.adapter.health;

import io.trimus.adapter.worker.RemoteTaskConsumer;
import io.trimus.adapter.worker.WorkerIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import java.util.List;

/** A worker is ready once it has joined the consumer group of each of its tags; a dispatcher is always ready here. */
@Readiness
@ApplicationScoped
public class WorkerReadiness implements HealthCheck {

    @Inject
    WorkerIdentity worker;

    @Inject
    RemoteTaskConsumer tasks;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("remote-worker").withData("worker", worker.isWorker());
        if (!worker.isWorker()) {
            return response.up().build();
        }
        List<String> waiting = tasks.tagsNotJoined();
        response.withData("id", worker.id()).withData("tags", String.join(",", worker.tags()));
        return waiting.isEmpty() ? response.up().build()
                : response.down().withData("reason", "not yet in the consumer group of tags " + waiting).build();
    }
}
