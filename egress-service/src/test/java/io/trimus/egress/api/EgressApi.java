package io.trimus.egress.api;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import io.trimus.events.EgressAnomaly;
import io.trimus.events.auth.ServiceCredential;
import io.trimus.events.secrets.EncryptionKey;
import org.eclipse.microprofile.config.ConfigProvider;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

/** The egress-service API as tests call it. */
final class EgressApi {
    private EgressApi() {
    }

    /**
     * The adapter's credential for the internal endpoints: the service credential of this test profile's
     * TRIMUS_ENCRYPTION_KEY.
     */
    static String serviceHeader() {
        return ServiceCredential.of(EncryptionKey.parse(ConfigProvider.getConfig()
                .getValue("trimus.encryption-key", String.class))).header();
    }

    /** A request to the internal endpoints, as the adapter sends it. */
    static RequestSpecification asService() {
        return given().header("Authorization", serviceHeader());
    }

    static ValidatableResponse putAllowlist(UUID company, Object body) {
        return given().contentType(ContentType.JSON).body(body)
                .put("/api/companies/{c}/egress/allowlist", company).then();
    }

    static List<String> allowlist(UUID company) {
        return given().get("/api/companies/{c}/egress/allowlist", company)
                .then().statusCode(200).extract().jsonPath().getList("entries", String.class);
    }

    static ValidatableResponse putPolicy(UUID company, Object body) {
        return given().contentType(ContentType.JSON).body(body)
                .put("/api/companies/{c}/egress/policy", company).then();
    }

    static ValidatableResponse policy(UUID company) {
        return given().get("/api/companies/{c}/egress/policy", company).then();
    }

    static ValidatableResponse anomalies(UUID company, Map<String, ?> query) {
        return given().queryParams(query).get("/api/companies/{c}/egress/anomalies", company).then();
    }

    /** Ids of the company's latest anomalies, newest first (at most 500). */
    static List<String> anomalyIds(UUID company) {
        return anomalies(company, Map.of("limit", 500)).statusCode(200)
                .extract().jsonPath().getList("id", String.class);
    }

    static ValidatableResponse runEgress(Object company, Object run, Map<String, ?> query) {
        return given().queryParams(query).get("/api/companies/{c}/runs/{r}/egress", company, run).then();
    }

    /** Waits until the run's record of the company holds {@code connections} connections. */
    static void awaitConnections(UUID company, UUID run, int connections, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(100))
                .until(() -> runEgress(company, run, Map.of()).statusCode(200).extract()
                        .<Integer>path("summary.connections") == connections);
    }

    static ValidatableResponse hourly(Object company, Map<String, ?> query) {
        return given().queryParams(query).get("/api/companies/{c}/egress/hourly", company).then();
    }

    static ValidatableResponse hourlyOfAll(Map<String, ?> query) {
        return given().queryParams(query).get("/api/egress/hourly").then();
    }

    /** Waits until the anomaly is listed for its company. */
    static void awaitListed(EgressAnomaly event, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(50))
                .until(() -> anomalyIds(event.companyId()).contains(event.id().toString()));
    }
}
