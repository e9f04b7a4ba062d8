package io.trimus.run.service.identity;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.testing.TestOperator;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.restassured.RestAssured.given;

/**
 * TRIMUS_BOOTSTRAP_OPERATOR_TOKEN is exactly what exists: a start with another value makes that one the operator token
 * and revokes the old, a start without it leaves no bootstrap token, a start with it again brings it back (also after
 * someone revoked it through the API).
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class OperatorBootstrapTest {
    private static final String OTHER = "another-bootstrap-operator-token-for-this-test-only";

    @Inject
    OperatorBootstrap bootstrap;

    @Test
    void theBootstrapTokenIsExactlyWhatTheVariableSays() throws Throwable {
        try {
            start(Optional.of(OTHER));
            me(OTHER).statusCode(200);
            me(TestOperator.TOKEN).statusCode(401);

            start(Optional.empty());
            me(OTHER).statusCode(401);
            me(TestOperator.TOKEN).statusCode(401);
        } finally {
            start(Optional.of(TestOperator.TOKEN));
        }
        me(TestOperator.TOKEN).statusCode(200);
        String id = given().get("/api/tokens").then().statusCode(200).extract().jsonPath()
                .getString("tokens.find { it.name == '" + OperatorBootstrap.TOKEN_NAME + "' && it.active }.id");
        given().delete("/api/tokens/{t}", id).then().statusCode(204);
        me(TestOperator.TOKEN).statusCode(401);
        start(Optional.of(TestOperator.TOKEN));
        me(TestOperator.TOKEN).statusCode(200);
    }

    private void start(Optional<String> token) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.acrossCompanies(() -> bootstrap.ensureToken(token)));
    }

    private static io.restassured.response.ValidatableResponse me(String token) {
        return given().header("Authorization", "Bearer " + token).get("/api/me").then();
    }
}
