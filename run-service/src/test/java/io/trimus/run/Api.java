package io.trimus.run;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/** The run-service API as tests call it. */
final class Api {
    private Api() {
    }

    static String createCompany(String name) {
        return given().contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/api/companies")
                .then().statusCode(201).extract().path("id");
    }

    static ValidatableResponse postAgent(String companyId, Object body) {
        return given().contentType(ContentType.JSON).body(body)
                .post("/api/companies/{c}/agents", companyId).then();
    }

    static String createDockerAgent(String companyId, Map<String, Object> config) {
        return postAgent(companyId, Map.of("name", "builder", "adapter_type", "docker", "adapter_config", config))
                .statusCode(201).extract().path("id");
    }

    static String startRun(String companyId, String agentId, Object body) {
        return given().contentType(ContentType.JSON).body(body)
                .post("/api/companies/{c}/agents/{a}/runs", companyId, agentId)
                .then().statusCode(202).body("status", equalTo("QUEUED")).extract().path("id");
    }

    static ValidatableResponse getRun(String companyId, String runId) {
        return given().get("/api/companies/{c}/runs/{r}", companyId, runId).then();
    }

    static String runStatus(String companyId, String runId) {
        return getRun(companyId, runId).statusCode(200).extract().path("status");
    }
}
