package io.trimus.egress.sandbox;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import java.time.Duration;

/**
 * Loads every stored sandbox registration into the {@link SandboxRegistry} at start, before observers of default
 * priority run (such as the DNS server's start, which refuses to answer from a registry not loaded), and blocks start
 * until it is done: sandboxes that kept running while egress-service restarted are attributed by its first answer.
 * Start fails when the database cannot be read within {@value #TIMEOUT_SECONDS} s. {@link SandboxRegistryReadiness}
 * reports the same state to orchestrators.
 */
@ApplicationScoped
public class SandboxRegistryLoader {
    static final int TIMEOUT_SECONDS = 60;

    private final SandboxService sandboxes;

    SandboxRegistryLoader(SandboxService sandboxes) {
        this.sandboxes = sandboxes;
    }

    void onStart(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE) StartupEvent start) throws Throwable {
        load();
    }

    /** Reads the stored registrations into memory, replacing what it held; waits on the calling thread. */
    public int load() throws Throwable {
        // Hibernate Reactive needs a Vert.x context; this runs it on one and waits on the calling thread
        return VertxContextSupport.subscribeAndAwait(() -> sandboxes.loadIntoRegistry()
                .ifNoItem().after(Duration.ofSeconds(TIMEOUT_SECONDS)).fail());
    }
}
