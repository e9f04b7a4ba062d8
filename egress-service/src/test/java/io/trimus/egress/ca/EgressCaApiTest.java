package io.trimus.egress.ca;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.restassured.response.Response;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.secrets.SecretBox;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.restassured.RestAssured.given;
import static io.restassured.RestAssured.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static io.trimus.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * The egress CA through the API and PostgreSQL: served, listed, rotated, stored sealed, and found again after a
 * restart.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class EgressCaApiTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    EgressCaService service;

    @Inject
    EgressCaRepository repository;

    @Inject
    EgressKeys keys;

    @Inject
    Vertx vertx;

    @Inject
    DataSource database;

    /** Another egress-service over the same database: nothing of this one's memory, the same TRIMUS_ENCRYPTION_KEY. */
    private EgressCaService restarted() {
        return new EgressCaService(keys, repository, new LeafPolicy(Duration.ofDays(7), 16), Clock.systemUTC(), vertx);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(WAIT);
    }

    @Test
    void theCaEndpointServesTheActiveCertificateWithItsFingerprintAndNeverItsKey() throws Exception {
        Response response = when().get("/api/egress/ca").then().statusCode(200)
                .contentType("application/x-pem-file").extract().response();

        String pem = response.asString();
        X509Certificate served = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
        assertThat(pem).startsWith("-----BEGIN CERTIFICATE-----").doesNotContain("PRIVATE KEY");
        assertThat(response.header("X-Trimus-Ca-Fingerprint")).isEqualTo(CaCertificates.fingerprint(served))
                .isEqualTo(await(service.current()).fingerprint());
        assertThat(served.getSubjectX500Principal().getName()).isEqualTo("CN=Trimus egress CA,O=Trimus");
    }

    @Test
    void rotationMakesANewActiveCaAndKeepsTheOldOneForTheSandboxesThatTrustIt() {
        String before = when().get("/api/egress/ca").then().statusCode(200).extract().header("X-Trimus-Ca-Fingerprint");

        Map<String, Object> rotated = when().post("/api/egress/ca/rotation").then().statusCode(201)
                .contentType("application/json").body("active", equalTo(true)).extract().jsonPath().getMap("");

        String after = (String) rotated.get("fingerprint");
        assertThat(after).matches("[0-9a-f]{64}").isNotEqualTo(before);
        assertThat(rotated.get("created_at")).isNotNull();
        when().get("/api/egress/ca").then().statusCode(200).header("X-Trimus-Ca-Fingerprint", after);
        assertThat(await(service.byFingerprint(before))).hasValueSatisfying(old -> assertThat(old.fingerprint())
                .isEqualTo(before));
        assertThat(await(restarted().byFingerprint(before))).as("a retired CA opens after a restart too").isPresent();

        List<Map<String, Object>> listed = when().get("/api/egress/ca/authorities").then().statusCode(200)
                .contentType("application/json").extract().jsonPath().getList("");
        assertThat(listed.get(0)).containsEntry("fingerprint", after).containsEntry("active", true)
                .containsEntry("retired_at", null);
        assertThat(listed).filteredOn(ca -> before.equals(ca.get("fingerprint"))).singleElement()
                .satisfies(old -> {
                    assertThat(old).containsEntry("active", false);
                    assertThat(old.get("retired_at")).isNotNull();
                });
        assertThat(listed).filteredOn(ca -> Boolean.TRUE.equals(ca.get("active"))).hasSize(1);
    }

    @Test
    void theCaSurvivesARestartWithTheSameKey() throws Exception {
        EgressAuthority running = await(service.current());

        EgressAuthority reopened = await(restarted().current());

        assertThat(reopened).isNotSameAs(running);
        assertThat(reopened.fingerprint()).isEqualTo(running.fingerprint());
        X509Certificate leaf = reopened.keyManager().getCertificateChain("api.anthropic.test")[0];
        leaf.verify(running.certificate().getPublicKey());   // signed with the very key stored before the restart
        assertThat(await(restarted().byFingerprint("0".repeat(64)))).isEmpty();
        assertThat(await(restarted().byFingerprint("not a fingerprint"))).isEmpty();
    }

    @Test
    void theStoredRowHoldsTheKeyOnlySealedUnderTheEncryptionKey() throws Exception {
        String fingerprint = await(service.current()).fingerprint();
        byte[] sealed;
        String certificatePem;
        try (Connection connection = database.getConnection();
             PreparedStatement query = connection.prepareStatement(
                     "select certificate_pem, key_ciphertext from egress.egress_ca where fingerprint = ?")) {
            query.setString(1, fingerprint);
            try (ResultSet row = query.executeQuery()) {
                assertThat(row.next()).isTrue();
                certificatePem = row.getString(1);
                sealed = row.getBytes(2);
            }
        }

        assertThat(certificatePem).doesNotContain("PRIVATE KEY");
        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("PRIVATE KEY")
                .doesNotContain("-----");
        assertThat(new CaKeySeal(keys.encryptionKey().orElseThrow()).open(sealed, fingerprint)).isNotNull();
        assertThatThrownBy(() -> new CaKeySeal(CaKeySealTest.OTHER_KEY).open(sealed, fingerprint))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        EgressCaService otherKey = new EgressCaService(new EgressKeys(Optional.of(
                "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")), repository,
                new LeafPolicy(Duration.ofDays(7), 16), Clock.systemUTC(), vertx);
        assertThatThrownBy(() -> await(otherKey.current())).hasMessageContaining("does not open with this"
                + " TRIMUS_ENCRYPTION_KEY").hasMessageNotContaining("0102030405");
    }

    @Test
    void twoReplicasStartingTogetherOnAnEmptyDatabaseAgreeOnOneCa() throws Exception {
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
                statement.executeUpdate("delete from egress.egress_ca");
            }

            List<EgressAuthority> started = await(Uni.join().all(restarted().current(), restarted().current(),
                    restarted().current()).andFailFast());

            assertThat(started).extracting(EgressAuthority::fingerprint).containsOnly(started.get(0).fingerprint());
            try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                 ResultSet count = statement.executeQuery("select count(*) from egress.egress_ca")) {
                count.next();
                assertThat(count.getInt(1)).isEqualTo(1);
            }
        }
        given().when().get("/api/egress/ca").then().statusCode(200);
    }

    @Test
    void aCaStoredUnderAnotherKeyAnswers503UntilRotated() throws Exception {
        CaCertificates.Issued foreign = CaCertificates.newAuthority(java.time.Instant.now());
        String fingerprint = CaCertificates.fingerprint(foreign.certificate());
        try (Connection connection = database.getConnection();
             Statement retire = connection.createStatement();
             PreparedStatement insert = connection.prepareStatement("insert into egress.egress_ca (fingerprint,"
                     + " certificate_pem, key_ciphertext, created_at) values (?, ?, ?, now())")) {
            retire.executeUpdate("update egress.egress_ca set retired_at = now() where retired_at is null");
            insert.setString(1, fingerprint);
            insert.setString(2, Pem.certificate(foreign.certificate()));
            insert.setBytes(3, new CaKeySeal(CaKeySealTest.OTHER_KEY).seal(foreign.keys().getPrivate(), fingerprint));
            insert.executeUpdate();
        }

        assertProblem(when().get("/api/egress/ca").then(), 503)
                .body("detail", containsString("does not open with this TRIMUS_ENCRYPTION_KEY"))
                .body("detail", containsString("POST /api/egress/ca/rotation"));

        String rotated = when().post("/api/egress/ca/rotation").then().statusCode(201).extract().path("fingerprint");
        when().get("/api/egress/ca").then().statusCode(200).header("X-Trimus-Ca-Fingerprint", rotated);
    }

    @Test
    void aSecondActiveCaIsNeverStored() throws Throwable {
        String active = await(service.current()).fingerprint();
        CaCertificates.Issued other = CaCertificates.newAuthority(java.time.Instant.now());
        StoredAuthority row = new StoredAuthority();
        row.fingerprint = CaCertificates.fingerprint(other.certificate());
        row.certificatePem = Pem.certificate(other.certificate());
        row.keyCiphertext = new CaKeySeal(keys.encryptionKey().orElseThrow()).seal(other.keys().getPrivate(),
                row.fingerprint);
        row.createdAt = java.time.Instant.now();

        boolean stored = VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.acrossCompanies(
                () -> repository.insertIfNoneActive(row)));

        assertThat(stored).isFalse();
        assertThat(await(service.current()).fingerprint()).isEqualTo(active);
        assertThat(await(service.byFingerprint(row.fingerprint))).isEmpty();
    }
}
