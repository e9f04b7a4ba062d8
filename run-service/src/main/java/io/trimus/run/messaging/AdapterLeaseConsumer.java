package io.trimus.run.messaging;

import io.smallrye.mutiny.Uni;
import io.trimus.events.AdapterLease;
import io.trimus.run.service.recovery.LeaseBook;
import io.trimus.run.service.recovery.RunRecovery;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Reads {@code trimus.adapter.leases} (every replica all of it, in its own group) into the {@link LeaseBook}, and
 * stores which runs a beat lists as started before it reads on: so when the book has read its own observer beat, every
 * start published before it is stored. The channel is not named like the topic, which this service also publishes.
 */
@ApplicationScoped
public class AdapterLeaseConsumer {
    static final String CHANNEL = "adapter-leases-in";
    private static final Logger LOG = Logger.getLogger(AdapterLeaseConsumer.class);

    private final LeaseBook book;
    private final RunRecovery recovery;

    AdapterLeaseConsumer(LeaseBook book, RunRecovery recovery) {
        this.book = book;
        this.recovery = recovery;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(AdapterLease beat) {
        if (beat == null || beat.instance() == null || beat.instance().isBlank() || beat.sentAt() == null) {
            LOG.warn("Skipping a lease record that is not a valid io.trimus.adapter.lease.v1 event");
            return Uni.createFrom().voidItem();
        }
        return recovery.recordStarts(beat.started())
                .onFailure().invoke(e -> LOG.warnf("could not store the starts of %s's beat: %s", beat.instance(),
                        e.getMessage()))
                .onFailure().recoverWithNull()
                .invoke(() -> book.read(beat)).replaceWithVoid();
    }
}
