package io.trimus.events;

import java.util.List;

/**
 * Where Trimus's egress CA reaches a sandbox. egress-service serves the current CA certificate (PEM, never the key)
 * at {@link #PATH}; the adapter service places it, read-only, in every sandbox on the egress network at
 * {@link #CA_FILE} and a bundle of it plus the usual public roots at {@link #BUNDLE_FILE}, and points the
 * environment variables below at them, so TLS clients in the sandbox trust the proxy's leaf certificates for the
 * hosts of masked secrets.
 */
public final class EgressCa {
    /** egress-service's endpoint: {@code GET} answers the current CA certificate as {@code application/x-pem-file}. */
    public static final String PATH = "/api/egress/ca";
    /** The directory the CA volume is mounted at in a sandbox. */
    public static final String DIRECTORY = "/etc/trimus";
    /** The egress CA certificate alone. */
    public static final String CA_FILE = DIRECTORY + "/egress-ca.pem";
    /** The egress CA followed by the public roots the adapter service's JVM trusts. */
    public static final String BUNDLE_FILE = DIRECTORY + "/ca-bundle.pem";
    /** Variables that add to a client's roots: pointed at {@link #CA_FILE}. */
    public static final List<String> EXTRA_CA_ENV = List.of("NODE_EXTRA_CA_CERTS");
    /**
     * Variables that replace a client's roots: pointed at {@link #BUNDLE_FILE}. {@code GIT_SSL_CAINFO} because git's
     * libcurl (Debian's) uses its built-in CA file and reads neither SSL_CERT_FILE nor CURL_CA_BUNDLE.
     */
    public static final List<String> BUNDLE_ENV = List.of("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
            "CODEX_CA_CERTIFICATE", "GIT_SSL_CAINFO");

    private EgressCa() {
    }

    /** Whether {@code variable} is one Trimus sets in a sandbox for the CA. */
    public static boolean reserved(String variable) {
        return EXTRA_CA_ENV.contains(variable) || BUNDLE_ENV.contains(variable);
    }
}
