package io.trimus.adapter.lease;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.trimus.commons.messaging.SinglePartitionTopic;
import io.trimus.events.Topics;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import java.time.Duration;
import java.util.Map;

/** Creates trimus.adapter.leases with its one partition before this process's first beat could create it otherwise. */
@ApplicationScoped
public class LeaseTopicSetup {

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event,
                 @Identifier("default-kafka-broker") Map<String, Object> kafka) {
        SinglePartitionTopic.ensure(kafka, Topics.ADAPTER_LEASES, Duration.ofSeconds(5));
    }
}
