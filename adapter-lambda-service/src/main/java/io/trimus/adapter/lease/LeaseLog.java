package io.trimus.adapter.lease;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.trimus.events.AdapterLease;
import io.trimus.events.Topics;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads trimus.adapter.leases, whose one partition puts every process's beats in one order, to settle who may start
 * a run: the process whose beat lists it as started <em>first</em> in that order. A run request can reach two processes
 * (Kafka redelivers a request whose offset the first had not committed when it died or lost its partition); both then
 * publish a start beat, and only the first one's process starts it. A process knows the outcome once it has read back
 * its own start beat: everything before it has been read by then. Reading starts an hour back (the topic's retention),
 * so a process that joined after another started a run still knows it.
 */
@Singleton
public class LeaseLog implements StartOrder {
    private static final Logger LOG = Logger.getLogger(LeaseLog.class);
    private static final Duration LOOK_BACK = Duration.ofHours(1);
    private static final int REMEMBERED_RUNS = 100_000;

    private final Map<String, Object> kafkaDefaults;
    private final ObjectMapper json;
    private final Map<UUID, String> firstStarter = boundedMap();
    private final Map<UUID, CompletableFuture<Void>> awaited = new ConcurrentHashMap<>();
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile Thread thread;
    private volatile boolean running = true;

    @Inject
    public LeaseLog(@Identifier("default-kafka-broker") Map<String, Object> kafkaDefaults, ObjectMapper json) {
        this.kafkaDefaults = kafkaDefaults;
        this.json = json;
    }

    // after the topic exists (LeaseTopicSetup), before run requests are taken
    void start(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE + 10) StartupEvent event) {
        consumer = new KafkaConsumer<>(properties(kafkaDefaults));
        thread = new Thread(this::loop, "trimus-lease-log");
        thread.setDaemon(true);
        thread.start();
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        if (consumer != null) {
            consumer.wakeup();
        }
    }

    /** Completes once the beat has been read; a wait that is never answered is dropped after a minute. */
    @Override
    public CompletableFuture<Void> readBack(UUID beatId) {
        CompletableFuture<Void> read = awaited.computeIfAbsent(beatId, id -> new CompletableFuture<>());
        read.orTimeout(1, java.util.concurrent.TimeUnit.MINUTES).whenComplete((ok, e) -> awaited.remove(beatId));
        return read;
    }

    @Override
    public String firstStarterOf(UUID runId) {
        synchronized (firstStarter) {
            return firstStarter.get(runId);
        }
    }

    void read(AdapterLease beat) {
        if (!beat.isObserver()) {
            synchronized (firstStarter) {
                beat.started().forEach(run -> firstStarter.putIfAbsent(run, beat.instance()));
            }
        }
        CompletableFuture<Void> waiting = awaited.remove(beat.id());
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    private void loop() {
        TopicPartition partition = new TopicPartition(Topics.ADAPTER_LEASES, 0);
        boolean positioned = false;
        try {
            while (running) {
                try {
                    if (!positioned) {
                        position(partition);
                        positioned = true;
                    }
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                        parse(record.value());
                    }
                } catch (WakeupException stopping) {
                    throw stopping;
                } catch (RuntimeException e) {
                    // the broker is away or the topic not there yet: starts wait (and fail after their timeout)
                    LOG.warnf("cannot read trimus.adapter.leases yet, trying again: %s", e.getMessage());
                    Thread.sleep(1000);
                }
            }
        } catch (WakeupException | InterruptedException stopping) {
            // shutdown
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void position(TopicPartition partition) {
        consumer.assign(List.of(partition));
        OffsetAndTimestamp start = consumer.offsetsForTimes(
                Map.of(partition, Instant.now().minus(LOOK_BACK).toEpochMilli())).get(partition);
        if (start != null) {
            consumer.seek(partition, start.offset());
        } else {
            consumer.seekToEnd(List.of(partition));
        }
    }

    private void parse(byte[] value) {
        if (value == null) {
            return;
        }
        try {
            AdapterLease beat = json.readValue(value, AdapterLease.class);
            if (beat.id() != null && beat.instance() != null) {
                read(beat);
            }
        } catch (IOException unreadable) {
            LOG.debug("skipped an unreadable lease record");
        }
    }

    static Properties properties(Map<String, Object> kafkaDefaults) {
        Properties props = new Properties();
        kafkaDefaults.forEach((key, value) -> {
            if (ConsumerConfig.configNames().contains(key)) {
                props.put(key, value);
            }
        });
        // no group: the one partition is assigned, nothing is committed
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        // a start waits for its beat to come back: fetch it at once rather than after the default half second
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }

    private static Map<UUID, String> boundedMap() {
        return new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<UUID, String> eldest) {
                return size() > REMEMBERED_RUNS;
            }
        };
    }
}
