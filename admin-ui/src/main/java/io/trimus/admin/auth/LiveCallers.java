package io.trimus.admin.auth;

import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.config.TrimusConfig;
import io.trimus.events.auth.Caller;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.function.Predicate;

/** Hands a live feed its {@link LiveCaller}: the request's caller, asked again while the stream is open. */
@ApplicationScoped
public class LiveCallers {
    private final SignedIn signedIn;
    private final Backends backends;
    private final IdentityApi identity;
    private final TrimusConfig config;

    LiveCallers(SignedIn signedIn, Backends backends, IdentityApi identity, TrimusConfig config) {
        this.signedIn = signedIn;
        this.backends = backends;
        this.identity = identity;
        this.config = config;
    }

    /**
     * The current request's caller, to be asked again every {@code trimus.dashboard.live-recheck}; the feed ends when
     * the credential stops working or {@code allowed} no longer holds for the caller run-service then answers.
     */
    public LiveCaller watch(Predicate<Caller> allowed) {
        String authorization = signedIn.authorization(); // the stream outlives the request
        return new LiveCaller(signedIn.caller(), allowed, config.dashboard().liveRecheck(),
                () -> backends.callAs(authorization, Backend.RUN_SERVICE, identity::me));
    }
}
