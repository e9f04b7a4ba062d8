package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.egress.ca.EgressKeys;
import io.trimus.egress.feed.ListenerOptions;
import io.trimus.egress.masks.MaskOpener;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.egress.sandbox.replica.RegistrationFeed;
import io.trimus.egress.sandbox.replica.RegistryReplica;
import io.trimus.egress.sandbox.replica.SandboxRegistryLoader;
import io.trimus.egress.sandbox.replica.StoredRegistrations;
import io.trimus.events.secrets.SandboxMask;
import io.trimus.events.secrets.SandboxMasks;
import io.trimus.testing.OwnerDatabase;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * Several egress-service replicas answer for the same sandboxes: the running service follows what another replica
 * stores, and stays ready when its listening connection is killed; a second replica, with a registry, masked secrets
 * and a listening connection of its own on the same database, learns every registration and deregistration made
 * through the running service, reloads everything when its listening connection is killed (changes made meanwhile were never
 * announced to it), opens the sealed masks of a masked run it never received, and keeps such a sandbox waiting (its
 * connections refused) when it cannot open them.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class SandboxReplicasTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String CA = "b".repeat(64);
    private static final UUID AGENT = UUID.randomUUID();
    private static final SandboxMask MASK = new SandboxMask("GITHUB_TOKEN", "ghp_Surrogate22222222222222222222222222",
            "ghp_RealValueOfTheReplicaTest3333333333", List.of("api.github.com"), List.of("authorization"));

    @Inject
    Vertx vertx;
    @Inject
    StoredRegistrations stored;
    @Inject
    EgressKeys keys;
    @Inject
    SandboxRegistry first;
    @Inject
    SandboxRegistryLoader loader;
    @ConfigProperty(name = "quarkus.datasource.reactive.url")
    String url;
    @ConfigProperty(name = "quarkus.datasource.username")
    Optional<String> user;
    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    private final List<RegistrationFeed> feeds = new ArrayList<>();

    /** A replica with its own memory and listening connection, opening masks with {@code key}. */
    private RegistryReplica replica(EgressKeys key) {
        RegistryReplica replica = new RegistryReplica(new SandboxRegistry(), new MaskedSecrets(), new MaskOpener(key));
        RegistrationFeed feed = new RegistrationFeed(vertx, ListenerOptions.of(url, user, password),
                replica, stored, UUID.randomUUID().toString(), Duration.ofHours(1));
        feeds.add(feed);
        feed.start(WAIT).await().atMost(WAIT);
        assertThat(feed.isLive()).isTrue();
        return replica;
    }

    @AfterEach
    void stopReplicas() {
        feeds.forEach(RegistrationFeed::stop);
    }

    @Test
    void registrationsAndDeregistrationsThroughTheServiceReachASecondReplica() {
        RegistryReplica second = replica(keys);
        UUID company = UUID.randomUUID();
        UUID run = UUID.randomUUID();
        String ip = "172.30.0.71";

        put(ip, registration(company, run, null)).statusCode(204);
        await().atMost(WAIT).until(() -> second.registry().lookup(ip).isPresent());
        assertThat(second.registry().lookup(ip).orElseThrow().companyId()).isEqualTo(company);
        assertThat(second.registry().lookup(ip).orElseThrow().containerId()).isNull();

        put(ip, registration(company, run, "9d8c7b6a5f4e")).statusCode(204);
        await().atMost(WAIT).until(() -> "9d8c7b6a5f4e".equals(second.registry().lookup(ip).orElseThrow()
                .containerId()));

        delete(ip, run).statusCode(204);
        await().atMost(WAIT).until(() -> second.registry().lookup(ip).isEmpty());
        assertThat(first.lookup(ip)).isEmpty();
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'egress-sandbox-registry' }.status", equalTo("UP"));
    }

    @Test
    void aReplicaWhoseListeningConnectionIsKilledReloadsWhatChangedMeanwhile() throws Exception {
        RegistryReplica second = replica(keys);
        RegistrationFeed feed = feeds.get(0);
        UUID company = UUID.randomUUID();
        UUID kept = UUID.randomUUID();
        UUID silentlyRemoved = UUID.randomUUID();
        put("172.30.0.72", registration(company, kept, "c1")).statusCode(204);
        put("172.30.0.73", registration(company, silentlyRemoved, "c2")).statusCode(204);
        await().atMost(WAIT).until(() -> second.registry().lookup("172.30.0.73").isPresent());

        UUID silentlyAdded = UUID.randomUUID();
        try (Connection owner = OwnerDatabase.connect(); Statement sql = owner.createStatement()) {
            // with triggers off these changes are never announced: only a reload can show them
            sql.execute("set session_replication_role = replica");
            sql.executeUpdate("insert into egress.sandbox_registration (ip, company_id, agent_id, run_id,"
                    + " container_id, registered_at) values ('172.30.0.74', '" + company + "', '"
                    + UUID.randomUUID() + "', '" + silentlyAdded + "', 'c3', now())");
            sql.executeUpdate("delete from egress.sandbox_registration where ip = '172.30.0.73'");
        }
        UUID marker = UUID.randomUUID();
        put("172.30.0.75", registration(company, marker, "c4")).statusCode(204);
        await().atMost(WAIT).until(() -> second.registry().lookup("172.30.0.75").isPresent());
        assertThat(second.registry().lookup("172.30.0.74")).isEmpty();
        assertThat(second.registry().lookup("172.30.0.73")).isPresent();

        int killed = feed.listenerProcessId();
        try (Connection owner = OwnerDatabase.connect();
             PreparedStatement kill = owner.prepareStatement("select pg_terminate_backend(?)")) {
            kill.setInt(1, killed);
            kill.execute();
        }

        await().atMost(WAIT).until(() -> second.registry().lookup("172.30.0.74").isPresent()
                && second.registry().lookup("172.30.0.73").isEmpty());
        await().atMost(WAIT).until(() -> feed.isLive() && feed.listenerProcessId() != killed);
        assertThat(second.registry().lookup("172.30.0.74").orElseThrow().runId()).isEqualTo(silentlyAdded);
        assertThat(second.registry().lookup("172.30.0.72")).isPresent();

        UUID afterwards = UUID.randomUUID();
        put("172.30.0.76", registration(company, afterwards, "c5")).statusCode(204);
        await().atMost(WAIT).until(() -> second.registry().lookup("172.30.0.76").isPresent());
        for (Map.Entry<String, UUID> sandbox : Map.of("172.30.0.72", kept, "172.30.0.74", silentlyAdded,
                "172.30.0.75", marker, "172.30.0.76", afterwards).entrySet()) {
            delete(sandbox.getKey(), sandbox.getValue()).statusCode(204);
        }
    }

    @Test
    void aReplicaOpensTheSealedMasksItNeverReceivedAndOneThatCannotKeepsTheSandboxWaiting() {
        RegistryReplica second = replica(keys);
        RegistryReplica otherKey = replica(new EgressKeys(Optional.of(
                "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0")));
        UUID run = UUID.randomUUID();
        String ip = "172.30.0.77";
        String sealed = new SandboxMasks(keys.dispatchKey().orElseThrow()).seal(run, ip, List.of(MASK));
        Map<String, Object> body = registration(UUID.randomUUID(), run, "3f2c9a1b7d4e");
        body.put("masks", sealed);
        body.put("ca", CA);

        put(ip, body).statusCode(204);

        await().atMost(WAIT).until(() -> second.masked().of(ip, run).isPresent());
        assertThat(second.masked().of(ip, run).orElseThrow().masks()).containsExactly(MASK);
        assertThat(second.masked().of(ip, run).orElseThrow().caFingerprint()).isEqualTo(CA);
        assertThat(second.masked().isWaiting(ip, run)).isFalse();
        await().atMost(WAIT).until(() -> otherKey.registry().lookup(ip).isPresent());
        // attributed, but its masks unknown: the proxy refuses its connections (masks_pending), nothing unswapped
        assertThat(otherKey.masked().isWaiting(ip, run)).isTrue();
        assertThat(otherKey.masked().of(ip, run)).isEmpty();

        delete(ip, run).statusCode(204);
        await().atMost(WAIT).until(() -> second.registry().lookup(ip).isEmpty()
                && otherKey.registry().lookup(ip).isEmpty());
        assertThat(second.masked().of(ip, run)).isEmpty();
        assertThat(otherKey.masked().isWaiting(ip, run)).isFalse();
    }

    @Test
    void theServiceFollowsWhatAnotherReplicaStoresAndStaysReadyWhenItsListeningConnectionIsKilled() throws Exception {
        String ip = "172.30.0.78";
        UUID run = UUID.randomUUID();
        try (Connection owner = OwnerDatabase.connect(); Statement sql = owner.createStatement()) {
            // as another replica's registration: the row, announced by the trigger
            sql.executeUpdate("insert into egress.sandbox_registration (ip, company_id, agent_id, run_id,"
                    + " container_id, registered_at) values ('" + ip + "', '" + UUID.randomUUID() + "', '" + AGENT
                    + "', '" + run + "', 'c6', now())");
        }
        await().atMost(WAIT).until(() -> first.lookup(ip).isPresent());

        RegistrationFeed feed = loader.feed();
        int killed = feed.listenerProcessId();
        try (Connection owner = OwnerDatabase.connect();
             PreparedStatement kill = owner.prepareStatement("select pg_terminate_backend(?)")) {
            kill.setInt(1, killed);
            kill.execute();
        }
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'egress-sandbox-registry' }.status", equalTo("UP"));
        await().atMost(WAIT).until(() -> feed.isLive() && feed.listenerProcessId() != killed);

        try (Connection owner = OwnerDatabase.connect(); Statement sql = owner.createStatement()) {
            sql.executeUpdate("delete from egress.sandbox_registration where ip = '" + ip + "'");
        }
        await().atMost(WAIT).until(() -> first.lookup(ip).isEmpty());
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'egress-sandbox-registry' }.data.following_changes", equalTo(true));
    }

    private static Map<String, Object> registration(UUID company, UUID run, String containerId) {
        Map<String, Object> body = new HashMap<>();
        body.put("company_id", company.toString());
        body.put("agent_id", AGENT.toString());
        body.put("run_id", run.toString());
        if (containerId != null) {
            body.put("container_id", containerId);
        }
        return body;
    }

    private static ValidatableResponse put(String ip, Object body) {
        return given().contentType(ContentType.JSON).body(body).put("/internal/sandboxes/{ip}", ip).then();
    }

    private static ValidatableResponse delete(String ip, UUID run) {
        return given().queryParam("run_id", run).delete("/internal/sandboxes/{ip}", ip).then();
    }

    /** Every call here is the adapter's: the internal endpoints take the service credential only. */
    private static io.restassured.specification.RequestSpecification given() {
        return EgressApi.asService();
    }
}
