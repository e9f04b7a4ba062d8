package io.trimus.egress.proxy.intercept;

import io.vertx.core.Future;

import javax.net.ssl.X509KeyManager;

/**
 * The key manager of an egress CA, by its fingerprint: it serves, for the SNI name of each TLS handshake, a leaf
 * certificate for that host signed by the CA. A failed future when no such CA is known.
 */
@FunctionalInterface
public interface LeafKeys {
    Future<X509KeyManager> of(String caFingerprint);
}
