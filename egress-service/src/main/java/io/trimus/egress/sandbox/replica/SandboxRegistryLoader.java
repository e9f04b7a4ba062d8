package io.trimus.egress.sandbox.replica;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.feed.ListenerOptions;
import io.trimus.egress.masks.MaskOpener;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.egress.sandbox.registration.ReplicaOrigin;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Optional;

/**
 * Loads every stored sandbox registration into the {@link SandboxRegistry} at start, before observers of default
 * priority run (such as the DNS server's start, which refuses to answer from a registry not loaded), and blocks start
 * until it is done: sandboxes that kept running while egress-service restarted are attributed by its first answer.
 * From then on its {@link RegistrationFeed} follows the changes other replicas make. Start fails when the database
 * cannot be read within {@value #TIMEOUT_SECONDS} s. {@link SandboxRegistryReadiness} reports the state to
 * orchestrators.
 */
@ApplicationScoped
public class SandboxRegistryLoader {
    static final int TIMEOUT_SECONDS = 60;

    private final RegistrationFeed feed;

    @Inject
    SandboxRegistryLoader(Vertx vertx, SandboxRegistry registry, MaskedSecrets masked, MaskOpener opener,
                          StoredRegistrations stored, ReplicaOrigin origin, TrimusConfig config,
                          @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                          @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
                          @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.feed = new RegistrationFeed(vertx, ListenerOptions.of(url, user, password),
                new RegistryReplica(registry, masked, opener), stored, origin.id(),
                config.egress().sandboxes().reconcileInterval());
    }

    void onStart(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE) StartupEvent start) throws Throwable {
        feed.startAndWait(Duration.ofSeconds(TIMEOUT_SECONDS));
    }

    void onStop(@Observes ShutdownEvent stop) {
        feed.stop();
    }

    /** Reads the stored registrations into memory, replacing what it held; waits on the calling thread. */
    public int load() throws Throwable {
        return feed.reloadAndWait(Duration.ofSeconds(TIMEOUT_SECONDS));
    }

    /** The feed that keeps this replica's registry following the stored registrations. */
    public RegistrationFeed feed() {
        return feed;
    }
}
