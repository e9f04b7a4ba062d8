package io.trimus.adapter.intake;

import io.smallrye.common.annotation.Blocking;
import io.trimus.adapter.dispatch.RunDispatcher;
import io.trimus.events.RunRequested;
import io.trimus.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/** {@code trimus.run.requested} → {@link RunDispatcher#dispatch}. */
@ApplicationScoped
public class RunRequestedConsumer {

    private static final Logger LOG = Logger.getLogger(RunRequestedConsumer.class);

    @Inject
    RunDispatcher dispatcher;

    @Incoming(Topics.RUN_REQUESTED)
    @Blocking
    public void onRunRequested(RunRequested request) {
        if (request == null) {
            LOG.debug("skipped an unreadable record on " + Topics.RUN_REQUESTED);
            return;
        }
        dispatcher.dispatch(request);
    }
}
