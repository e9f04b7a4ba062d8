package io.trimus.egress.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem+json body: what went wrong, in words a client can act on, the field at fault and, for a
 * refused value, the value as it was sent (shortened when long).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String field, String value) {
    public static final String MEDIA_TYPE = "application/problem+json";
}
