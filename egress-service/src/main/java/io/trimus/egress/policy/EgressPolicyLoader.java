package io.trimus.egress.policy;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import java.time.Duration;

/**
 * Loads every stored egress policy into the {@link EgressModeCache} at start, before observers of default priority run
 * (such as the resolver's and the proxy's start), and blocks start until it is done: a company in report mode is not
 * enforced by the first connections after a restart. Start fails when the database cannot be read within
 * {@value #TIMEOUT_SECONDS} s. {@link EgressPolicyReadiness} reports the same state to orchestrators.
 */
@ApplicationScoped
public class EgressPolicyLoader {
    static final int TIMEOUT_SECONDS = 60;

    private final EgressPolicyService policies;

    EgressPolicyLoader(EgressPolicyService policies) {
        this.policies = policies;
    }

    void onStart(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE) StartupEvent start) throws Throwable {
        // Hibernate Reactive needs a Vert.x context; this runs it on one and waits on the main thread
        VertxContextSupport.subscribeAndAwait(() -> policies.loadIntoCache()
                .ifNoItem().after(Duration.ofSeconds(TIMEOUT_SECONDS)).fail());
    }
}
