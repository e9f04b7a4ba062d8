package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * A run.requested the broker refuses for good (here: larger than the topic takes) ends its run FAILED with the reason
 * and is set aside; it never holds up another company's run accepted after it.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class OutboxPoisonPillTest {
    private static final int TOPIC_MAX_MESSAGE_BYTES = 100_000;
    private static final KafkaTopics kafka = KafkaTopics.shared();

    @Test
    void aRequestTheBrokerRefusesFailsItsRunAndAnotherCompanysRunStillGoesOut() throws Exception {
        String badCompany = Api.createCompany("Oversharing " + UUID.randomUUID());
        String badAgent = busyboxAgent(badCompany);
        String goodCompany = Api.createCompany("Bystander " + UUID.randomUUID());
        String goodAgent = busyboxAgent(goodCompany);

        try (Admin admin = admin()) {
            lowerRunRequestedLimit(admin);
            try {
                // within every field limit and the service's record limit, but over the topic's max.message.bytes
                String bad = Api.startRun(badCompany, badAgent, Map.of("issue", Map.of("title", "Huge",
                        "body", "b".repeat(60_000)), "input", "i".repeat(60_000)));
                String good = Api.startRun(goodCompany, goodAgent, Map.of("input", "small"));

                assertThat(kafka.awaitRecord(Topics.RUN_REQUESTED, good).value()).contains("small");
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> !"QUEUED".equals(Api.runStatus(badCompany, bad)));
                Api.getRun(badCompany, bad).body("status", equalTo("FAILED"))
                        .body("error", containsString("larger than the Kafka broker accepts"))
                        .body("error", containsString("shorten the issue"));
                assertThat(Db.texts("select refusal from run.outbox_event where message_key = ?", bad))
                        .singleElement().asString().contains("larger than the Kafka broker accepts");
                assertThat(kafka.recordsAfter(Topics.RUN_REQUESTED, bad, Duration.ofSeconds(1))).isEmpty();
            } finally {
                restoreRunRequestedLimit(admin);
            }
        }
    }

    private static String busyboxAgent(String company) {
        return Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest", "command", List.of("true")));
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class)));
    }

    private static void lowerRunRequestedLimit(Admin admin) throws Exception {
        try {
            admin.createTopics(List.of(new NewTopic(Topics.RUN_REQUESTED, Optional.empty(), Optional.empty())))
                    .all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        alter(admin, new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                String.valueOf(TOPIC_MAX_MESSAGE_BYTES)), AlterConfigOp.OpType.SET));
        await().atMost(Duration.ofSeconds(30)).until(() -> String.valueOf(TOPIC_MAX_MESSAGE_BYTES)
                .equals(maxMessageBytes(admin)));
    }

    private static void restoreRunRequestedLimit(Admin admin) throws Exception {
        alter(admin, new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, ""),
                AlterConfigOp.OpType.DELETE));
    }

    private static void alter(Admin admin, AlterConfigOp op) throws Exception {
        admin.incrementalAlterConfigs(Map.of(topic(), List.of(op))).all().get();
    }

    private static String maxMessageBytes(Admin admin) throws Exception {
        return admin.describeConfigs(List.of(topic())).all().get().get(topic())
                .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value();
    }

    private static ConfigResource topic() {
        return new ConfigResource(ConfigResource.Type.TOPIC, Topics.RUN_REQUESTED);
    }
}
