package io.trimus.events.auth;

import io.trimus.events.secrets.EncryptionKey;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The credential Trimus's own services present to each other's internal endpoints (the adapter registering a sandbox
 * with egress-service): derived one-way from TRIMUS_ENCRYPTION_KEY, so only services holding that key have it; tenants,
 * tokens and workers (which hold only the dispatch key) never do.
 */
public final class ServiceCredential {
    static final String PURPOSE = "service-credential/v1";
    private final byte[] value;

    private ServiceCredential(byte[] value) {
        this.value = value;
    }

    /** The credential of a deployment's encryption key. */
    public static ServiceCredential of(EncryptionKey key) {
        byte[] raw = key.derive(PURPOSE).getEncoded();
        return new ServiceCredential(("svc_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw))
                .getBytes(StandardCharsets.US_ASCII));
    }

    /** The {@code Authorization} header value that presents it. */
    public String header() {
        return BearerCredentials.header(new String(value, StandardCharsets.US_ASCII));
    }

    /** True when {@code presented} is this credential, compared in constant time. */
    public boolean matches(String presented) {
        return presented != null && MessageDigest.isEqual(value, presented.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return "ServiceCredential[redacted]";
    }
}
