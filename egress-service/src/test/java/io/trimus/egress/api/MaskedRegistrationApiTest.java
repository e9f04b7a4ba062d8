package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.egress.ca.EgressKeys;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.sandbox.replica.SandboxRegistryLoader;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SandboxMask;
import io.trimus.events.secrets.SandboxMasks;
import io.trimus.testing.OwnerDatabase;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * A sandbox registration carrying masked secrets: opened with the deployment's key, held in memory opened and stored
 * only sealed as it arrived, dropped at deregistration, opened again from the row after a restart (and awaited when
 * the row has no sealed copy); anything that does not open or is incomplete is a 400 that changes nothing.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class MaskedRegistrationApiTest {
    private static final String CA = "a".repeat(64);
    private static final SandboxMask MASK = new SandboxMask("GITHUB_TOKEN", "ghp_Surrogate00000000000000000000000000",
            "ghp_RealValueNeverStored111111111111111", List.of("api.github.com"), List.of("authorization"));

    @Inject
    EgressKeys keys;
    @Inject
    MaskedSecrets masked;
    @Inject
    SandboxRegistryLoader loader;

    private Map<String, Object> registration(UUID run, String ip, String sealed) {
        Map<String, Object> body = new HashMap<>();
        body.put("company_id", UUID.randomUUID().toString());
        body.put("agent_id", UUID.randomUUID().toString());
        body.put("run_id", run.toString());
        body.put("container_id", "3f2c9a1b7d4e");
        body.put("masks", sealed);
        body.put("ca", CA);
        return body;
    }

    private String seal(UUID run, String ip, List<SandboxMask> masks) {
        return new SandboxMasks(keys.dispatchKey().orElseThrow()).seal(run, ip, masks);
    }

    private static ValidatableResponse put(String ip, Object body) {
        return given().contentType(ContentType.JSON).body(body).put("/internal/sandboxes/{ip}", ip).then();
    }

    @Test
    void masksAreStoredOnlySealedAndDroppedAtDeregistration() throws Exception {
        UUID run = UUID.randomUUID();
        String ip = "172.30.0.61";

        put(ip, registration(run, ip, seal(run, ip, List.of(MASK)))).statusCode(204);

        RunMasks held = masked.of(ip, run).orElseThrow();
        assertThat(held.masks()).containsExactly(MASK);
        assertThat(held.caFingerprint()).isEqualTo(CA);
        assertThat(storedRow(ip)).containsPattern("masked=t(rue)? ").doesNotContain(MASK.value()).doesNotContain(
                MASK.surrogate()).contains("masks_ca=" + CA);

        given().queryParam("run_id", run).delete("/internal/sandboxes/{ip}", ip).then().statusCode(204);
        assertThat(masked.of(ip, run)).isEmpty();
        assertThat(masked.isWaiting(ip, run)).isFalse();
    }

    @Test
    void afterARestartAMaskedSandboxsMasksAreOpenedFromTheSealedCopyInItsRow() throws Throwable {
        UUID run = UUID.randomUUID();
        String ip = "172.30.0.62";
        put(ip, registration(run, ip, seal(run, ip, List.of(MASK)))).statusCode(204);

        masked.reset();
        loader.load();

        assertThat(masked.isWaiting(ip, run)).isFalse();
        assertThat(masked.of(ip, run).orElseThrow().masks()).containsExactly(MASK);
        given().queryParam("run_id", run).delete("/internal/sandboxes/{ip}", ip).then().statusCode(204);
    }

    @Test
    void aMaskedSandboxWithoutASealedCopyWaitsForItsMasksUntilTheAdapterSendsThemAgain() throws Throwable {
        UUID run = UUID.randomUUID();
        String ip = "172.30.0.65";
        Map<String, Object> body = registration(run, ip, seal(run, ip, List.of(MASK)));
        put(ip, body).statusCode(204);
        try (Connection owner = OwnerDatabase.connect(); PreparedStatement forget = owner.prepareStatement(
                "update egress.sandbox_registration set sealed_masks = null, masks_ca = null where ip = ?")) {
            // as a row stored before sealed copies were kept
            forget.setString(1, ip);
            forget.executeUpdate();
        }

        masked.reset();
        loader.load();

        assertThat(masked.isWaiting(ip, run)).isTrue();
        assertThat(masked.of(ip, run)).isEmpty();
        put(ip, body).statusCode(204);
        assertThat(masked.isWaiting(ip, run)).isFalse();
        assertThat(masked.of(ip, run)).isPresent();
        given().queryParam("run_id", run).delete("/internal/sandboxes/{ip}", ip).then().statusCode(204);
    }

    @Test
    void masksThatDoNotOpenOrAreIncompleteAreRefusedAndNothingIsRegistered() throws Exception {
        UUID run = UUID.randomUUID();
        String ip = "172.30.0.63";
        String forAnotherAddress = seal(run, "172.30.0.64", List.of(MASK));
        String underAnotherKey = new SandboxMasks(EncryptionKey.parse(
                "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0").dispatchKey())
                .seal(run, ip, List.of(MASK));
        SandboxMask noHosts = new SandboxMask("X", "ghp_Surrogate00000000000000000000000000", "v", List.of(), null);
        SandboxMask shortSurrogate = new SandboxMask("X", "short", "v", List.of("a.test"), null);

        put(ip, registration(run, ip, forAnotherAddress)).statusCode(400).body("field", equalTo("masks"));
        put(ip, registration(run, ip, underAnotherKey)).statusCode(400).body("field", equalTo("masks"));
        put(ip, registration(run, ip, "not base64 at all")).statusCode(400).body("field", equalTo("masks"));
        put(ip, registration(run, ip, seal(run, ip, List.of(noHosts)))).statusCode(400)
                .body("field", equalTo("masks[0]"));
        put(ip, registration(run, ip, seal(run, ip, List.of(shortSurrogate)))).statusCode(400)
                .body("field", equalTo("masks[0]"));
        Map<String, Object> noCa = registration(run, ip, seal(run, ip, List.of(MASK)));
        noCa.remove("ca");
        put(ip, noCa).statusCode(400).body("field", equalTo("ca")).body("detail", containsString("fingerprint"));

        assertThat(masked.of(ip, run)).isEmpty();
        assertThat(storedRow(ip)).isEqualTo("none");
    }

    private String storedRow(String ip) throws Exception {
        try (Connection c = OwnerDatabase.connect();
             PreparedStatement select = c.prepareStatement("select * from egress.sandbox_registration where ip = ?")) {
            select.setString(1, ip);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return "none";
                }
                StringBuilder text = new StringBuilder();
                for (int i = 1; i <= row.getMetaData().getColumnCount(); i++) {
                    text.append(row.getMetaData().getColumnName(i)).append('=').append(row.getString(i)).append(' ');
                }
                return text.toString();
            }
        }
    }

    /** Every call here is the adapter's: the internal endpoints take the service credential only. */
    private static io.restassured.specification.RequestSpecification given() {
        return EgressApi.asService();
    }
}
