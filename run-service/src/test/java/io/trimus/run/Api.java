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

    static ValidatableResponse postRun(String companyId, String agentId, Object body) {
        return given().contentType(ContentType.JSON).body(body)
                .post("/api/companies/{c}/agents/{a}/runs", companyId, agentId).then();
    }

    static String createAgent(String companyId, String adapterType, Map<String, Object> config) {
        return postAgent(companyId, Map.of("name", adapterType + " agent", "adapter_type", adapterType,
                "adapter_config", config)).statusCode(201).extract().path("id");
    }

    static ValidatableResponse putSecret(String companyId, String name, Object body) {
        return given().contentType(ContentType.JSON).body(body)
                .put("/api/companies/{c}/secrets/{n}", companyId, name).then();
    }

    /** Creates or replaces the secret; 200 or 201. */
    static void setSecret(String companyId, String name, String value) {
        putSecret(companyId, name, Map.of("value", value))
                .statusCode(org.hamcrest.Matchers.anyOf(equalTo(200), equalTo(201)));
    }

    static ValidatableResponse listSecrets(String companyId) {
        return given().get("/api/companies/{c}/secrets", companyId).then();
    }

    static ValidatableResponse deleteSecret(String companyId, String name) {
        return given().delete("/api/companies/{c}/secrets/{n}", companyId, name).then();
    }

    static ValidatableResponse putWorkerTag(String companyId, String tag) {
        return given().put("/api/companies/{c}/worker-tags/{t}", companyId, tag).then();
    }

    /** The operator grants the worker tag to the company. */
    static void grantWorkerTag(String companyId, String tag) {
        putWorkerTag(companyId, tag).statusCode(200);
    }

    static ValidatableResponse revokeWorkerTag(String companyId, String tag) {
        return given().delete("/api/companies/{c}/worker-tags/{t}", companyId, tag).then();
    }

    static ValidatableResponse listWorkerTags(String companyId) {
        return given().get("/api/companies/{c}/worker-tags", companyId).then();
    }

    static ValidatableResponse listRuns(String companyId) {
        return given().get("/api/companies/{c}/runs", companyId).then();
    }

    static ValidatableResponse getRun(String companyId, String runId) {
        return given().get("/api/companies/{c}/runs/{r}", companyId, runId).then();
    }

    static String runStatus(String companyId, String runId) {
        return getRun(companyId, runId).statusCode(200).extract().path("status");
    }
}
