package io.trimus.adapter.dispatch;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import org.jboss.logging.Logger;

/**
 * At boot, ends the runs a previous process left behind ({@link RunDispatcher#reconcile()}). Runs after the
 * messaging channels are wired (their FAILED events would otherwise have no subscriber); a request redelivered
 * meanwhile is safe, since its container name is still taken until the leftover is removed.
 */
@ApplicationScoped
public class BootReconciliation {

    private static final Logger LOG = Logger.getLogger(BootReconciliation.class);

    @Inject
    RunDispatcher dispatcher;

    void onStart(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE + 100) StartupEvent event) {
        try {
            dispatcher.reconcile();
        } catch (RuntimeException e) {
            LOG.warn("could not look for runs left by a previous process; they are not reported until the next start", e);
        }
    }
}
