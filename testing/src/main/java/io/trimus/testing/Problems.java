package io.trimus.testing;

import io.restassured.response.ValidatableResponse;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Assertions every error response of a Trimus API must pass, for the services' REST tests: problem+json, a human detail,
 * nothing internal leaked.
 */
public final class Problems {
    private Problems() {
    }

    public static ValidatableResponse assertProblem(ValidatableResponse response, int status) {
        return response.statusCode(status)
                .contentType("application/problem+json")
                .body("status", equalTo(status))
                .body("title", notNullValue())
                .body("detail", notNullValue())
                .body(not(containsString("Exception")))
                .body(not(containsString("io.trimus")))
                .body(not(containsString("\tat ")));
    }

    public static ValidatableResponse assertInvalidField(ValidatableResponse response, String field) {
        return assertProblem(response, 400).body("field", equalTo(field));
    }
}
