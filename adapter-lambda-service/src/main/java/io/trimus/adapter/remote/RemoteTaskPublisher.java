package io.trimus.adapter.remote;

import io.trimus.adapter.run.ServiceEvents;
import io.trimus.adapter.worker.RemoteTaskTopic;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.commons.messaging.CloudEventRecords;
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

import java.util.concurrent.CompletableFuture;

/**
 * Publishes remote tasks on {@code trimus.remote.tasks} as binary-mode CloudEvents, keyed by run id: a tag's tasks
 * spread over the topic's partitions (see {@link RemoteTaskTopic}), which the members of the tag's consumer group
 * share, so every worker of the tag gets some. A run's task and any second dispatch of it share a partition.
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
        Message<RemoteTask> message = CloudEventRecords.message(task, Envelope.of(task.id(), EventTypes.REMOTE_TASK,
                        ServiceEvents.SOURCE, task.runId().toString(), task.dispatchedAt())
                        .keyedBy(task.runId().toString()))
                .withNack(failure -> {
                    // the run is still watched: it fails at its claim timeout with that reason
                    LOG.errorf("could not publish the task of run %s: %s", task.runId(), failure.getMessage());
                    return CompletableFuture.completedFuture(null);
                });
        emitter.send(message);
    }
}
