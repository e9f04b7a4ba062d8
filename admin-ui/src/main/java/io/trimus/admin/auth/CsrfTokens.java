package io.trimus.admin.auth;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The CSRF token of a session: an HMAC of a fixed label keyed with the session's own secret. Bound to the session and
 * recomputed on every request, so the dashboard keeps no state (two replicas agree) and needs no key of its own; a site
 * that cannot read the HttpOnly cookie cannot compute it.
 */
final class CsrfTokens {
    /** Form field that carries the token in forms without JavaScript. */
    static final String FIELD = "_csrf";
    /** Header htmx sends it in (set once for the page by the layout's {@code hx-headers}). */
    static final String HEADER = "X-CSRF-Token";
    private static final byte[] LABEL = "trimus-dashboard-csrf-v1".getBytes(StandardCharsets.US_ASCII);

    private CsrfTokens() {
    }

    static String of(String sessionSecret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(sessionSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(LABEL));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Whether {@code presented} is the session's token (compared in constant time). */
    static boolean matches(String sessionSecret, String presented) {
        return presented != null && MessageDigest.isEqual(of(sessionSecret).getBytes(StandardCharsets.US_ASCII),
                presented.getBytes(StandardCharsets.US_ASCII));
    }
}
