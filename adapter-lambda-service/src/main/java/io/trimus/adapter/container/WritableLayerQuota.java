package io.trimus.adapter.container;

import com.github.dockerjava.api.exception.DockerException;
import io.trimus.adapter.engine.EngineErrors;
import io.trimus.adapter.run.RunRejected;
import io.trimus.events.adapter.AllowedRuntimes;
import org.jboss.logging.Logger;

import java.util.Locale;

/**
 * Whether a {@code "writable": true} container may be created, and with which size limit on its writable layer.
 * Only some storage drivers can enforce a size ({@code --storage-opt size=}: overlay2 on xfs mounted with pquota,
 * btrfs, zfs, devicemapper); overlay2 on ext4, the usual engine, cannot. The engine says so when asked for one, so the
 * first writable run asks, and the answer is kept for the life of the process: where the engine cannot bound the
 * layer, writable runs are REJECTED, unless the operator allows them unbounded
 * (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER), and then each says so on RUNNING. Under gVisor a writable root's
 * writes go to gVisor's own overlay file on the engine's disk (measured: 1 GB written, none of it in the container's
 * layer, none against its memory limit), which no storage-driver size is known to cover: such a run counts as
 * unbounded whatever the driver.
 */
final class WritableLayerQuota {

    private static final Logger LOG = Logger.getLogger(WritableLayerQuota.class);

    private final boolean allowUnbounded;
    /** Whether the engine enforces a storage size: null until a writable run has asked. */
    private volatile Boolean engineBounds;
    private volatile String engineReason = "";

    WritableLayerQuota(boolean allowUnbounded) {
        this.allowUnbounded = allowUnbounded;
    }

    /**
     * Creates the container of {@code policy}: with its writable-layer size where the engine enforces one, else
     * unbounded where the operator allows it.
     *
     * @return the policy the container was created with (an unbounded one carries a note for RUNNING)
     * @throws RunRejected when the engine cannot bound the layer and the operator does not allow it unbounded
     */
    Created create(ContainerPolicy policy, ContainerCalls containers) {
        if (policy.writableLayerSize() == null) {
            return new Created(containers.create(policy), policy);
        }
        if (AllowedRuntimes.RUNSC.equals(policy.runtime())) {
            ContainerPolicy unbounded = unbounded(policy, GVISOR, GVISOR_NOTE);
            return new Created(containers.create(unbounded), unbounded);
        }
        if (Boolean.FALSE.equals(engineBounds)) {
            ContainerPolicy unbounded = unbounded(policy, driver(), DRIVER_NOTE);
            return new Created(containers.create(unbounded), unbounded);
        }
        try {
            String id = containers.create(policy);
            engineBounds = true;
            return new Created(id, policy);
        } catch (DockerException e) {
            if (!refusesStorageSize(e)) {
                throw e;
            }
            engineReason = EngineErrors.engineMessage(e);
            engineBounds = false;
            LOG.warnf("the Docker engine cannot limit a container's writable layer (%s): writable runs %s",
                    engineReason, allowUnbounded ? "run unbounded (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER=true)"
                            : "are REJECTED (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER=false)");
            ContainerPolicy unbounded = unbounded(policy, driver(), DRIVER_NOTE);
            return new Created(containers.create(unbounded), unbounded);
        }
    }

    private String driver() {
        return "this Docker engine's storage driver cannot limit (" + engineReason + ")";
    }

    /** Why a gVisor sandbox's writable root has no size limit. */
    static final String GVISOR = "Trimus cannot limit under gVisor (runtime runsc: the root is written to gVisor's"
            + " own overlay file on the engine's disk)";

    /** Why a gVisor sandbox's writable root has no size limit, on RUNNING. */
    static final String GVISOR_NOTE = "gVisor writes it to an overlay file of its own that Trimus cannot limit";
    private static final String DRIVER_NOTE = "the Docker engine's storage driver cannot enforce one";

    /**
     * The policy unbounded, where the operator allows it; {@code why} completes "whose size …", {@code note} the
     * RUNNING note.
     */
    private ContainerPolicy unbounded(ContainerPolicy policy, String why, String note) {
        if (!allowUnbounded) {
            throw new RunRejected("adapter_config.writable asks for a writable root filesystem, whose size " + why
                    + ", and this Trimus runs no unbounded one (the operator sets"
                    + " TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER); leave writable unset to run on a read-only root"
                    + " with a writable /tmp");
        }
        return policy.withUnboundedWritableLayer("the writable root filesystem has no size limit: " + note
                + " (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER=true)");
    }

    /** The engine's answer to a size on a driver that has none, e.g. "--storage-opt is supported only for overlay…". */
    static boolean refusesStorageSize(DockerException e) {
        String message = EngineErrors.engineMessage(e).toLowerCase(Locale.ROOT);
        return (e.getHttpStatus() == 500 || e.getHttpStatus() == 400)
                && (message.contains("storage-opt") || message.contains("storage opt"));
    }

    /** A created container and the policy it was created with. */
    record Created(String containerId, ContainerPolicy policy) {
    }
}
