package io.trimus.adapter.canary;

import io.trimus.adapter.run.ServiceEvents;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.events.CanaryResult;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import java.util.concurrent.CompletableFuture;

/**
 * Publishes a canary's answer on {@code trimus.egress.canary.results} as a binary-mode CloudEvent (type
 * {@link EventTypes#EGRESS_CANARY_RESULT}, subject the canary), keyed by company id as egress-service expects.
 */
@ApplicationScoped
public class CanaryResultPublisher {

    private static final Logger LOG = Logger.getLogger(CanaryResultPublisher.class);

    @Inject
    @Channel(Topics.EGRESS_CANARY_RESULTS)
    @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 256)
    Emitter<CanaryResult> emitter;

    /** Sends {@code result}; a failed send is logged with the canary's id (egress-service times the canary out). */
    public void publish(CanaryResult result) {
        Envelope envelope = Envelope.of(result.id(), EventTypes.EGRESS_CANARY_RESULT, ServiceEvents.SOURCE,
                        String.valueOf(result.canaryId()), result.finishedAt())
                .keyedBy(String.valueOf(result.companyId()));
        emitter.send(CloudEventRecords.message(result, envelope).withNack(failure -> {
            LOG.errorf("could not publish the result of canary %s: %s", result.canaryId(), failure.getMessage());
            return CompletableFuture.completedFuture(null);
        }));
    }
}
