package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.Problems.assertInvalidField;
import static io.trimus.egress.api.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class SandboxRegistrationApiTest {

    @Inject
    SandboxRegistry registry;

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

        given().delete("/internal/sandboxes/{ip}", "172.30.0.41").then().statusCode(204);

        assertThat(registry.lookup("172.30.0.41")).isEmpty();
        given().get("/internal/sandboxes").then().statusCode(200).body("ip", not(hasItem("172.30.0.41")));
        assertProblem(given().delete("/internal/sandboxes/{ip}", "172.30.0.41").then(), 404);
    }

    @Test
    void aReusedAddressBelongsToTheNewestRegistration() {
        UUID before = UUID.randomUUID();
        UUID after = UUID.randomUUID();
        put("172.30.0.42", registration(before)).statusCode(204);

        put("172.30.0.42", registration(after)).statusCode(204);

        assertThat(registry.lookup("172.30.0.42").orElseThrow().companyId()).isEqualTo(after);
        given().delete("/internal/sandboxes/{ip}", "172.30.0.42").then().statusCode(204);
    }

    @Test
    void anIpv6AddressIsKeptInItsOneCanonicalForm() {
        put("FD00:30::17", registration(UUID.randomUUID())).statusCode(204);

        assertThat(registry.lookup("fd00:30:0:0:0:0:0:17")).isPresent();
        given().get("/internal/sandboxes").then().body("ip", hasItem("fd00:30:0:0:0:0:0:17"));
        given().delete("/internal/sandboxes/{ip}", "fd00:30:0:0:0:0:0:17").then().statusCode(204);
    }

    @ParameterizedTest
    @ValueSource(strings = {"172.30.0.300", "172.30.0", "sandbox.local", "localhost", "fe80::1%eth0", "172.30.0.0-24",
            "::g"})
    void anAddressThatIsNoIpLiteralIsRefused(String ip) {
        assertInvalidField(put(ip, registration(UUID.randomUUID())), "ip").body("value", equalTo(ip));
        assertInvalidField(given().delete("/internal/sandboxes/{ip}", ip).then(), "ip");
        assertThat(registry.all()).noneMatch(s -> s.ip().equals(ip));
    }

    @ParameterizedTest
    @ValueSource(strings = {"company_id", "agent_id", "run_id", "container_id"})
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
}
