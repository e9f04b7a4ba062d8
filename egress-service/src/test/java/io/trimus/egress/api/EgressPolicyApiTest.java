package io.trimus.egress.api;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.restassured.http.ContentType;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModes;
import io.trimus.egress.policy.replica.PolicyLoader;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.EgressApi.policy;
import static io.trimus.egress.api.EgressApi.putPolicy;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * A company's egress mode: enforce unless set, stored and seen by the resolver and the proxy at once, bad input
 * changes nothing.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class EgressPolicyApiTest {

    @Inject
    EgressModes modes;

    @Inject
    PolicyLoader loader;

    @Test
    void aCompanyThatNeverSetAPolicyIsEnforced() {
        UUID company = UUID.randomUUID();

        policy(company).statusCode(200)
                .body("company_id", equalTo(company.toString()))
                .body("mode", equalTo("enforce"))
                .body("updated_at", nullValue());
        assertThat(modes.mode(company)).isEqualTo(EgressMode.ENFORCE);
    }

    @Test
    void theModeRoundTripsAndTheResolverSeesItAsSoonAsItIsStored() {
        UUID company = UUID.randomUUID();
        Instant before = Instant.now().minusSeconds(60);

        putPolicy(company, Map.of("mode", "report")).statusCode(200)
                .body("company_id", equalTo(company.toString()))
                .body("mode", equalTo("report"))
                .body("updated_at", notNullValue());

        assertThat(modes.mode(company)).isEqualTo(EgressMode.REPORT);
        assertThat(modes.mode(UUID.randomUUID())).as("another company").isEqualTo(EgressMode.ENFORCE);
        String updatedAt = policy(company).statusCode(200).body("mode", equalTo("report"))
                .extract().path("updated_at");
        assertThat(Instant.parse(updatedAt)).isAfter(before);

        putPolicy(company, Map.of("mode", "enforce")).statusCode(200).body("mode", equalTo("enforce"));

        assertThat(modes.mode(company)).isEqualTo(EgressMode.ENFORCE);
        policy(company).statusCode(200).body("mode", equalTo("enforce"));
    }

    static Stream<Arguments> invalidModes() {
        return Stream.of(
                Arguments.of("allow", "is not a mode"),
                Arguments.of("REPORT", "is not a mode"),
                Arguments.of(" report", "is not a mode"),
                Arguments.of("", "is not a mode"),
                Arguments.of("r".repeat(1_000_000), "is not a mode"),
                Arguments.of(1, "must be a string"),
                Arguments.of(true, "must be a string"),
                Arguments.of(List.of("report"), "must be a string"),
                Arguments.of(Map.of("value", "report"), "must be a string"));
    }

    @ParameterizedTest(name = "{index}")
    @MethodSource("invalidModes")
    void anInvalidModeIsRefusedNamingTheFieldAndNothingChanges(Object mode, String detail) {
        UUID company = companyInReportMode();

        assertInvalidField(putPolicy(company, Map.of("mode", mode)), "mode")
                .body("detail", containsString(detail))
                .body("detail.length()", lessThan(300));

        assertUnchanged(company);
    }

    @Test
    void aMissingBodyOrModeIsRefusedNamingTheMode() {
        UUID company = companyInReportMode();

        assertInvalidField(putPolicy(company, "null"), "mode");
        assertInvalidField(putPolicy(company, Map.of()), "mode").body("detail", containsString("is required"));
        assertInvalidField(putPolicy(company, "{\"mode\": null}"), "mode");
        assertInvalidField(given().contentType(ContentType.JSON)
                .put("/api/companies/{c}/egress/policy", company).then(), "mode");

        assertUnchanged(company);
    }

    @Test
    void anUnknownFieldIsRefusedAndNothingChanges() {
        UUID company = companyInReportMode();
        Map<String, Object> body = new HashMap<>();
        body.put("mode", "enforce");
        body.put("enforced", true);

        assertInvalidField(putPolicy(company, body), "enforced");
        assertProblem(putPolicy(company, "{\"mode\": \"enforce\""), 400)
                .body("detail", equalTo("the request body is not valid JSON"));

        assertUnchanged(company);
    }

    @Test
    void aMalformedCompanyIdNamesTheField() {
        assertInvalidField(given().get("/api/companies/{c}/egress/policy", "acme").then(), "company_id");
        assertInvalidField(given().contentType(ContentType.JSON).body(Map.of("mode", "report"))
                .put("/api/companies/{c}/egress/policy", "1-2-3-4-5").then(), "company_id");
    }

    @Test
    void wrongMethodAndMediaTypeAreProblems() {
        UUID company = UUID.randomUUID();

        assertProblem(given().contentType(ContentType.JSON).body(Map.of("mode", "report"))
                .post("/api/companies/{c}/egress/policy", company).then(), 405);
        assertProblem(given().contentType(ContentType.TEXT).body("report")
                .put("/api/companies/{c}/egress/policy", company).then(), 415);
        assertThat(modes.mode(company)).isEqualTo(EgressMode.ENFORCE);
    }

    @Test
    void concurrentChangesLeaveTheResolverWithTheStoredMode() throws Exception {
        UUID company = UUID.randomUUID();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<CompletableFuture<Integer>> puts = IntStream.range(0, 24)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> putPolicy(company,
                            Map.of("mode", i % 2 == 0 ? "report" : "enforce")).extract().statusCode(), clients))
                    .toList();
            for (CompletableFuture<Integer> put : puts) {
                assertThat(put.get()).isEqualTo(200);
            }
        } finally {
            clients.shutdownNow();
        }

        String stored = policy(company).statusCode(200).extract().path("mode");
        assertThat(modes.mode(company).name().toLowerCase()).isEqualTo(stored);
    }

    @Test
    void aLoadBringsBackEveryStoredMode() throws Throwable {
        UUID company = UUID.randomUUID();
        UUID stale = companyInReportMode();
        // written behind this process's back, as by another replica
        store("insert into egress.egress_policy values (?1, 'report', 1, now())", company);
        store("update egress.egress_policy set mode = 'enforce', revision = revision + 1 where company_id = ?1", stale);

        loader.load();

        assertThat(modes.mode(company)).isEqualTo(EgressMode.REPORT);
        assertThat(modes.mode(stale)).isEqualTo(EgressMode.ENFORCE);
        // the whole readiness also waits for Kafka, which a test before this one may just have restarted
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).untilAsserted(() ->
                given().get("/q/health/ready").then().statusCode(200)
                        .body("checks.find { it.name == 'egress-policy' }.status", equalTo("UP")));
    }

    @Test
    void openApiDocumentDescribesThePolicyApi() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.'/api/companies/{company_id}/egress/policy'.get", notNullValue())
                .body("paths.'/api/companies/{company_id}/egress/policy'.put", notNullValue());
    }

    private static void store(String sql, UUID company) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.acrossCompanies(() -> Panache.getSession()
                .flatMap(session -> session.createNativeQuery(sql).setParameter(1, company).executeUpdate())));
    }

    private static UUID companyInReportMode() {
        UUID company = UUID.randomUUID();
        putPolicy(company, Map.of("mode", "report")).statusCode(200);
        return company;
    }

    private void assertUnchanged(UUID company) {
        policy(company).statusCode(200).body("mode", equalTo("report"));
        assertThat(modes.mode(company)).isEqualTo(EgressMode.REPORT);
    }
}
