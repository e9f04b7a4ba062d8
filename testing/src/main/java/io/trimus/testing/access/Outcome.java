package io.trimus.testing.access;

import java.net.http.HttpResponse;

/** How access control answered a call: refused in one of three ways, or let through to the endpoint. */
public enum Outcome {
    /** 401 with {@code WWW-Authenticate}: no valid credential. */
    UNAUTHENTICATED,
    /** 403. */
    FORBIDDEN,
    /** 404 saying the company does not exist: the caller is not in it. */
    HIDDEN,
    /** Anything else: the endpoint itself answered (2xx, or its own 4xx for the walk's dummy input). */
    PASSES;

    /** The outcome of {@code response} to a request naming {@code company}. */
    public static Outcome of(HttpResponse<String> response, String company) {
        int status = response.statusCode();
        if (status == 401 && response.headers().firstValue("WWW-Authenticate").isPresent()) {
            return UNAUTHENTICATED;
        }
        if (status == 403) {
            return FORBIDDEN;
        }
        if (status == 404 && response.body().contains("company " + company + " does not exist")) {
            return HIDDEN;
        }
        return PASSES;
    }
}
