package io.trimus.egress.ca;

import javax.net.ssl.X509ExtendedKeyManager;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;

/**
 * One egress CA, opened: its certificate (what sandboxes trust) and a key manager that lets a TLS server answer any
 * host a client names with a leaf certificate this CA signs. The CA's private key stays inside; nothing here returns
 * it.
 */
public final class EgressAuthority {
    private final X509Certificate certificate;
    private final String fingerprint;
    private final String certificatePem;
    private final Instant createdAt;
    private final LeafCertificates leaves;
    private final LeafKeyManager keyManager;

    EgressAuthority(X509Certificate certificate, PrivateKey key, Instant createdAt, LeafPolicy policy, Clock clock) {
        this.certificate = certificate;
        this.fingerprint = CaCertificates.fingerprint(certificate);
        this.certificatePem = Pem.certificate(certificate);
        this.createdAt = createdAt;
        this.leaves = new LeafCertificates(certificate, key, policy, clock);
        this.keyManager = new LeafKeyManager(leaves, certificate);
    }

    /** SHA-256 of the certificate's DER, 64 lower-case hex digits. */
    public String fingerprint() {
        return fingerprint;
    }

    /** The CA certificate. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** The CA certificate as PEM text, as sandboxes get it. */
    public String certificatePem() {
        return certificatePem;
    }

    /** When this CA was created. */
    public Instant createdAt() {
        return createdAt;
    }

    /**
     * A key manager for a TLS server (e.g. an {@code SSLContext} behind the proxy's TLS termination): for each
     * handshake it serves a leaf certificate for the SNI host name, issued on first use and cached; no SNI or an
     * invalid name fails the handshake.
     */
    public X509ExtendedKeyManager keyManager() {
        return keyManager;
    }

    /** How many leaf certificates are cached (for metrics and tests). */
    public int cachedLeaves() {
        return leaves.size();
    }

    @Override
    public String toString() {
        return "EgressAuthority[" + fingerprint + "]";
    }
}
