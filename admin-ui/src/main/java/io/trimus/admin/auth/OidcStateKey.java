package io.trimus.admin.auth;

import io.trimus.admin.config.OidcConfig;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The key quarkus-oidc encrypts a sign-in's state cookie with, derived from configuration so that every replica
 * holds the same one and any of them can finish a sign-in another began: TRIMUS_OIDC_STATE_SECRET, else the client
 * secret. Only a public client without a state secret gets a key of this process alone.
 */
final class OidcStateKey {
    private static final Logger LOG = Logger.getLogger(OidcStateKey.class);
    private static final int MIN_SECRET_LENGTH = 32;

    private OidcStateKey() {
    }

    static String of(OidcConfig config) {
        Optional<String> state = present(config.stateSecret());
        if (state.isPresent()) {
            if (state.get().length() < MIN_SECRET_LENGTH) {
                throw new IllegalStateException("TRIMUS_OIDC_STATE_SECRET must have at least " + MIN_SECRET_LENGTH
                        + " characters (e.g. head -c 32 /dev/urandom | base64)");
            }
            return derive("trimus-oidc-state-secret:", state.get());
        }
        Optional<String> client = present(config.clientSecret());
        if (client.isPresent()) {
            return derive("trimus-oidc-state:", client.get());
        }
        LOG.warn("Neither TRIMUS_OIDC_STATE_SECRET nor TRIMUS_OIDC_CLIENT_SECRET is set: the sign-in state is encrypted "
                + "with a key of this process only, so with several admin-ui replicas a sign-in must end on the replica "
                + "that began it");
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    private static Optional<String> present(Optional<String> value) {
        return value.filter(v -> !v.isBlank());
    }

    // a fixed-length hex key whatever the secret's length, and never the client secret itself
    private static String derive(String label, String secret) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest((label + secret).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
