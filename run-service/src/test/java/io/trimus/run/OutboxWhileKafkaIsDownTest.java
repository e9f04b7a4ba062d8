package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.testing.InfraControl;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class OutboxWhileKafkaIsDownTest {

    @Test
    void runsAcceptedWhileTheBrokerIsDownArePublishedWhenItIsBackAndACancelledOneNever() {
        String company = Api.createCompany("Outage Inc");
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest",
                "command", List.of("true")));
        InfraControl infra = InfraControl.fromConfig();
        String accepted;
        String withdrawn;
        infra.stopKafka();
        try {
            accepted = Api.startRun(company, agent, Map.of("input", "while down"));
            withdrawn = Api.startRun(company, agent, Map.of());
            given().post("/api/companies/{c}/runs/{r}/cancel", company, withdrawn).then().statusCode(202)
                    .body("status", equalTo("CANCELLED"));
            assertThat(Api.runStatus(company, accepted)).isEqualTo("QUEUED");
        } finally {
            infra.startKafka();
        }
        try (KafkaTopics kafka = new KafkaTopics()) {
            assertThat(kafka.awaitRecord(Topics.RUN_REQUESTED, accepted).value()).contains("while down");
            assertThat(kafka.recordsAfter(Topics.RUN_REQUESTED, withdrawn, Duration.ofSeconds(3))).isEmpty();
            assertThat(kafka.recordsAfter(Topics.RUN_CANCEL, withdrawn, Duration.ofSeconds(1))).isEmpty();
        }
        Api.getRun(company, withdrawn).body("status", equalTo("CANCELLED"))
                .body("error", equalTo("cancelled before it was dispatched"));
    }
}
