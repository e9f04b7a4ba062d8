package io.trimus.adapter.e2e;

import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import io.trimus.testing.ServiceProcess;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

/**
 * The real run-service, started from its built fast-jar against this test's Kafka and PostgreSQL, and its
 * public API as a client sees it. The adapter service under test runs in the test's own Quarkus app.
 */
final class RunServiceApi implements AutoCloseable {
    private final ServiceProcess process;
    private final RequestSpecification spec;

    private RunServiceApi(ServiceProcess process) {
        this.process = process;
        this.spec = new RequestSpecBuilder().setBaseUri(process.baseUri().toString())
                .addHeader("Authorization", io.trimus.testing.TestOperator.HEADER).build();
    }

    private static RunServiceApi shared;

    /**
     * The run-service the end-to-end classes share: started by the first that needs it, left running for the rest of
     * the test JVM (its shutdown hook stops it), so the classes pay for one boot, not one each.
     */
    static synchronized RunServiceApi shared() {
        if (shared == null || !shared.process.isAlive()) {
            shared = start();
        }
        return shared;
    }

    private static RunServiceApi start() {
        Config config = ConfigProvider.getConfig();
        ServiceProcess process = ServiceProcess.start(Path.of("..", "run-service"), Map.of(
                "kafka.bootstrap.servers", config.getValue("kafka.bootstrap.servers", String.class),
                "quarkus.datasource.reactive.url", config.getValue("quarkus.datasource.reactive.url", String.class),
                "quarkus.datasource.jdbc.url", config.getValue("quarkus.datasource.jdbc.url", String.class),
                "trimus.outbox.poll-interval", "500ms",
                // the test operator: the default caller of every request below
                "trimus.bootstrap.operator-token", io.trimus.testing.TestOperator.TOKEN,
                // the key the app under test opens run secrets with (TRIMUS_ENCRYPTION_KEY, set by surefire)
                "trimus.encryption-key", config.getValue("trimus.encryption-key", String.class)));
        return new RunServiceApi(process);
    }

    String createCompany(String name) {
        return given(spec).contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/api/companies").then().statusCode(201).extract().path("id");
    }

    String createDockerAgent(String company, Map<String, Object> config) {
        return given(spec).contentType(ContentType.JSON)
                .body(Map.of("name", "e2e", "adapter_type", "docker", "adapter_config", config))
                .post("/api/companies/{c}/agents", company).then().statusCode(201).extract().path("id");
    }

    /** POST …/agents with any body, e.g. a remote agent. */
    ValidatableResponse postAgent(String company, Map<String, Object> body) {
        return given(spec).contentType(ContentType.JSON).body(body)
                .post("/api/companies/{c}/agents", company).then();
    }

    /** The operator grants the worker tag to the company. */
    void grantWorkerTag(String company, String tag) {
        given(spec).put("/api/companies/{c}/worker-tags/{t}", company, tag).then().statusCode(200);
    }

    ValidatableResponse revokeWorkerTag(String company, String tag) {
        return given(spec).delete("/api/companies/{c}/worker-tags/{t}", company, tag).then();
    }

    ValidatableResponse postRun(String company, String agent, Map<String, Object> body) {
        return given(spec).contentType(ContentType.JSON).body(body)
                .post("/api/companies/{c}/agents/{a}/runs", company, agent).then();
    }

    String startRun(String company, String agent, Map<String, Object> body) {
        return given(spec).contentType(ContentType.JSON).body(body)
                .post("/api/companies/{c}/agents/{a}/runs", company, agent)
                .then().statusCode(202).extract().path("id");
    }

    ValidatableResponse run(String company, String run) {
        return given(spec).get("/api/companies/{c}/runs/{r}", company, run).then().statusCode(200);
    }

    ValidatableResponse cancel(String company, String run) {
        return given(spec).post("/api/companies/{c}/runs/{r}/cancel", company, run).then();
    }

    String status(String company, String run) {
        return run(company, run).extract().path("status");
    }

    /** Waits for the run to reach {@code status} and returns its final representation. */
    ValidatableResponse awaitStatus(String company, String run, String status, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(200))
                .until(() -> status.equals(status(company, run)));
        return run(company, run);
    }

    String logTail() {
        return process.logTail();
    }

    @Override
    public void close() {
        process.close();
    }
}
