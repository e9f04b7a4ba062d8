package io.trimus.adapter.run;

import org.jboss.logging.Logger;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs an executor holds (queued or running), by run id, with whatever the executor keeps about each: how a cancel
 * finds its run, and how a second request for a held run is ignored instead of starting it twice.
 *
 * @param <H> the executor's handle of one run
 */
public final class RunTable<H> {

    private static final Logger LOG = Logger.getLogger(RunTable.class);

    private final Map<UUID, H> held = new ConcurrentHashMap<>();

    /** Holds the run unless it is already held; a second request is logged and refused. */
    public boolean hold(UUID runId, H handle) {
        if (held.putIfAbsent(runId, handle) != null) {
            LOG.infof("run %s is already being executed; ignoring the second request", runId);
            return false;
        }
        return true;
    }

    /** The handle of a held run, or null when the run is not held here. */
    public H get(UUID runId) {
        return held.get(runId);
    }

    /** Lets go of the run, if {@code handle} is still the one held for it. */
    public void release(UUID runId, H handle) {
        held.remove(runId, handle);
    }

    /** Whether the run is held here. */
    public boolean holds(UUID runId) {
        return held.containsKey(runId);
    }

    /** Every handle held now (a live view, safe to iterate while runs end). */
    public Collection<H> all() {
        return Collections.unmodifiableCollection(held.values());
    }
}
