package io.trimus.egress.canary;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.events.CanaryRequested;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;

import java.net.URI;

/**
 * Publishes {@link CanaryRequested} on {@code trimus.egress.canary.requests} as a binary-mode CloudEvent keyed by
 * company id; completes once the broker acknowledged it.
 */
@ApplicationScoped
public class CanaryRequests {
    static final URI SOURCE = CloudEventRecords.source("egress-service");

    @Inject
    @Channel(Topics.EGRESS_CANARY_REQUESTS)
    MutinyEmitter<CanaryRequested> emitter;

    /** Sends the request; fails when the broker does not take it. */
    public Uni<Void> send(CanaryRequested request) {
        return emitter.sendMessage(CloudEventRecords.message(request, Envelope.of(request.id(),
                EventTypes.EGRESS_CANARY_REQUESTED, SOURCE, request.companyId().toString(), request.requestedAt())));
    }
}
