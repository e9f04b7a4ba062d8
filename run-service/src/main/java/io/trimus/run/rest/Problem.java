package io.trimus.run.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/** An RFC 9457 problem+json body: what went wrong, in words a client can act on, and the field at fault. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String field) {
    public static final String MEDIA_TYPE = "application/problem+json";
}
