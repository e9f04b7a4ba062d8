package io.trimus.admin.auth;

import io.trimus.admin.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;

/**
 * The session cookie {@value #NAME}: the run-service session credential itself (the dashboard keeps no session of its
 * own), HttpOnly, SameSite=Strict, Path=/, Secure behind TLS, living no longer than the session.
 */
@ApplicationScoped
public class SessionCookie {
    /** The cookie's name. */
    public static final String NAME = "trimus_session";
    private static final int MAX_LENGTH = 512;

    private final TrimusConfig config;

    SessionCookie(TrimusConfig config) {
        this.config = config;
    }

    /** The {@code Set-Cookie} value that keeps {@code secret} until {@code expiresAt}. */
    public String set(String secret, Instant expiresAt, String forwardedProto, String scheme) {
        long seconds = Math.max(0, Duration.between(Instant.now(), expiresAt).getSeconds());
        return NAME + "=" + secret + attributes(forwardedProto, scheme) + "; Max-Age=" + seconds;
    }

    /** The {@code Set-Cookie} value that removes the cookie. */
    public String clear(String forwardedProto, String scheme) {
        return NAME + "=" + attributes(forwardedProto, scheme) + "; Max-Age=0";
    }

    /** Whether the cookie gets {@code Secure}: TRIMUS_DASHBOARD_SECURE_COOKIES, or auto from the request's scheme. */
    boolean secure(String forwardedProto, String scheme) {
        return switch (config.dashboard().secureCookies()) {
            case TRUE -> true;
            case FALSE -> false;
            case AUTO -> "https".equalsIgnoreCase(firstValue(forwardedProto)) || "https".equalsIgnoreCase(scheme);
        };
    }

    /** Whether a cookie value can be a credential at all (anything else is ignored, not sent to run-service). */
    static boolean wellFormed(String value) {
        return !value.isEmpty() && value.length() <= MAX_LENGTH && value.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    }

    private String attributes(String forwardedProto, String scheme) {
        return "; Path=/; HttpOnly; SameSite=Strict" + (secure(forwardedProto, scheme) ? "; Secure" : "");
    }

    private static String firstValue(String header) {
        return header == null ? null : header.split(",")[0].strip();
    }
}
