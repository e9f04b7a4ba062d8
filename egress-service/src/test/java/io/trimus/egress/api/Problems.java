package io.trimus.egress.api;

import io.restassured.response.ValidatableResponse;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

/** Assertions every error response must pass: problem+json, a human detail, nothing internal leaked. */
final class Problems {
    private Problems() {
    }

    static ValidatableResponse assertProblem(ValidatableResponse response, int status) {
        return response.statusCode(status)
                .contentType("application/problem+json")
                .body("status", equalTo(status))
                .body("title", notNullValue())
                .body("detail", notNullValue())
                .body(not(containsString("Exception")))
                .body(not(containsString("io.trimus")))
                .body(not(containsString("\tat ")));
    }

    static ValidatableResponse assertInvalidField(ValidatableResponse response, String field) {
        return assertProblem(response, 400).body("field", equalTo(field));
    }
}
