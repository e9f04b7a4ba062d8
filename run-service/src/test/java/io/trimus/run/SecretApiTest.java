package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SecretBox;
import io.trimus.run.service.secret.SecretCipher;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Proves the company secrets API against real PostgreSQL: values go in and never come out of any response, are
 * validated by name and size with nothing stored on a refusal, are scoped to their company, and sit in the database
 * only as AES-GCM ciphertext (fresh nonce per write) that opens under the service's key and no other.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class SecretApiTest {
    /** Everything the API shows about a secret: never its value. */
    private static final String[] SECRET_INFO = {"name", "agents", "masked", "hosts", "headers", "created_at",
            "updated_at"};
    private static final String CIPHERTEXT =
            "select ciphertext from run.company_secret where company_id = ? and name = ?";

    @Inject
    SecretCipher cipher;

    private static String secretValue() {
        return "sk-test-" + UUID.randomUUID();
    }

    @Test
    void putCreatesThenReplacesAndNoResponseEverContainsTheValue() {
        String company = Api.createCompany("Secretive " + UUID.randomUUID());
        String first = secretValue();
        String second = secretValue();

        ExtractableResponse<Response> created = Api.putSecret(company, "ANTHROPIC_API_KEY", Map.of("value", first))
                .statusCode(201).contentType(ContentType.JSON)
                .body("name", equalTo("ANTHROPIC_API_KEY")).extract();
        assertThat(created.header("Location")).endsWith("/api/companies/" + company + "/secrets/ANTHROPIC_API_KEY");
        assertThat(created.<Map<String, Object>>path("$")).containsOnlyKeys(SECRET_INFO);
        Instant createdAt = Instant.parse(created.path("created_at"));
        assertThat(Instant.parse(created.<String>path("updated_at"))).isEqualTo(createdAt);

        ExtractableResponse<Response> replaced = Api.putSecret(company, "ANTHROPIC_API_KEY", Map.of("value", second))
                .statusCode(200).body("name", equalTo("ANTHROPIC_API_KEY")).extract();
        assertThat(replaced.<Map<String, Object>>path("$")).containsOnlyKeys(SECRET_INFO);
        Instant replacedCreatedAt = Instant.parse(replaced.path("created_at"));
        Instant replacedUpdatedAt = Instant.parse(replaced.path("updated_at"));
        assertThat(replacedCreatedAt).isEqualTo(createdAt);
        assertThat(replacedUpdatedAt).isAfter(createdAt);

        Api.setSecret(company, "OPENAI_API_KEY", first);
        ExtractableResponse<Response> listed = Api.listSecrets(company).statusCode(200).extract();
        assertThat(listed.<List<String>>path("secrets.name")).containsExactly("ANTHROPIC_API_KEY", "OPENAI_API_KEY");
        assertThat(listed.<List<Map<String, Object>>>path("secrets"))
                .allSatisfy(s -> assertThat(s).containsOnlyKeys(SECRET_INFO));
        assertThat(Instant.parse(listed.<String>path("secrets[0].created_at"))).isEqualTo(createdAt);
        assertThat(Instant.parse(listed.<String>path("secrets[0].updated_at"))).isEqualTo(replacedUpdatedAt);

        for (String body : List.of(created.asString(), replaced.asString(), listed.asString())) {
            assertThat(body).doesNotContain(first).doesNotContain(second)
                    .doesNotContain(Base64.getEncoder().encodeToString(first.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void deleteRemovesTheSecretAndASecondDeleteIsA404() {
        String company = Api.createCompany("Forgetful " + UUID.randomUUID());
        Api.setSecret(company, "GONE_SOON", secretValue());
        Api.setSecret(company, "STAYS", secretValue());

        Api.deleteSecret(company, "GONE_SOON").statusCode(204).body(equalTo(""));
        Api.listSecrets(company).statusCode(200).body("secrets.name", equalTo(List.of("STAYS")));
        assertThat(Db.bytes(CIPHERTEXT, UUID.fromString(company), "GONE_SOON")).isEmpty();
        assertProblem(Api.deleteSecret(company, "GONE_SOON"), 404).body("detail", containsString("GONE_SOON"));
        assertProblem(Api.deleteSecret(company, "NEVER_WAS"), 404);
    }

    @Test
    void secretsBelongToTheirCompanyOnly() {
        String owner = Api.createCompany("Owner " + UUID.randomUUID());
        String other = Api.createCompany("Other " + UUID.randomUUID());
        Api.setSecret(owner, "SHARED_NAME", secretValue());

        Api.listSecrets(other).statusCode(200).body("secrets", hasSize(0));
        assertProblem(Api.deleteSecret(other, "SHARED_NAME"), 404);
        Api.listSecrets(owner).body("secrets.name", equalTo(List.of("SHARED_NAME")));
        Api.putSecret(other, "SHARED_NAME", Map.of("value", secretValue())).statusCode(201);
    }

    @Test
    void unknownOrMalformedCompanyIsRefused() {
        String unknown = UUID.randomUUID().toString();
        assertProblem(Api.putSecret(unknown, "A_KEY", Map.of("value", "some-value")), 404);
        assertProblem(Api.listSecrets(unknown), 404);
        assertProblem(Api.deleteSecret(unknown, "A_KEY"), 404);
        assertThat(Db.bytes(CIPHERTEXT, UUID.fromString(unknown), "A_KEY")).isEmpty();
        assertInvalidField(Api.putSecret("not-a-uuid", "A_KEY", Map.of("value", "some-value")), "company_id");
        assertInvalidField(Api.listSecrets("not-a-uuid"), "company_id");
    }

    static Stream<String> invalidNames() {
        return Stream.of("1ABC", "a-b", "a.b", "KEY$", "Ä_KEY", "A".repeat(129));
    }

    @ParameterizedTest
    @MethodSource("invalidNames")
    void invalidNameIsRefusedAndNothingIsStored(String name) {
        String company = Api.createCompany("Namer " + UUID.randomUUID());
        String value = secretValue();
        assertInvalidField(Api.putSecret(company, name, Map.of("value", value)), "name")
                .body(not(containsString(value)));
        Api.listSecrets(company).statusCode(200).body("secrets", hasSize(0));
        assertThat(Db.bytes("select ciphertext from run.company_secret where company_id = ?",
                UUID.fromString(company))).isEmpty();
    }

    @Test
    void namesAtTheEdgesOfThePatternAreAccepted() {
        String company = Api.createCompany("Edges " + UUID.randomUUID());
        for (String name : List.of("_", "a", "Z9_z", "A".repeat(128))) {
            Api.putSecret(company, name, Map.of("value", secretValue())).statusCode(201).body("name", equalTo(name));
        }
        Api.listSecrets(company).body("secrets", hasSize(4));
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> invalidValues() {
        return Stream.of(
                arguments("missing", "{}"),
                arguments("null", "{\"value\": null}"),
                arguments("empty", "{\"value\": \"\"}"),
                arguments("one byte over 16 KiB", "{\"value\": \"" + "x".repeat(16 * 1024 + 1) + "\"}"),
                // 5462 characters but 16386 UTF-8 bytes: the limit is in bytes
                arguments("over 16 KiB as UTF-8", "{\"value\": \"" + "€".repeat(5462) + "\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidValues")
    void invalidValueIsRefusedAndNothingIsStored(String description, String body) {
        String company = Api.createCompany("Valuer " + UUID.randomUUID());
        assertInvalidField(given().contentType(ContentType.JSON).body(body.getBytes(StandardCharsets.UTF_8))
                .put("/api/companies/{c}/secrets/{n}", company, "A_KEY").then(), "value");
        Api.listSecrets(company).statusCode(200).body("secrets", hasSize(0));
    }

    @Test
    void aValueOfExactly16KiBIsAccepted() {
        String company = Api.createCompany("Big " + UUID.randomUUID());
        String value = "y".repeat(16 * 1024);
        Api.putSecret(company, "CERT_BUNDLE", Map.of("value", value)).statusCode(201)
                .body(not(containsString("yyyyyyyy")));
        assertThat(cipher.decrypt(UUID.fromString(company), "CERT_BUNDLE",
                Db.bytes(CIPHERTEXT, UUID.fromString(company), "CERT_BUNDLE").get(0))).isEqualTo(value);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> unreadableBodies() {
        String v = "leak-me-not-4711";
        return Stream.of(
                arguments("{\"value\": \"" + v, null),
                arguments("value=" + v, null),
                arguments("\"" + v + "\"", null),
                arguments("[\"" + v + "\"]", null),
                arguments("{\"value\": [\"" + v + "\"]}", "value"),
                arguments("{\"value\": {\"inner\": \"" + v + "\"}}", "value"),
                arguments("{\"value\": 4711}", "value"),
                arguments("{\"value\": true}", "value"),
                arguments("{\"value\": \"" + v + "\", \"comment\": \"x\"}", "comment"));
    }

    @ParameterizedTest
    @MethodSource("unreadableBodies")
    void unreadableBodyIsAProblemThatDoesNotEchoTheValue(String body, String field) {
        String company = Api.createCompany("Garbled " + UUID.randomUUID());
        var response = assertProblem(given().contentType(ContentType.JSON).body(body)
                .put("/api/companies/{c}/secrets/{n}", company, "A_KEY").then(), 400)
                .body(not(containsString("leak-me-not")));
        if (field != null) {
            response.body("field", equalTo(field));
        }
        Api.listSecrets(company).statusCode(200).body("secrets", hasSize(0));
    }

    @Test
    void aBodyThatIsNotJsonIsRefusedByContentType() {
        String company = Api.createCompany("Plain " + UUID.randomUUID());
        assertProblem(given().contentType(ContentType.TEXT).body("leak-me-not-4711")
                .put("/api/companies/{c}/secrets/{n}", company, "A_KEY").then(), 415)
                .body(not(containsString("leak-me-not")));
        assertInvalidField(given().contentType(ContentType.JSON)
                .put("/api/companies/{c}/secrets/{n}", company, "A_KEY").then(), "body");
        Api.listSecrets(company).statusCode(200).body("secrets", hasSize(0));
    }

    @Test
    void theDatabaseHoldsOnlyCiphertextWithAFreshNoncePerWrite() {
        String company = Api.createCompany("Vault " + UUID.randomUUID());
        UUID companyId = UUID.fromString(company);
        String value = secretValue();
        byte[] plain = value.getBytes(StandardCharsets.UTF_8);

        Api.putSecret(company, "DB_PASSWORD", Map.of("value", value)).statusCode(201);
        byte[] firstWrite = Db.bytes(CIPHERTEXT, companyId, "DB_PASSWORD").get(0);
        Api.putSecret(company, "DB_PASSWORD", Map.of("value", value)).statusCode(200);
        byte[] secondWrite = Db.bytes(CIPHERTEXT, companyId, "DB_PASSWORD").get(0);

        for (byte[] stored : List.of(firstWrite, secondWrite)) {
            assertThat(indexOf(stored, plain)).isEqualTo(-1);
            assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain("sk-test-");
            // 12-byte nonce, the ciphertext (as long as the value), a 16-byte tag
            assertThat(stored).hasSize(12 + plain.length + 16);
            assertThat(cipher.decrypt(companyId, "DB_PASSWORD", stored)).isEqualTo(value);
        }
        assertThat(secondWrite).isNotEqualTo(firstWrite);
        assertThat(java.util.Arrays.copyOf(secondWrite, 12)).isNotEqualTo(java.util.Arrays.copyOf(firstWrite, 12));

        SecretCipher otherKey = new SecretCipher(EncryptionKey.parse(
                Base64.getEncoder().encodeToString(randomBytes(32))));
        assertThatThrownBy(() -> otherKey.decrypt(companyId, "DB_PASSWORD", secondWrite))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        assertThat(Db.texts("select name from run.company_secret where company_id = ?", companyId))
                .containsExactly("DB_PASSWORD");
    }

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        new java.security.SecureRandom().nextBytes(bytes);
        return bytes;
    }

    static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
