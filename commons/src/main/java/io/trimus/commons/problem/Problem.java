package io.trimus.commons.problem;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem+json body, as every Trimus service writes it and the dashboard reads it: what went wrong, in
 * words a client can act on, the field at fault and, for a refused value, the value as it was sent (shortened when
 * long).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Problem(String type, String title, int status, String detail, String field, String value) {
    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_BASE = "https://trimus.io/problems/";

    /** A problem whose {@code type} is the Trimus problem type of {@code status}. */
    public static Problem of(int status, String title, String detail, String field, String value) {
        return new Problem(typeOf(status), title, status, detail, field, value);
    }

    /** The problem type URI clients switch on, one per status. */
    public static String typeOf(int status) {
        return TYPE_BASE + switch (status) {
            case 400 -> "invalid-request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not-found";
            case 409 -> "conflict";
            case 500 -> "internal-error";
            default -> "http-" + status;
        };
    }
}
