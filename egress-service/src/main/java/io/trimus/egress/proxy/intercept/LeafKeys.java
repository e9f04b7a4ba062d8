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

    /**
     * The fingerprint of the active egress CA, which a sandbox without masked secrets trusts (for a host with request
     * rules); a failed future when none is known.
     */
    default Future<String> active() {
        return Future.failedFuture("no active egress CA is known");
    }
}
