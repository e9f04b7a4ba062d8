package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

/** The backends of {@link SystemStack} as the tests use them: set up data directly, switch a backend off. */
final class Stack {
    private Stack() {
    }

    static String config(String key) {
        return SystemStack.config(key);
    }

    static RequestSpecification runService() {
        return given().baseUri(config(SystemStack.RUN_SERVICE_KEY)).contentType(ContentType.JSON);
    }

    static RequestSpecification egressService() {
        return given().baseUri(config(SystemStack.EGRESS_SERVICE_KEY)).contentType(ContentType.JSON);
    }

    static String createCompany(String name) {
        return runService().body(Map.of("name", name)).post("/api/companies").then().statusCode(201)
                .extract().path("id");
    }

    static String createAgent(String company, String name, String adapterType, Map<String, Object> config) {
        return runService().body(Map.of("name", name, "adapter_type", adapterType, "adapter_config", config))
                .post("/api/companies/{c}/agents", company).then().statusCode(201).extract().path("id");
    }

    static String startRun(String company, String agent, Map<String, Object> body) {
        return runService().body(body).post("/api/companies/{c}/agents/{a}/runs", company, agent).then()
                .statusCode(202).extract().path("id");
    }

    /** Waits until the run has finished and returns its final status. */
    static String awaitFinished(String company, String run) {
        return await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .until(() -> runService().get("/api/companies/{c}/runs/{r}", company, run).then().statusCode(200)
                        .extract().<String>path("status"),
                        s -> List.of("SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED").contains(s));
    }

    static List<String> allowlist(String company) {
        return egressService().get("/api/companies/{c}/egress/allowlist", company).then().statusCode(200)
                .extract().jsonPath().getList("entries", String.class);
    }

    static void setAllowlist(String company, String... entries) {
        egressService().body(Map.of("entries", List.of(entries)))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);
    }

    /** Switches {@code backend} (run-service or egress-service) off for the dashboard: its port refuses connections. */
    static void down(String backend) {
        control(backend, "down");
    }

    static void up(String backend) {
        control(backend, "up");
    }

    private static void control(String backend, String action) {
        try {
            HttpResponse<Void> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(config(SystemStack.SWITCH_KEY) + "/" + backend + "/" + action))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() != 204) {
                throw new IllegalStateException("switch " + backend + " " + action + ": HTTP " + response.statusCode());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String unique(String prefix) {
        return prefix + " " + UUID.randomUUID().toString().substring(0, 8);
    }
}
