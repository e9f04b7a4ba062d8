package io.trimus.egress.policy.replica;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.feed.ListenerOptions;
import io.trimus.egress.policy.EgressModeCache;
import io.trimus.egress.policy.PolicyCurrency;
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
 * Loads the whole stored egress policy (every company's allowlist and mode, every agent's own list) into memory at start, before observers of
 * default priority run (the resolver's and the proxy's start), and blocks start until it is done: the first answer
 * already knows every company's list and mode. From then on its {@link PolicyFeed} follows the changes other replicas
 * make and tells the resolver and the proxy, as this replica's {@link PolicyCurrency}, whether the copy is current.
 * Start fails when the database cannot be read within {@value #TIMEOUT_SECONDS} s. {@link PolicyReadiness} reports the
 * state to orchestrators.
 */
@ApplicationScoped
public class PolicyLoader implements PolicyCurrency {
    static final int TIMEOUT_SECONDS = 60;

    private final PolicyFeed feed;

    @Inject
    PolicyLoader(Vertx vertx, AllowlistCache allowlists, AgentAllowlistCache agentAllowlists, EgressModeCache modes,
                 TrimusConfig config,
                 @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                 @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
                 @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        TrimusConfig.Policy policy = config.egress().policy();
        this.feed = new PolicyFeed(vertx, ListenerOptions.of(url, user, password), allowlists,
                agentAllowlists, modes,
                policy.checkInterval(), policy.staleAfter());
    }

    void onStart(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE) StartupEvent start) {
        feed.startAndWait(Duration.ofSeconds(TIMEOUT_SECONDS));
    }

    void onStop(@Observes ShutdownEvent stop) {
        feed.stop();
    }

    @Override
    public boolean isCurrent() {
        return feed.isCurrent();
    }

    /** Reads what changed in the stored policy into memory; waits on the calling thread. */
    public int load() throws Throwable {
        return feed.reloadAndWait(Duration.ofSeconds(TIMEOUT_SECONDS));
    }

    /** The feed that keeps this replica's policy following the stored one. */
    public PolicyFeed feed() {
        return feed;
    }
}
