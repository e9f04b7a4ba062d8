package io.trimus.adapter.status;

import io.trimus.adapter.lease.RunLeases;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.run.ServiceEvents;
import io.trimus.adapter.worker.HeldRuns;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.events.EventTypes;
import io.trimus.events.RunStatusChanged;
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
 * Publishes run status changes on {@code trimus.run.status} as binary-mode CloudEvents (id = event id,
 * type {@link EventTypes#RUN_STATUS}), keyed by run id so one run's events stay in order.
 */
@ApplicationScoped
public class RunStatusPublisher implements RunReporter {

    private static final Logger LOG = Logger.getLogger(RunStatusPublisher.class);

    @Inject
    @Channel(Topics.RUN_STATUS)
    @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 4096)
    Emitter<RunStatusChanged> emitter;

    @Inject
    HeldRuns held;

    @Inject
    RunLeases leases;

    @Override
    public void report(RunStatusChanged reported) {
        RunStatusChanged event = reported.reportedBy(leases.instance());
        boolean terminal = event.status().isTerminal();
        if (terminal) {
            held.ended(event.runId());   // a worker's heartbeats stop listing it
        } else {
            leases.hold(event.runId());
        }
        LOG.infof("run %s → %s%s", event.runId(), event.status(),
                event.error() == null ? "" : ": " + event.error());
        // a terminal status is in the topic before a beat leaves the run out: run-service never reads "let go" first
        Message<RunStatusChanged> message = CloudEventRecords.message(event, Envelope.of(event.id(),
                        EventTypes.RUN_STATUS, ServiceEvents.SOURCE, String.valueOf(event.runId()), event.occurredAt()))
                .withAck(() -> {
                    if (terminal) {
                        leases.release(event.runId());
                    }
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(failure -> {
                    LOG.errorf("could not publish %s of run %s: %s", event.status(), event.runId(),
                            failure.getMessage());
                    if (terminal) {
                        leases.release(event.runId());
                    }
                    return CompletableFuture.completedFuture(null);
                });
        try {
            emitter.send(message);
        } catch (RuntimeException e) {
            // not even queued (the emitter's buffer is full or the channel is down): nothing will ack it
            LOG.errorf("could not publish %s of run %s: %s", event.status(), event.runId(), e.toString());
            if (terminal) {
                leases.release(event.runId());
            }
        }
    }
}
