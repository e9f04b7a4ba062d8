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

    /**
     * Read from the database at most every {@value #ACTIVE_FOR_MILLIS} ms (a connection to a host with request rules
     * asks for it): a rotation is seen within that time.
     */
    @Override
    public Future<String> active() {
        Active known = active;
        long now = System.nanoTime();
        if (known != null && now - known.readAt < ACTIVE_FOR_MILLIS * 1_000_000L) {
            return known.fingerprint;
        }
        Future<String> reading = Future.fromCompletionStage(cas.current().map(ca -> ca.fingerprint())
                .subscribeAsCompletionStage());
        active = new Active(reading, now);
        return reading.onFailure(failed -> active = null);
    }

    private static final long ACTIVE_FOR_MILLIS = 5_000;
    private volatile Active active;

    private record Active(Future<String> fingerprint, long readAt) {
    }

    @Override
    public Future<X509KeyManager> of(String caFingerprint) {
        return Future.fromCompletionStage(cas.byFingerprint(caFingerprint).subscribeAsCompletionStage())
                .compose(found -> found.<Future<X509KeyManager>>map(ca -> Future.succeededFuture(ca.keyManager()))
                        .orElseGet(() -> Future.failedFuture("no egress CA with fingerprint " + caFingerprint
                                + " is stored")));
    }
}
