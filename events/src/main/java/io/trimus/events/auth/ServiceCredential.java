package io.trimus.events.auth;

import io.trimus.events.secrets.EncryptionKey;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The credential Trimus's own services present to each other's internal endpoints (the adapter registering a sandbox
 * with egress-service): derived one-way from TRIMUS_ENCRYPTION_KEY (HMAC-SHA256 over
 * {@code "trimus/service-credential/v1"}), so only services holding that key have it, and a worker only when its
 * operator hands it over; tenants and tokens never do.
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

    /**
     * The credential as configured where the master key is not (a worker: TRIMUS_EGRESS_SERVICE_CREDENTIAL).
     *
     * @throws IllegalArgumentException when it is not one; the message never contains the value
     */
    public static ServiceCredential parse(String text) {
        if (text == null || !text.strip().matches("svc_[A-Za-z0-9_-]{43}")) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_SERVICE_CREDENTIAL is not a service credential"
                    + " (svc_ and 43 characters): ./trimus service-credential prints the one of this deployment");
        }
        return new ServiceCredential(text.strip().getBytes(StandardCharsets.US_ASCII));
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
