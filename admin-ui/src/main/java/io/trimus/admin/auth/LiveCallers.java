package io.trimus.admin.auth;

import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.config.TrimusConfig;
import io.trimus.commons.streams.StreamLeases;
import io.trimus.events.auth.Caller;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.function.Predicate;

/**
 * Hands a live feed its {@link LiveCaller}: the request's caller, asked again while the stream is open, holding one of
 * its credential's {@code trimus.streams.max-per-caller} places on this instance (commons' {@link StreamLeases}, the
 * same rule as the backends' streams).
 */
@ApplicationScoped
public class LiveCallers {
    private final SignedIn signedIn;
    private final Backends backends;
    private final IdentityApi identity;
    private final TrimusConfig config;
    private final StreamLeases leases = new StreamLeases();

    LiveCallers(SignedIn signedIn, Backends backends, IdentityApi identity, TrimusConfig config) {
        this.signedIn = signedIn;
        this.backends = backends;
        this.identity = identity;
        this.config = config;
    }

    /**
     * The current request's caller, to be asked again every {@code trimus.streams.recheck}; the feed ends when the
     * credential stops working or {@code allowed} no longer holds for the caller run-service then answers.
     * {@link io.trimus.commons.streams.TooManyStreams} when the credential already holds as many feeds as it may.
     */
    public LiveCaller watch(Predicate<Caller> allowed) {
        String authorization = signedIn.authorization(); // the stream outlives the request
        return new LiveCaller(signedIn.caller(), allowed,
                () -> backends.callAs(authorization, Backend.RUN_SERVICE, identity::me),
                leases.take(authorization, config.streams()));
    }
}
