package io.trimus.events.auth;

import java.util.Optional;

/** Reads the {@code Authorization: Bearer <credential>} header every Trimus service accepts. */
public final class BearerCredentials {
    /** The request header. */
    public static final String HEADER = "Authorization";
    /** Longest credential read; longer headers are refused without being looked at further. */
    public static final int MAX_LENGTH = 512;
    private static final String SCHEME = "bearer ";

    private BearerCredentials() {
    }

    /** The credential of an {@code Authorization} header value, or empty when there is none or it is malformed. */
    public static Optional<String> of(String header) {
        if (header == null || header.length() <= SCHEME.length() || header.length() > SCHEME.length() + MAX_LENGTH
                || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        String credential = header.substring(SCHEME.length()).trim();
        return credential.isEmpty() || !credential.chars().allMatch(c -> c > 0x20 && c < 0x7f)
                ? Optional.empty() : Optional.of(credential);
    }

    /** The header value that presents {@code credential}. */
    public static String header(String credential) {
        return "Bearer " + credential;
    }
}
