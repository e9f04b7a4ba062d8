package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.trimus.egress.connection.ConnectionRecord;
import io.trimus.egress.connection.ConnectionRecorder;
import io.trimus.egress.connection.ConnectionRetention;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.EgressApi.awaitConnections;
import static io.trimus.egress.api.EgressApi.runEgress;
import static io.trimus.egress.connection.TestConnections.allowed;
import static io.trimus.egress.connection.TestConnections.refused;
import static io.trimus.egress.connection.TestConnections.sandbox;
import static io.trimus.testing.Problems.assertInvalidField;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * What a run talked to: records handed to the recorder bean (as the proxy does when a connection ends) reach
 * PostgreSQL and come back through {@code GET /api/companies/{id}/runs/{run_id}/egress}, only to their company.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RunEgressApiTest {
    private static final Duration STORED = Duration.ofSeconds(10);

    @Inject
    ConnectionRecorder recorder;

    @Inject
    ConnectionRetention retention;

    @Test
    void aRunsConnectionsAreSummedPerHostAndListedNewestFirst() {
        UUID company = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        Sandbox sandbox = sandbox(company, run);
        Instant t = Instant.now().truncatedTo(ChronoUnit.MICROS).minusSeconds(60);
        recorder.record(allowed(sandbox, "api.anthropic.com", 443, 100, 1000, t));
        recorder.record(allowed(sandbox, "api.anthropic.com", 443, 200, 2000, t.plusSeconds(1)));
        recorder.record(allowed(sandbox, "api.anthropic.com", 443, 300, 3000, t.plusSeconds(2)));
        recorder.record(allowed(sandbox, "github.com", 443, 50, 60, t.plusSeconds(3)));
        recorder.record(refused(sandbox, "evil.example", 443, "proxy_not_allowlisted", t.plusSeconds(4)));
        recorder.record(allowed(sandbox(company, UUID.randomUUID()), "pypi.org", 443, 9, 9, t));

        awaitConnections(company, run, 5, STORED);

        runEgress(company, run, Map.of()).statusCode(200)
                .body("run_id", equalTo(run.toString()))
                .body("summary.connections", equalTo(5))
                .body("summary.allowed", equalTo(4))
                .body("summary.refused", equalTo(1))
                .body("summary.bytes_out", equalTo(650))
                .body("summary.bytes_in", equalTo(6060))
                .body("summary.hosts.host", equalTo(List.of("api.anthropic.com", "evil.example", "github.com")))
                .body("summary.hosts[0].port", equalTo(443))
                .body("summary.hosts[0].connections", equalTo(3))
                .body("summary.hosts[0].bytes_out", equalTo(600))
                .body("summary.hosts[0].bytes_in", equalTo(6000))
                .body("summary.hosts[0].refused", equalTo(0))
                .body("summary.hosts[1].refused", equalTo(1))
                .body("connections.host", equalTo(List.of("evil.example", "github.com", "api.anthropic.com",
                        "api.anthropic.com", "api.anthropic.com")))
                .body("connections.bytes_out", equalTo(List.of(0, 50, 300, 200, 100)))
                .body("connections[0].decision", equalTo("refused"))
                .body("connections[0].reason", equalTo("proxy_not_allowlisted"))
                .body("connections[0].address", nullValue())
                .body("connections[1].decision", equalTo("allowed"))
                .body("connections[1].reason", equalTo("-"))
                .body("connections[1].way", equalTo("explicit"))
                .body("connections[1].address", equalTo("203.0.113.7"))
                .body("connections[1].sandbox_ip", equalTo("172.30.0.23"))
                .body("connections[1].enforced", equalTo(true))
                .body("connections[1].bytes_in", equalTo(60))
                .body("connections[1].duration_ms", equalTo(1457))
                .body("connections[1].started_at", equalTo(t.plusSeconds(3).toString()));
        runEgress(company, run, Map.of("limit", 2)).statusCode(200)
                .body("summary.connections", equalTo(5))
                .body("connections.host", equalTo(List.of("evil.example", "github.com")));
    }

    @Test
    void theMaskedSecretsARunUsedAreListedPerSecretAndHostByName() {
        UUID company = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        Sandbox sandbox = sandbox(company, run);
        Instant t = Instant.now().truncatedTo(ChronoUnit.MICROS).minusSeconds(60);
        recorder.record(swapped(allowed(sandbox, "api.github.com", 443, 10, 10, t), Map.of("GITHUB_TOKEN", 2)));
        recorder.record(swapped(allowed(sandbox, "api.github.com", 443, 10, 10, t.plusSeconds(1)),
                Map.of("GITHUB_TOKEN", 3, "NPM_TOKEN", 1)));
        recorder.record(swapped(allowed(sandbox, "uploads.github.com", 443, 10, 10, t.plusSeconds(2)),
                Map.of("GITHUB_TOKEN", 1)));
        recorder.record(allowed(sandbox, "pypi.org", 443, 10, 10, t.plusSeconds(3)));

        awaitConnections(company, run, 4, STORED);

        runEgress(company, run, Map.of()).statusCode(200)
                .body("masked_secrets.secret", equalTo(List.of("GITHUB_TOKEN", "GITHUB_TOKEN", "NPM_TOKEN")))
                .body("masked_secrets.host", equalTo(List.of("api.github.com", "uploads.github.com",
                        "api.github.com")))
                .body("masked_secrets.requests", equalTo(List.of(5, 1, 1)));
        runEgress(UUID.randomUUID(), run, Map.of()).statusCode(200).body("masked_secrets", equalTo(List.of()));
    }

    private static ConnectionRecord swapped(ConnectionRecord r, Map<String, Integer> swaps) {
        return new ConnectionRecord(r.sandbox(), r.way(), r.host(), r.port(), r.address(), r.decision(), r.reason(),
                r.enforced(), r.bytesOut(), r.bytesIn(), r.startedAt(), r.durationMillis(), swaps);
    }

    @Test
    void anotherCompanyGuessingTheRunIdSeesNothingOfIt() {
        UUID owner = UUID.randomUUID();
        UUID intruder = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        recorder.record(allowed(sandbox(owner, run), "api.anthropic.com", 443, 41_000, 1_200_000, Instant.now()));
        awaitConnections(owner, run, 1, STORED);

        runEgress(intruder, run, Map.of()).statusCode(200)
                .body("run_id", equalTo(run.toString()))
                .body("summary.connections", equalTo(0))
                .body("summary.bytes_out", equalTo(0))
                .body("summary.bytes_in", equalTo(0))
                .body("summary.hosts", empty())
                .body("connections", empty());
    }

    @Test
    void anUnknownRunHasNoConnections() {
        runEgress(UUID.randomUUID(), UUID.randomUUID(), Map.of()).statusCode(200)
                .body("summary.connections", equalTo(0))
                .body("summary.allowed", equalTo(0))
                .body("summary.refused", equalTo(0))
                .body("summary.hosts", empty())
                .body("connections", empty());
    }

    @Test
    void badIdsAndLimitsAreRefusedNamingTheParameter() {
        UUID id = UUID.randomUUID();
        assertInvalidField(runEgress("not-a-uuid", id, Map.of()), "company_id");
        assertInvalidField(runEgress(id, "not-a-uuid", Map.of()), "run_id");
        for (String limit : List.of("0", "1001", "ten", "-1", "1.5")) {
            assertInvalidField(runEgress(id, id, Map.of("limit", limit)), "limit");
        }
        runEgress(id, id, Map.of("limit", 1000)).statusCode(200);
    }

    @Test
    void manyConnectionsAtOnceAreAllStoredInBatches() {
        UUID company = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        Sandbox sandbox = sandbox(company, run);
        Instant t = Instant.now();
        for (int i = 0; i < 600; i++) {
            recorder.record(allowed(sandbox, "registry.npmjs.org", 443, 1, 2, t.plusMillis(i)));
        }

        awaitConnections(company, run, 600, STORED);

        runEgress(company, run, Map.of("limit", 1000)).statusCode(200)
                .body("connections", hasSize(600))
                .body("summary.bytes_in", equalTo(1200));
    }

    @Test
    void aHostLongerThanANameCanBeIsStoredCut() {
        UUID company = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        String host = String.join(".", Collections.nCopies(60, "abcde"));
        recorder.record(allowed(sandbox(company, run), host, 443, 1, 1, Instant.now()));

        awaitConnections(company, run, 1, STORED);

        runEgress(company, run, Map.of()).statusCode(200)
                .body("connections[0].host", equalTo(host.substring(0, 253)));
    }

    @Test
    void theOpenApiDocumentDescribesTheRunRecordAndTheChart() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.'/api/companies/{company_id}/runs/{run_id}/egress'.get", notNullValue())
                .body("paths.'/api/companies/{company_id}/egress/hourly'.get", notNullValue())
                .body("paths.'/api/egress/hourly'.get", notNullValue());
    }

    @Test
    void recordsOlderThanTheRetentionAreDeleted() throws Throwable {
        UUID company = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        Sandbox sandbox = sandbox(company, run);
        Instant now = Instant.now();
        recorder.record(allowed(sandbox, "old.example", 443, 1, 1, now.minus(Duration.ofDays(31))));
        recorder.record(allowed(sandbox, "recent.example", 443, 1, 1, now.minus(Duration.ofDays(29))));
        awaitConnections(company, run, 2, STORED);

        VertxContextSupport.subscribeAndAwait(() -> retention.purge());

        runEgress(company, run, Map.of()).statusCode(200)
                .body("connections.host", equalTo(List.of("recent.example")));
    }
}
