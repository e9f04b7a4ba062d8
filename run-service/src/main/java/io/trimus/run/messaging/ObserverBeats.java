package io.trimus.run.messaging;

import io.quarkus.scheduler.Scheduled;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.events.AdapterLease;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.service.recovery.LeaseBook;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import java.net.URI;
import java.util.concurrent.CompletableFuture;

/** Publishes this replica's observer beats on {@code trimus.adapter.leases}; the {@link LeaseBook} reads them back. */
@ApplicationScoped
public class ObserverBeats {
    private static final Logger LOG = Logger.getLogger(ObserverBeats.class);
    private static final URI SOURCE = CloudEventRecords.source("run-service");

    @Inject
    @Channel(Topics.ADAPTER_LEASES)
    @OnOverflow(value = OnOverflow.Strategy.DROP)   // a beat that cannot be sent is replaced by the next one
    Emitter<AdapterLease> emitter;

    @Inject
    LeaseBook book;

    @Inject
    TrimusConfig config;

    @Scheduled(every = "${trimus.run.observer-interval:1s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void beat() {
        AdapterLease beat = AdapterLease.observer(book.self(), config.run().observerInterval());
        emitter.send(CloudEventRecords.message(beat, Envelope.of(beat.id(), EventTypes.ADAPTER_LEASE, SOURCE,
                        beat.instance(), beat.sentAt()))
                .withNack(failure -> {
                    LOG.debugf("could not publish an observer beat: %s", failure.getMessage());
                    return CompletableFuture.completedFuture(null);
                }));
    }
}
