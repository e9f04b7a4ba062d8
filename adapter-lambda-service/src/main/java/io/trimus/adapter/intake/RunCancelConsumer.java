package io.trimus.adapter.intake;

import io.smallrye.common.annotation.Blocking;
import io.trimus.adapter.dispatch.RunDispatcher;
import io.trimus.events.RunCancelRequested;
import io.trimus.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/** {@code trimus.run.cancel} → {@link RunDispatcher#cancel}; blocking, because killing a container is. */
@ApplicationScoped
public class RunCancelConsumer {

    private static final Logger LOG = Logger.getLogger(RunCancelConsumer.class);

    @Inject
    RunDispatcher dispatcher;

    @Incoming(Topics.RUN_CANCEL)
    @Blocking
    public void onCancel(RunCancelRequested cancel) {
        if (cancel == null) {
            LOG.debug("skipped an unreadable record on " + Topics.RUN_CANCEL);
            return;
        }
        dispatcher.cancel(cancel);
    }
}
