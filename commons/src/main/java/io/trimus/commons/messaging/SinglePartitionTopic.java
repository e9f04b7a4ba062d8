package io.trimus.commons.messaging;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates a topic with exactly one partition before anything publishes to it (a broker's auto-creation would use its
 * default count), for topics whose readers rely on one total order, and says loudly when an existing one has more.
 */
public final class SinglePartitionTopic {
    private static final Logger LOG = Logger.getLogger(SinglePartitionTopic.class);

    private SinglePartitionTopic() {
    }

    /**
     * Ensures {@code topic} exists with one partition, using the application's {@code kafka.*} settings (bootstrap
     * servers, SASL); waits at most {@code timeout}. Never fails the caller: a broker not reachable yet is logged.
     *
     * @return whether the topic is known to have one partition
     */
    public static boolean ensure(Map<String, Object> kafka, String topic, Duration timeout) {
        Properties props = new Properties();
        kafka.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                props.put(key, value);
            }
        });
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (Admin admin = Admin.create(props)) {
            try {
                admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty()))).all()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.infof("created topic %s with one partition", topic);
                return true;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic);
            int partitions = description.partitions().size();
            if (partitions != 1) {
                LOG.errorf("topic %s has %d partitions; it must have exactly one (its readers rely on one order):"
                        + " recreate it with one partition", topic, partitions);
                return false;
            }
            return true;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warnf("could not make sure topic %s has one partition (%s); it is created by the first publisher with"
                    + " the broker's default count", topic, e.getCause() != null ? e.getCause() : e);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
