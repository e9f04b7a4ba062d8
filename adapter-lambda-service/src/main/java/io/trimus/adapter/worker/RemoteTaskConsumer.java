package io.trimus.adapter.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.dispatch.RunDispatcher;
import io.trimus.adapter.run.RunReporter;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.Topics;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Claims remote tasks of this worker's tags: the exactly-one-worker guarantee and the sharing of a tag's load live
 * here.
 *
 * <p><b>Sharing.</b> Each tag's workers form one consumer group, {@code trimus-worker-<tag>}. Tasks are keyed by run
 * id, so a tag's tasks spread over all partitions of trimus.remote.tasks ({@code RemoteTaskTopic} sees to their count)
 * and Kafka splits those partitions among the live members: every worker of the tag gets a share. A worker claims a
 * task only while it holds fewer than TRIMUS_WORKER_MAX_CONCURRENT_RUNS runs, so a task it could not start yet stays
 * unclaimed on the topic rather than queued inside it (where it would die with the worker). A worker at its limit
 * that reads a task it could run <em>hands its partitions back</em>: it leaves the group without committing past
 * the task, the group gives its partitions (that task first) to the members with room, and it rejoins once one of
 * its runs ends. Pausing the partitions instead would keep their tasks from idle workers until the busy one freed a
 * place or the task's claim deadline passed. A worker at its limit with nothing waiting keeps its partitions, so a
 * steady tag does not rebalance. When a worker dies, its partitions go to the others after the session timeout
 * (TRIMUS_WORKER_SESSION_TIMEOUT, default 10 s), and they start after the last committed claim: its unclaimed tasks
 * are run by them.
 *
 * <p><b>Exactly once.</b> Delivery alone is at-least-once: a member that read a task and then lost its partition in a
 * rebalance (a hand-back, a pause past the session timeout, a crash) would see the task delivered to another member
 * too. So a worker <em>claims</em> a task by committing the offset past it, synchronously, before it starts anything:
 * the group coordinator accepts a commit only from the member of the current generation that owns the partition, so
 * of two members that read the same task at most one commit succeeds, and a member taking over the partition later
 * starts after a successful commit. A worker whose commit fails does not start the task; when it is unclear whether
 * the commit went through (a timeout) it rewinds and tries again, which succeeds only while it still owns the
 * partition. The place the run will take is reserved before the commit (so two tags' consumers of one worker cannot
 * both take its last place). After the commit it beats at once, listing the run (the claim record the dispatcher
 * watches), then starts it.
 *
 * <p>Guarantee: each task record is started by at most one worker, and by exactly one if a live worker of its tag
 * with a free place owns the partition before the task's {@code claim_by}. A worker that dies after claiming leaves
 * the run to the dispatcher's watch, which fails it as "worker lost". A task past its {@code claim_by} is skipped: the
 * dispatcher has failed that run already. Before any of this, {@link TaskCheck} decides whether the task is
 * run-service's at all: a forged or replayed task is skipped (its offset committed like any record not for this
 * worker) and never reported.
 *
 * <p>A plain Kafka consumer rather than a messaging channel: there is one group per tag, known only at run time, the
 * claim needs a synchronous, generation-checked commit before the work starts, and the hand-back leaves and rejoins
 * the group.
 */
@Singleton
public class RemoteTaskConsumer {

    private static final Logger LOG = Logger.getLogger(RemoteTaskConsumer.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final WorkerIdentity worker;
    private final TaskCheck check;
    private final HeldRuns held;
    private final Heartbeats heartbeats;
    private final RunDispatcher dispatcher;
    private final RunReporter reporter;
    private final RemoteTaskTopic topic;
    private final int maxRuns;
    private final ObjectMapper json;
    private final Map<String, Object> kafkaDefaults;
    private final Duration closeTimeout;
    private final Duration sessionTimeout;
    private final List<TagConsumer> consumers = new ArrayList<>();

    @Inject
    public RemoteTaskConsumer(WorkerIdentity worker, TaskCheck check, HeldRuns held, Heartbeats heartbeats,
                              RunDispatcher dispatcher, RunReporter reporter, RemoteTaskTopic topic,
                              TrimusConfig config, ObjectMapper json,
                              @Identifier("default-kafka-broker") Map<String, Object> kafkaDefaults) {
        this.worker = worker;
        this.check = check;
        this.held = held;
        this.heartbeats = heartbeats;
        this.dispatcher = dispatcher;
        this.reporter = reporter;
        this.topic = topic;
        this.maxRuns = config.worker().maxConcurrentRuns();
        if (maxRuns < 1) {
            throw new IllegalArgumentException("TRIMUS_WORKER_MAX_CONCURRENT_RUNS must be at least 1, got " + maxRuns);
        }
        this.json = json;
        this.kafkaDefaults = kafkaDefaults;
        this.closeTimeout = config.shutdown().kafkaCloseTimeout();
        this.sessionTimeout = config.worker().sessionTimeout();
    }

    /** The consumer group of a tag's workers. */
    public static String groupOf(String tag) {
        return "trimus-worker-" + tag;
    }

    // after boot reconciliation: a claimed run's status must have a wired channel
    void start(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE + 200) StartupEvent event) {
        for (String tag : worker.tags()) {
            TagConsumer consumer = new TagConsumer(tag);
            consumers.add(consumer);
            consumer.thread.start();
        }
    }

    /**
     * Before the run executors stop (they report what they hold) and before the producers close: a task this worker
     * claimed is handed to its executor first, and a task read but not claimed stays on the topic for the tag's other
     * workers. Bounded: a broker that is gone holds the stop up by at most twice the close timeout.
     */
    void stop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        consumers.forEach(TagConsumer::stop);
        long deadline = System.nanoTime() + closeTimeout.multipliedBy(2).toNanos();
        for (TagConsumer consumer : consumers) {
            consumer.awaitStopped(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }

    /**
     * The settings of a tag's consumer: the application's {@code kafka.*} settings (bootstrap servers and, on a broker
     * that requires it, the SASL login from KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_MECHANISM, KAFKA_SASL_JAAS_CONFIG), as
     * the messaging channels get them, then the claim's own.
     */
    static Properties consumerProperties(Map<String, Object> kafkaDefaults, String tag, String workerId) {
        return consumerProperties(kafkaDefaults, tag, workerId, Duration.ofSeconds(10));
    }

    /** The same, with the worker's session timeout (TRIMUS_WORKER_SESSION_TIMEOUT). */
    static Properties consumerProperties(Map<String, Object> kafkaDefaults, String tag, String workerId,
                                         Duration sessionTimeout) {
        Properties props = new Properties();
        kafkaDefaults.forEach((key, value) -> {
            if (ConsumerConfig.configNames().contains(key)) {   // producer settings would only be logged as unknown
                props.put(key, value);
            }
        });
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupOf(tag));
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "trimus-worker-" + workerId + "-" + tag);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
        // a worker that died without leaving the group holds its partitions until its session expires
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, String.valueOf(sessionTimeout.toMillis()));
        // members learn of a rebalance (a hand-back, a worker joining) at their next heartbeat
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
        // partitions added while the worker runs (RemoteTaskTopic raising an auto-created topic) are shared soon
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "30000");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }

    /** The tags whose consumer group this worker has not joined yet (a tag's task may wait until it has). */
    public List<String> tagsNotJoined() {
        return consumers.stream().filter(c -> !c.joined).map(c -> c.tag).toList();
    }

    private final class TagConsumer {
        final String tag;
        final KafkaConsumer<String, byte[]> kafka;
        final Thread thread;
        volatile boolean running = true;
        /** Set once the group has taken this member in, with partitions or none (more workers than partitions). */
        volatile boolean joined;
        /** False while this worker, at its limit, has handed its partitions back. */
        boolean subscribed;

        TagConsumer(String tag) {
            this.tag = tag;
            this.kafka = new KafkaConsumer<>(consumerProperties(kafkaDefaults, tag, worker.id(), sessionTimeout));
            this.thread = new Thread(this::loop, "trimus-worker-tasks-" + tag);
            this.thread.setDaemon(true);
        }

        void loop() {
            try {
                topic.ensure();
                subscribe();
                while (running) {
                    if (!subscribed) {
                        if (held.awaitRoom(maxRuns, POLL)) {
                            LOG.infof("worker %s has room again and rejoins %s", worker.id(), groupOf(tag));
                            subscribe();
                        }
                        continue;
                    }
                    for (ConsumerRecord<String, byte[]> record : kafka.poll(POLL)) {
                        if (!handle(record)) {
                            break;
                        }
                    }
                }
            } catch (WakeupException | InterruptedException e) {
                // stopping
            } catch (RuntimeException e) {
                LOG.errorf(e, "the task consumer of tag %s stopped; this worker claims no more tasks of it", tag);
            } finally {
                try {
                    kafka.close(closeTimeout);   // leaves the group at once, so the tag's other workers take over now
                } catch (RuntimeException e) {
                    LOG.debugf(e, "closing the task consumer of tag %s", tag);
                }
            }
        }

        void subscribe() {
            kafka.subscribe(List.of(Topics.REMOTE_TASKS), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    joined = true;
                    LOG.infof("worker %s joined %s with partitions %s", worker.id(), groupOf(tag), partitions);
                }
            });
            subscribed = true;
        }

        /** @return false when the rest of the batch must be read again (not claimed, or handed back) */
        boolean handle(ConsumerRecord<String, byte[]> record) {
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            RemoteTask task = read(record);
            boolean mine = task != null && check.judge(task, tag) == TaskCheck.Verdict.EXECUTE;
            if (mine && !held.reserve(maxRuns)) {
                handBack(task);
                return false;
            }
            if (!claim(partition, record.offset(), mine ? task : null)) {
                if (mine) {
                    held.unreserve();
                }
                return false;
            }
            if (mine) {
                if (check.taken(task)) {
                    execute(task);
                } else {
                    held.unreserve();
                }
            }
            return true;
        }

        /**
         * At the limit with a task it could run: leaves the group without committing past the task, so the members
         * with room take this worker's partitions, that task first.
         */
        void handBack(RemoteTask task) {
            LOG.infof("worker %s holds %d runs, its limit: it hands run %s and its other partitions of %s back to the"
                    + " workers with room, and rejoins when a run ends", worker.id(), maxRuns, task.runId(),
                    groupOf(tag));
            kafka.unsubscribe();
            subscribed = false;
        }

        /** Commits past the record: the fence. False when this member did not (or may not have) committed it. */
        boolean claim(TopicPartition partition, long offset, RemoteTask task) {
            try {
                kafka.commitSync(Map.of(partition, new OffsetAndMetadata(offset + 1,
                        task == null ? "" : "claimed by " + worker.id())));
                return true;
            } catch (WakeupException e) {
                throw e;
            } catch (KafkaException e) {
                if (task != null) {
                    LOG.infof("did not claim run %s (commit refused: %s); it belongs to whichever worker owns the"
                            + " partition now", task.runId(), e.getMessage());
                }
                if (kafka.assignment().contains(partition)) {
                    kafka.seek(partition, offset);   // read it again: the claim is decided by the next commit
                }
                return false;
            }
        }

        void execute(RemoteTask task) {
            LOG.infof("worker %s claimed run %s (tag %s, %s)", worker.id(), task.runId(), tag,
                    task.request().adapterType());
            held.claimed(task.runId());
            // the claim record, before anything can end the run: the dispatcher then sees it claimed, and the next
            // beat without it as ended, however fast the worker rejects or finishes it
            heartbeats.beat();
            try {
                if (!dispatcher.runClaimed(task.request())) {
                    held.ended(task.runId());
                }
            } catch (RuntimeException e) {
                LOG.errorf(e, "could not start claimed run %s", task.runId());
                held.ended(task.runId());
                RunRequested run = task.request();
                reporter.report(RunStatusChanged.of(run.runId(), run.companyId(), run.agentId(), RunState.FAILED, null,
                        null, "worker " + worker.id() + " could not start the run"));
            }
        }

        RemoteTask read(ConsumerRecord<String, byte[]> record) {
            try {
                return record.value() == null ? null : json.readValue(record.value(), RemoteTask.class);
            } catch (IOException e) {
                LOG.warnf("skipping a record on %s that is not a remote task: %s", record.topic(), e.getMessage());
                return null;
            }
        }

        void stop() {
            running = false;
            kafka.wakeup();
        }

        void awaitStopped(Duration timeout) {
            try {
                thread.join(Math.max(1, timeout.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                LOG.warnf("the task consumer of tag %s did not stop within %s", tag, timeout);
            }
        }
    }
}
