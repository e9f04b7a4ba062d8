package io.trimus.egress.allowlist;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import java.time.Duration;

/**
 * Loads every stored allowlist into the {@link AllowlistCache} at start, before observers of default priority run
 * (such as the DNS server's start), and blocks start until it is done: the resolver's first answer already knows
 * every company's list. Start fails when the database cannot be read within {@value #TIMEOUT_SECONDS} s.
 * {@link AllowlistReadiness} reports the same state to orchestrators.
 */
@ApplicationScoped
public class AllowlistLoader {
    static final int TIMEOUT_SECONDS = 60;

    private final AllowlistService allowlists;

    AllowlistLoader(AllowlistService allowlists) {
        this.allowlists = allowlists;
    }

    void onStart(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE) StartupEvent start) throws Throwable {
        // Hibernate Reactive needs a Vert.x context; this runs it on one and waits on the main thread
        VertxContextSupport.subscribeAndAwait(() -> allowlists.loadIntoCache()
                .ifNoItem().after(Duration.ofSeconds(TIMEOUT_SECONDS)).fail());
    }
}
