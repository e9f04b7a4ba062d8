package io.trimus.adapter.messaging;

import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.trimus.adapter.adapter.remote.RemoteTasks;
import io.trimus.events.EventTypes;
import io.trimus.events.RemoteTask;
import io.trimus.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;

/**
 * Publishes remote tasks on {@code trimus.remote.tasks} as binary-mode CloudEvents, keyed by worker tag so one tag's
 * tasks share a partition, which one member of the tag's consumer group reads.
 */
@ApplicationScoped
public class RemoteTaskPublisher implements RemoteTasks {

    private static final Logger LOG = Logger.getLogger(RemoteTaskPublisher.class);

    @Inject
    @Channel(Topics.REMOTE_TASKS)
    @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 1024)
    Emitter<RemoteTask> emitter;

    @Override
    public void publish(RemoteTask task) {
        LOG.infof("run %s handed to the workers of tag %s", task.runId(), task.workerTag());
        Message<RemoteTask> message = Message.of(task)
                .addMetadata(OutgoingCloudEventMetadata.builder()
                        .withId(task.id().toString())
                        .withType(EventTypes.REMOTE_TASK)
                        .withSource(RunStatusPublisher.SOURCE)
                        .withSubject(task.runId().toString())
                        .withDataContentType("application/json")
                        .withTimestamp(task.dispatchedAt().atZone(ZoneOffset.UTC))
                        .build())
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(task.workerTag()).build())
                .withNack(failure -> {
                    // the run is still watched: it fails at its claim timeout with that reason
                    LOG.errorf("could not publish the task of run %s: %s", task.runId(), failure.getMessage());
                    return CompletableFuture.completedFuture(null);
                });
        emitter.send(message);
    }
}
