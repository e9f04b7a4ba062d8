package io.trimus.commons.streams;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A credential as the key of its {@link Places}: its SHA-256, so the counts of open streams, which live as long as the
 * streams, never hold a secret. One credential (a token, a session) is one caller.
 *
 * @param sha256 the hex SHA-256 of the credential
 */
public record CredentialKey(String sha256) {
    /** The key of {@code credential} (the bearer secret, or the whole Authorization value: the same per credential). */
    public static CredentialKey of(String credential) {
        try {
            return new CredentialKey(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(credential.getBytes(StandardCharsets.UTF_8))));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
