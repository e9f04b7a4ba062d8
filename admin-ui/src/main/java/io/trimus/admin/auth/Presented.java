package io.trimus.admin.auth;

import io.trimus.events.auth.BearerCredentials;

import java.util.Optional;

/**
 * A credential as a request presented it: from the {@code Authorization: Bearer} header (scripts, monitoring) or from
 * the session cookie (a browser). The header wins when both are there; only cookie requests need a CSRF token, since
 * a browser never adds an {@code Authorization} header to a request another site makes it send.
 */
record Presented(String secret, boolean fromCookie) {

    /** The credential of a request with these header and cookie values, if it has one. */
    static Optional<Presented> of(String authorization, String cookie) {
        if (authorization != null) {
            return BearerCredentials.of(authorization).map(secret -> new Presented(secret, false));
        }
        return Optional.ofNullable(cookie).filter(SessionCookie::wellFormed).map(secret -> new Presented(secret, true));
    }
}
