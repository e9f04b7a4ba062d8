package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.egress.sandbox.replica.SandboxRegistryLoader;
import io.trimus.testing.OwnerDatabase;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/** The adapter service's way to register sandbox addresses: who holds an address, and that it survives a restart. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class SandboxRegistrationApiTest {

    @Inject
    SandboxRegistry registry;

    @Inject
    SandboxRegistryLoader loader;


    private static Map<String, Object> registration(UUID company) {
        Map<String, Object> body = new HashMap<>();
        body.put("company_id", company.toString());
        body.put("agent_id", UUID.randomUUID().toString());
        body.put("run_id", UUID.randomUUID().toString());
        body.put("container_id", "3f2c9a1b7d4e");
        return body;
    }

    private static ValidatableResponse put(String ip, Object body) {
        return given().contentType(ContentType.JSON).body(body).put("/internal/sandboxes/{ip}", ip).then();
    }

    private static ValidatableResponse delete(String ip, Object runId) {
        return given().queryParam("run_id", runId).delete("/internal/sandboxes/{ip}", ip).then();
    }

    @Test
    void aRegisteredSandboxIsAttributedListedAndForgottenOnDelete() {
        UUID company = UUID.randomUUID();
        Map<String, Object> body = registration(company);

        put("172.30.0.41", body).statusCode(204);

        Sandbox sandbox = registry.lookup("172.30.0.41").orElseThrow();
        assertThat(sandbox.companyId()).isEqualTo(company);
        assertThat(sandbox.runId().toString()).isEqualTo(body.get("run_id"));
        assertThat(sandbox.agentId().toString()).isEqualTo(body.get("agent_id"));
        assertThat(sandbox.containerId()).isEqualTo("3f2c9a1b7d4e");
        given().get("/internal/sandboxes").then().statusCode(200)
                .body("find { it.ip == '172.30.0.41' }.company_id", equalTo(company.toString()))
                .body("find { it.ip == '172.30.0.41' }.run_id", equalTo(body.get("run_id")))
                .body("find { it.ip == '172.30.0.41' }.container_id", equalTo("3f2c9a1b7d4e"));

        delete("172.30.0.41", body.get("run_id")).statusCode(204);

        assertThat(registry.lookup("172.30.0.41")).isEmpty();
        given().get("/internal/sandboxes").then().statusCode(200).body("ip", not(hasItem("172.30.0.41")));
        assertProblem(delete("172.30.0.41", body.get("run_id")), 404);
    }

    @Test
    void anAddressHeldByALiveRunIsRefusedToAnotherRun() {
        UUID holder = UUID.randomUUID();
        Map<String, Object> held = registration(holder);
        put("172.30.0.42", held).statusCode(204);

        assertProblem(put("172.30.0.42", registration(UUID.randomUUID())), 409)
                .body("detail", containsString("held by another run"));

        assertThat(registry.lookup("172.30.0.42").orElseThrow().companyId()).isEqualTo(holder);
        given().get("/internal/sandboxes").then()
                .body("find { it.ip == '172.30.0.42' }.run_id", equalTo(held.get("run_id")));
        delete("172.30.0.42", held.get("run_id")).statusCode(204);
    }

    @Test
    void aRunRegistersItsAddressBeforeItsContainerExistsAndConfirmsItAfter() {
        Map<String, Object> claim = registration(UUID.randomUUID());
        claim.remove("container_id");

        put("172.30.0.45", claim).statusCode(204);
        put("172.30.0.45", claim).statusCode(204);
        assertThat(registry.lookup("172.30.0.45").orElseThrow().containerId()).isNull();

        Map<String, Object> confirm = new HashMap<>(claim);
        confirm.put("container_id", "c0ffee");
        put("172.30.0.45", confirm).statusCode(204);
        put("172.30.0.45", claim).statusCode(204);

        Sandbox sandbox = registry.lookup("172.30.0.45").orElseThrow();
        assertThat(sandbox.containerId()).as("a re-registration without container keeps it").isEqualTo("c0ffee");
        assertThat(sandbox.runId().toString()).isEqualTo(claim.get("run_id"));
        delete("172.30.0.45", claim.get("run_id")).statusCode(204);
    }

    @Test
    void theSameRunUnderAnotherCompanyIsAnotherHolder() {
        Map<String, Object> held = registration(UUID.randomUUID());
        put("172.30.0.46", held).statusCode(204);
        Map<String, Object> forged = new HashMap<>(held);
        forged.put("company_id", UUID.randomUUID().toString());

        assertProblem(put("172.30.0.46", forged), 409);

        assertThat(registry.lookup("172.30.0.46").orElseThrow().companyId().toString())
                .isEqualTo(held.get("company_id"));
        delete("172.30.0.46", held.get("run_id")).statusCode(204);
    }

    @Test
    void onlyTheRunThatHoldsAnAddressCanDeregisterIt() {
        Map<String, Object> held = registration(UUID.randomUUID());
        put("172.30.0.47", held).statusCode(204);

        assertProblem(delete("172.30.0.47", UUID.randomUUID()), 409)
                .body("detail", containsString("only the run that holds it"));
        assertInvalidField(given().delete("/internal/sandboxes/{ip}", "172.30.0.47").then(), "run_id");
        assertInvalidField(delete("172.30.0.47", "run-7"), "run_id");

        assertThat(registry.lookup("172.30.0.47")).isPresent();
        delete("172.30.0.47", held.get("run_id")).statusCode(204);
        assertThat(registry.lookup("172.30.0.47")).isEmpty();
    }

    @Test
    void concurrentClaimsOfOneAddressHaveOneWinner() throws Exception {
        List<Map<String, Object>> claims = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            claims.add(registration(UUID.randomUUID()));
        }
        ExecutorService threads = Executors.newFixedThreadPool(claims.size());
        List<Integer> statuses;
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (Map<String, Object> claim : claims) {
                answers.add(threads.submit(() -> given().contentType(ContentType.JSON).body(claim)
                        .put("/internal/sandboxes/{ip}", "172.30.0.48").statusCode()));
            }
            statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get(30, TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(statuses).containsOnly(204, 409).filteredOn(status -> status == 204).hasSize(1);
        Sandbox winner = registry.lookup("172.30.0.48").orElseThrow();
        assertThat(claims.get(statuses.indexOf(204)).get("run_id")).isEqualTo(winner.runId().toString());
        delete("172.30.0.48", winner.runId()).statusCode(204);
    }

    @Test
    void aRegistrationOlderThanTheMaximumAgeIsTakenOverByTheNextRun() throws Exception {
        Map<String, Object> abandoned = registration(UUID.randomUUID());
        put("172.30.0.50", abandoned).statusCode(204);
        try (Connection db = OwnerDatabase.connect(); Statement sql = db.createStatement()) {
            // its adapter died for good 26 h ago, longer than any run lasts (TRIMUS_EGRESS_SANDBOXES_REGISTRATION_MAX_AGE)
            sql.executeUpdate("update egress.sandbox_registration set registered_at = now() - interval '26 hours'"
                    + " where ip = '172.30.0.50'");
        }
        Map<String, Object> next = registration(UUID.randomUUID());

        put("172.30.0.50", next).statusCode(204);

        assertThat(registry.lookup("172.30.0.50").orElseThrow().runId().toString()).isEqualTo(next.get("run_id"));
        assertProblem(delete("172.30.0.50", abandoned.get("run_id")), 409);
        assertProblem(put("172.30.0.50", abandoned), 409);
        delete("172.30.0.50", next.get("run_id")).statusCode(204);
    }

    @Test
    void registrationsAreReloadedFromTheDatabaseAsAtStart() throws Throwable {
        Map<String, Object> held = registration(UUID.randomUUID());
        put("172.30.0.49", held).statusCode(204);
        Sandbox before = registry.lookup("172.30.0.49").orElseThrow();

        registry.load(List.of()); // what a restart loses
        assertThat(registry.lookup("172.30.0.49")).isEmpty();
        loader.load();            // what a start does before the resolver answers

        assertThat(registry.lookup("172.30.0.49")).contains(before);
        assertProblem(put("172.30.0.49", registration(UUID.randomUUID())), 409);
        delete("172.30.0.49", held.get("run_id")).statusCode(204);
    }

    @Test
    void anIpv6AddressIsKeptInItsOneCanonicalForm() {
        Map<String, Object> body = registration(UUID.randomUUID());
        put("FD00:30::17", body).statusCode(204);

        assertThat(registry.lookup("fd00:30:0:0:0:0:0:17")).isPresent();
        given().get("/internal/sandboxes").then().body("ip", hasItem("fd00:30:0:0:0:0:0:17"));
        delete("fd00:30:0:0:0:0:0:17", body.get("run_id")).statusCode(204);
    }

    @ParameterizedTest
    @ValueSource(strings = {"172.30.0.300", "172.30.0", "sandbox.local", "localhost", "fe80::1%eth0", "172.30.0.0-24",
            "::g"})
    void anAddressThatIsNoIpLiteralIsRefused(String ip) {
        assertInvalidField(put(ip, registration(UUID.randomUUID())), "ip").body("value", equalTo(ip));
        assertInvalidField(delete(ip, UUID.randomUUID()), "ip");
        assertThat(registry.all()).noneMatch(s -> s.ip().equals(ip));
    }

    @ParameterizedTest
    @ValueSource(strings = {"company_id", "agent_id", "run_id"})
    void aRegistrationWithoutAFieldIsRefusedNamingIt(String field) {
        Map<String, Object> body = registration(UUID.randomUUID());
        body.remove(field);

        assertInvalidField(put("172.30.0.43", body), field);

        assertThat(registry.lookup("172.30.0.43")).isEmpty();
    }

    @Test
    void aRegistrationWithAMalformedIdIsRefusedNamingIt() {
        Map<String, Object> body = registration(UUID.randomUUID());
        body.put("run_id", "run-7");

        assertInvalidField(put("172.30.0.44", body), "run_id");
        assertProblem(put("172.30.0.44", "{\"company_id\": "), 400)
                .body("detail", equalTo("the request body is not valid JSON"));
        assertInvalidField(put("172.30.0.44", "null"), "body");

        assertThat(registry.lookup("172.30.0.44")).isEmpty();
    }

    /** Every call here is the adapter's: the internal endpoints take the service credential only. */
    private static io.restassured.specification.RequestSpecification given() {
        return EgressApi.asService();
    }
}
