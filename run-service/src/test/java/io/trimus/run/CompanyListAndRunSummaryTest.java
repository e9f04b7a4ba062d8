package io.trimus.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/** The list of companies, paged by keyset, and the run counts by state that the dashboard's overview shows. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class CompanyListAndRunSummaryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    @Test
    void companiesArePagedInCreationOrderWithoutGapsOrRepeats() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(Api.createCompany("Paged " + i));
        }
        // walk the whole list two at a time: every company once, ours in the order they were made
        List<String> seen = new ArrayList<>();
        String after = null;
        while (true) {
            var request = given().queryParam("limit", 2);
            if (after != null) {
                request.queryParam("after", after);
            }
            List<String> page = request.get("/api/companies").then().statusCode(200).extract().path("id");
            assertThat(page.size()).isLessThanOrEqualTo(2);
            seen.addAll(page);
            if (page.size() < 2) {
                break;
            }
            after = page.get(page.size() - 1);
        }
        assertThat(seen).doesNotHaveDuplicates().containsSubsequence(created);

        given().queryParam("after", created.get(1)).queryParam("limit", 3).get("/api/companies").then()
                .statusCode(200).body("id", equalTo(created.subList(2, 5)))
                .body("[0].name", equalTo("Paged 2")).body("[0].created_at", org.hamcrest.Matchers.notNullValue());
    }

    @Test
    void theDefaultPageHoldsAtMostFiftyCompanies() {
        given().get("/api/companies").then().statusCode(200).body("size()", org.hamcrest.Matchers.lessThanOrEqualTo(50));
    }

    @Test
    void everyQueryParameterOfTheCompanyListIsValidated() {
        for (String limit : List.of("0", "201", "-1", "ten", "1.5")) {
            assertInvalidField(given().queryParam("limit", limit).get("/api/companies").then(), "limit");
        }
        assertInvalidField(given().queryParam("after", "not-a-uuid").get("/api/companies").then(), "after");
        assertInvalidField(given().queryParam("after", UUID.randomUUID().toString()).get("/api/companies").then(),
                "after").body("detail", org.hamcrest.Matchers.containsString("does not exist"));
    }

    @Test
    void theSummaryCountsACompanysRunsByStateWithEveryStateListed() {
        String company = Api.createCompany("Counted " + UUID.randomUUID());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest"));
        String[] ids = {company, agent};
        String first = Api.startRun(company, agent, Map.of());
        Api.startRun(company, agent, Map.of());
        Api.startRun(company, agent, Map.of());
        kafka.produce(Topics.RUN_STATUS, first, status(first, ids, "SUCCEEDED"));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(company, first).equals("SUCCEEDED"));

        given().queryParam("company_id", company).get("/api/runs/summary").then().statusCode(200)
                .body("company_id", equalTo(company))
                .body("by_status.QUEUED", equalTo(2)).body("by_status.SUCCEEDED", equalTo(1))
                .body("by_status.FAILED", equalTo(0)).body("by_status.REJECTED", equalTo(0))
                .body("by_status.size()", equalTo(io.trimus.events.RunState.values().length))
                .body("total", equalTo(3));
    }

    @Test
    void theSummaryWithoutACompanyCountsEveryCompanysRuns() {
        String company = Api.createCompany("Everyone " + UUID.randomUUID());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest"));
        int before = given().get("/api/runs/summary").then().statusCode(200).extract().path("by_status.QUEUED");
        Api.startRun(company, agent, Map.of());
        Api.startRun(company, agent, Map.of());
        int after = given().get("/api/runs/summary").then().statusCode(200)
                .body("company_id", org.hamcrest.Matchers.nullValue()).extract().path("by_status.QUEUED");
        // other tests of this module run one at a time; only ours were added in between
        assertThat(after - before).isEqualTo(2);
    }

    @Test
    void theSummaryValidatesItsCompany() {
        assertInvalidField(given().queryParam("company_id", "nope").get("/api/runs/summary").then(), "company_id");
        assertProblem(given().queryParam("company_id", UUID.randomUUID().toString()).get("/api/runs/summary").then(),
                404);
    }

    private static String status(String run, String[] ids, String status) {
        return JSON.createObjectNode()
                .put("id", UUID.randomUUID().toString()).put("run_id", run).put("company_id", ids[0])
                .put("agent_id", ids[1]).put("status", status).put("exit_code", 0).put("output", "done")
                .put("occurred_at", Instant.now().toString()).toString();
    }
}
