package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class CompanyAndAgentApiTest {

    @Test
    void companyIsCreatedAndReadBack() {
        var created = given().contentType(ContentType.JSON).body(Map.of("name", "  Acme  "))
                .post("/api/companies")
                .then().statusCode(201).body("name", equalTo("Acme")).extract();
        String id = created.path("id");
        org.assertj.core.api.Assertions.assertThat(created.header("Location")).endsWith("/api/companies/" + id);
        given().get("/api/companies/{id}", id).then().statusCode(200)
                .body("id", equalTo(id)).body("name", equalTo("Acme")).body("created_at", notNullValue());
    }

    @Test
    void companyLocationPointsAtTheCompany() {
        var response = given().contentType(ContentType.JSON).body(Map.of("name", "Globex"))
                .post("/api/companies").then().statusCode(201).extract();
        given().get(response.header("Location")).then().statusCode(200).body("name", equalTo("Globex"));
    }

    @Test
    void unknownCompanyIsA404Problem() {
        assertProblem(given().get("/api/companies/{id}", UUID.randomUUID()).then(), 404);
    }

    @Test
    void malformedCompanyIdNamesTheField() {
        assertInvalidField(given().get("/api/companies/not-a-uuid").then(), "company_id");
    }

    @Test
    void companyWithoutNameIsRefused() {
        assertInvalidField(given().contentType(ContentType.JSON).body(Map.of("name", " "))
                .post("/api/companies").then(), "name");
    }

    @Test
    void unknownCompanyFieldIsRefused() {
        assertInvalidField(given().contentType(ContentType.JSON).body(Map.of("name", "A", "owner", "x"))
                .post("/api/companies").then(), "owner");
    }

    @Test
    void brokenJsonIsRefused() {
        assertProblem(given().contentType(ContentType.JSON).body("{\"name\": ")
                .post("/api/companies").then(), 400);
    }

    @Test
    void dockerAgentIsCreatedWithItsConfig() {
        String company = Api.createCompany("Initech");
        Map<String, Object> config = Map.of("image", "trimus-test/busybox:latest", "command", List.of("echo", "hi"),
                "pids_limit", 50, "memory", "64m", "cpus", 0.5, "timeout_sec", 30, "env", Map.of("GREETING", "hi"));
        String agent = Api.createDockerAgent(company, config);
        given().get("/api/companies/{c}/agents/{a}", company, agent).then().statusCode(200)
                .body("adapter_type", equalTo("docker"))
                .body("isolation", equalTo("container"))
                .body("adapter_config.pids_limit", equalTo(50))
                .body("adapter_config.memory", equalTo("64m"));
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> invalidAgents() {
        Map<String, Object> ok = Map.of("image", "busybox:1.36");
        return Stream.of(
                arguments(Map.of("name", "a", "adapter_type", "kubernetes", "adapter_config", ok), "adapter_type"),
                arguments(Map.of("name", "a", "adapter_config", ok), "adapter_type"),
                arguments(Map.of("name", "a", "adapter_type", "claude_local", "adapter_config", Map.of()), "adapter_type"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config", Map.of()), "adapter_config.image"),
                arguments(Map.of("name", "a", "adapter_type", "docker"), "adapter_config"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config", List.of()), "adapter_config"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "Not An Image!")), "adapter_config.image"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "pids_limit", 0)), "adapter_config.pids_limit"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "pids_limit", -5)), "adapter_config.pids_limit"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "pids_limit", "many")), "adapter_config.pids_limit"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "memory", "lots")), "adapter_config.memory"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "memory", "1k")), "adapter_config.memory"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "cpus", 0)), "adapter_config.cpus"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "timeout_sec", 5)), "adapter_config.timeout_sec"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "network", "host")), "adapter_config.network"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "writable", "yes")), "adapter_config.writable"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "env", Map.of("TRIMUS_RUN_ID", "x"))), "adapter_config.env.TRIMUS_RUN_ID"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "privileged", true)), "adapter_config.privileged"),
                arguments(Map.of("name", "", "adapter_type", "docker", "adapter_config", ok), "name"),
                arguments(Map.of("name", "a", "adapter_type", "docker", "adapter_config", ok, "owner", "x"), "owner"));
    }

    @ParameterizedTest
    @MethodSource("invalidAgents")
    void invalidAgentIsRefusedNamingTheFieldAndNothingIsStored(Map<String, Object> body, String field) {
        String company = Api.createCompany("Hooli");
        assertInvalidField(Api.postAgent(company, body), field);
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void agentForUnknownCompanyIsA404() {
        assertProblem(Api.postAgent(UUID.randomUUID().toString(),
                Map.of("name", "a", "adapter_type", "docker", "adapter_config", Map.of("image", "busybox"))), 404);
    }

    @Test
    void wrongContentTypeIsAProblem() {
        assertProblem(given().contentType(ContentType.TEXT).body("name=x").post("/api/companies").then(), 415);
    }

    @Test
    void unknownPathIsAProblem() {
        assertProblem(given().get("/api/nothing-here").then(), 404);
    }

    @Test
    void openApiDocumentDescribesTheRunsApi() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths", org.hamcrest.Matchers.hasKey("/api/companies/{company_id}/agents/{agent_id}/runs"));
    }
}
