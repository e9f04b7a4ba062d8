package io.trimus.egress.proxy.intercept;

import io.trimus.egress.ca.EgressCaService;
import io.vertx.core.Future;
import jakarta.enterprise.context.ApplicationScoped;

import javax.net.ssl.X509KeyManager;

/** The leaf certificates of the deployment's egress CAs (active or retired), by fingerprint, for the interceptor. */
@ApplicationScoped
public class CaLeafKeys implements LeafKeys {
    private final EgressCaService cas;

    CaLeafKeys(EgressCaService cas) {
        this.cas = cas;
    }

    @Override
    public Future<String> active() {
        return Future.fromCompletionStage(cas.current().map(ca -> ca.fingerprint()).subscribeAsCompletionStage());
    }

    @Override
    public Future<X509KeyManager> of(String caFingerprint) {
        return Future.fromCompletionStage(cas.byFingerprint(caFingerprint).subscribeAsCompletionStage())
                .compose(found -> found.<Future<X509KeyManager>>map(ca -> Future.succeededFuture(ca.keyManager()))
                        .orElseGet(() -> Future.failedFuture("no egress CA with fingerprint " + caFingerprint
                                + " is stored")));
    }
}
