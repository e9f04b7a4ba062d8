package io.trimus.adapter.lease;

import io.trimus.adapter.run.ServiceEvents;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.events.AdapterLease;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Publishes this process's lease beats on {@code trimus.adapter.leases}, keyed by instance so they stay in order. */
@ApplicationScoped
public class AdapterLeasePublisher implements LeaseSender {

    @Inject
    @Channel(Topics.ADAPTER_LEASES)
    @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 1024)
    Emitter<AdapterLease> emitter;

    @Override
    public CompletionStage<Void> publish(AdapterLease beat) {
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        Message<AdapterLease> message = CloudEventRecords.message(beat, Envelope.of(beat.id(),
                        EventTypes.ADAPTER_LEASE, ServiceEvents.SOURCE, beat.instance(), beat.sentAt()))
                .withAck(() -> {
                    acknowledged.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(failure -> {
                    acknowledged.completeExceptionally(failure);
                    return CompletableFuture.completedFuture(null);
                });
        emitter.send(message);
        return acknowledged;
    }
}
