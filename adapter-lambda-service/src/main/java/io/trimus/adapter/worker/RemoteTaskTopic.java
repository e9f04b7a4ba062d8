package io.trimus.adapter.worker;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.Topics;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Gives trimus.remote.tasks its TRIMUS_REMOTE_TASK_PARTITIONS partitions: a tag's tasks are keyed by run id, and its
 * workers can share them only as far as there are partitions to share. A broker's auto-created topic has one
 * (num.partitions), which would leave every worker of a tag but one idle, so the dispatcher (at boot, in the
 * background) and each worker (before it joins its groups) create the topic or raise its partition count. Where the
 * broker does not let them (a Kafka with ACLs, where the operator's KafkaTopic decides) it logs what it found and goes
 * on. Raising is safe here: no two tasks depend on each other's order.
 */
@Singleton
public class RemoteTaskTopic {

    private static final Logger LOG = Logger.getLogger(RemoteTaskTopic.class);
    private static final long TIMEOUT_SECONDS = 15;

    private final Map<String, Object> kafkaDefaults;
    private final int partitions;
    private final WorkerIdentity worker;
    private volatile boolean ensured;

    @Inject
    public RemoteTaskTopic(@Identifier("default-kafka-broker") Map<String, Object> kafkaDefaults, TrimusConfig config,
                           WorkerIdentity worker) {
        this.kafkaDefaults = kafkaDefaults;
        this.partitions = config.remote().taskPartitions();
        this.worker = worker;
        if (partitions < 1) {
            throw new IllegalArgumentException("TRIMUS_REMOTE_TASK_PARTITIONS must be at least 1, got " + partitions);
        }
    }

    void onStart(@Observes StartupEvent event) {
        if (!worker.isWorker()) {
            // boot does not wait on the broker: a task published before this is done simply lands on partition 0
            Thread thread = new Thread(this::ensure, "trimus-remote-task-topic");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Creates the topic or raises its partitions to the configured count, once per process; never throws. */
    public synchronized void ensure() {
        if (ensured) {
            return;
        }
        try (Admin admin = Admin.create(adminProperties())) {
            int found = partitionsOf(admin);
            if (found == 0) {
                create(admin);
            } else if (found < partitions) {
                raise(admin, found);
            }
            ensured = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            LOG.warnf("could not see to %d partitions of %s (%s); a tag's tasks spread over the workers of the tag"
                    + " only as far as the topic's partitions allow", partitions, Topics.REMOTE_TASKS,
                    cause.getMessage());
        }
    }

    /** The topic's partition count, 0 when it does not exist. */
    private static int partitionsOf(Admin admin) throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return admin.describeTopics(List.of(Topics.REMOTE_TASKS)).allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(Topics.REMOTE_TASKS).partitions().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return 0;
            }
            throw e;
        }
    }

    private void create(Admin admin) throws InterruptedException, ExecutionException, TimeoutException {
        try {
            admin.createTopics(List.of(new NewTopic(Topics.REMOTE_TASKS, Optional.of(partitions), Optional.empty())))
                    .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            LOG.infof("created %s with %d partitions", Topics.REMOTE_TASKS, partitions);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
            int found = partitionsOf(admin);   // created by another process (or auto-created) meanwhile
            if (found < partitions) {
                raise(admin, found);
            }
        }
    }

    private void raise(Admin admin, int found) throws InterruptedException, ExecutionException, TimeoutException {
        try {
            admin.createPartitions(Map.of(Topics.REMOTE_TASKS, NewPartitions.increaseTo(partitions)))
                    .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            LOG.infof("raised %s from %d to %d partitions", Topics.REMOTE_TASKS, found, partitions);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof InvalidPartitionsException)) {
                throw e;
            }
            // another process raised it first (to this count or more)
        }
    }

    private Properties adminProperties() {
        Properties props = new Properties();
        kafkaDefaults.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                props.put(key, value);
            }
        });
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "trimus-remote-task-topic");
        return props;
    }
}
