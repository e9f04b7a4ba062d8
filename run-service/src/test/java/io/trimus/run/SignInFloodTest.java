package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sign-ins under attack, through the real service: a flood of sign-ins from one source (bcrypt is slow on purpose)
 * leaves another source its turn rather than a 429, and a flood of made-up emails does not wash out the lockout of an
 * account someone is guessing.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class SignInFloodTest {
    private static final String PASSWORD = "correct horse battery staple";
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aFloodOfSignInsFromOneSourceLeavesAPersonElsewhereTheirTurn() {
        String email = person("Flooded");
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicInteger answered = new AtomicInteger();
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        List<CompletableFuture<Void>> floods = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            floods.add(flood(flooding, answered, statuses));
        }
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> answered.get() >= 16);
            for (int i = 0; i < 5; i++) {
                given().header("Authorization", "").header("X-Forwarded-For", "198.51.100.7")
                        .contentType(ContentType.JSON).body(Map.of("email", email, "password", PASSWORD))
                        .post("/api/sessions").then().statusCode(201);
            }
        } finally {
            flooding.set(false);
            CompletableFuture.allOf(floods.toArray(CompletableFuture[]::new)).join();
        }
        // the flood itself got its answers (wrong password), its excess waited rather than taking the slots
        assertThat(statuses).containsKey(401);
    }

    @Test
    void madeUpEmailsDoNotWashOutTheLockoutOfAnAccount() {
        String email = person("Guessed");
        for (int i = 0; i < 5; i++) {
            signIn(email, "wrong guess " + i).statusCode(401);
        }
        signIn(email, PASSWORD).statusCode(429);
        List<CompletableFuture<HttpResponse<String>>> madeUp = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            madeUp.add(http.sendAsync(signInRequest("made-up-" + UUID.randomUUID() + "@example.com", "guess"),
                    HttpResponse.BodyHandlers.ofString()));
        }
        assertThat(madeUp.stream().map(f -> f.join().statusCode()).distinct()).containsOnly(401);
        signIn(email, PASSWORD).statusCode(429);
    }

    /** One request after the other, each for a new made-up email, until told to stop. */
    private CompletableFuture<Void> flood(AtomicBoolean flooding, AtomicInteger answered,
                                          Map<Integer, Integer> statuses) {
        if (!flooding.get()) {
            return CompletableFuture.completedFuture(null);
        }
        return http.sendAsync(signInRequest("flood-" + UUID.randomUUID() + "@example.com", "not the password"),
                        HttpResponse.BodyHandlers.discarding())
                .thenCompose(response -> {
                    answered.incrementAndGet();
                    statuses.merge(response.statusCode(), 1, Integer::sum);
                    return flood(flooding, answered, statuses);
                });
    }

    private static HttpRequest signInRequest(String email, String password) {
        return HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/api/sessions"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"email\": \"" + email + "\", \"password\": \"" + password
                        + "\"}")).build();
    }

    private static io.restassured.response.ValidatableResponse signIn(String email, String password) {
        return given().header("Authorization", "").contentType(ContentType.JSON)
                .body(Map.of("email", email, "password", password)).post("/api/sessions").then();
    }

    /** A person with a password, through an invitation and its setup link. */
    private static String person(String company) {
        String email = "person-" + UUID.randomUUID() + "@example.com";
        String link = given().contentType(ContentType.JSON).body(Map.of("role", "viewer"))
                .put("/api/companies/{c}/members/{e}", AccessTableTest.company(company), email).then().statusCode(200)
                .extract().path("setup_url");
        given().header("Authorization", "").contentType(ContentType.JSON)
                .body(Map.of("token", URI.create(link).getFragment(), "password", PASSWORD)).post("/api/setup")
                .then().statusCode(200);
        return email;
    }
}
