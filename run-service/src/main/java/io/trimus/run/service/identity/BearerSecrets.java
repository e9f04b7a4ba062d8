package io.trimus.run.service.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Makes and hashes the bearer secrets Trimus hands out (API tokens, sessions, setup links): 256 random bits behind a
 * prefix that says what the secret is (so secret scanners and people can tell), shown once and kept only as SHA-256.
 * A slow hash is not needed for 256 random bits, and a fast one lets every request be checked by one indexed lookup.
 */
public final class BearerSecrets {
    /** Prefix of API tokens. */
    public static final String TOKEN_PREFIX = "trimus_t_";
    /** Prefix of dashboard sessions. */
    public static final String SESSION_PREFIX = "trimus_s_";
    /** Prefix of one-time setup links. */
    public static final String SETUP_PREFIX = "trimus_u_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private BearerSecrets() {
    }

    /** A new secret with the prefix. */
    public static String generate(String prefix) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The SHA-256 of the secret, as stored and looked up. */
    public static byte[] hash(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
