package io.trimus.adapter.container;

import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.adapter.egress.SandboxNetwork;
import io.trimus.adapter.egress.ca.EgressCaVolumes;
import io.trimus.adapter.egress.registry.EgressServiceClient;
import io.trimus.adapter.engine.EngineErrors;
import io.trimus.adapter.engine.EngineRuntimes;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.RunStarts;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.secrets.SandboxMasks;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * One docker run's container through its steps, in the order {@link DockerContainerRunner} calls them: join the
 * network, settle the user, place the egress CA, create, register with egress-service, start, and always clean up.
 * A step that decides the run's outcome throws {@link RunOutcome.Ended}; the runner reports it. Holds what the
 * cleanup needs (the container, the sandbox address) and the step under way, for the sentence of an engine failure.
 */
final class ContainerRun {

    private static final Logger LOG = Logger.getLogger(ContainerRun.class);

    private final RunRequested run;
    private final ContainerPolicy decided;
    private final RunHandle handle;
    private final ContainerCalls containers;
    private final SandboxAttachment attachment;
    private ContainerPolicy policy;
    private SandboxNetwork sandbox;
    private String caFingerprint;
    private String containerId;
    private String step;
    private final StepTimes times;

    ContainerRun(RunRequested run, ContainerPolicy decided, RunHandle handle, ContainerCalls containers,
                 SandboxAttachment attachment, StepTimes times) {
        this.run = run;
        this.decided = decided;
        this.policy = decided;
        this.handle = handle;
        this.containers = containers;
        this.attachment = attachment;
        this.times = times;
    }

    private void step(String next) {
        step = next;
        times.begin(next);
    }

    /**
     * Checks the network the run asked for and, on the egress network, claims the sandbox's address. A run with
     * masked secrets needs both a key to seal them and the egress network.
     */
    void joinNetwork(Optional<SandboxMasks> masks)
            throws RunOutcome.Ended, SandboxAttachment.Refused, InterruptedException {
        step("check the network");
        if (!decided.masks().isEmpty() && masks.isEmpty()) {
            throw new RunOutcome.Ended(RunState.REJECTED, "the run carries masked secrets but neither"
                    + " TRIMUS_ENCRYPTION_KEY nor TRIMUS_DISPATCH_KEY is set on the adapter service");
        }
        sandbox = attachment.attach(run, decided.network(), handle::pause);
        if (sandbox == null && !decided.masks().isEmpty()) {
            throw new RunOutcome.Ended(RunState.REJECTED, DockerContainerRunner.MASKS_NEED_EGRESS);
        }
        if (sandbox != null) {
            policy = policy.onSandboxNetwork(sandbox);
        }
    }

    /**
     * Waits until the run's start is recorded on trimus.adapter.leases (sent before {@link #settleUser}, so the
     * broker's round trip and the image's inspection overlap). Nothing of the run exists before this returns: of two
     * processes that got the same request, only the first to record its start goes on.
     */
    void awaitStart(CompletionStage<RunStarts.Start> start) throws RunOutcome.Ended, InterruptedException {
        step("record the start on trimus.adapter.leases");
        RunStarts.Start recorded;
        try {
            recorded = start.toCompletableFuture().get();
        } catch (ExecutionException e) {
            recorded = RunStarts.Start.NOT_RECORDED;
        }
        switch (recorded) {
            case GO -> { }
            case NOT_RECORDED -> throw new RunOutcome.Ended(RunState.FAILED, RunStarts.NOT_RECORDED);
            case TAKEN -> throw new RunOutcome.Ended(RunOutcome.NOTHING);
        }
    }

    /** A run whose agent names no user runs as the image's USER unless that is root. */
    void settleUser() throws RunOutcome.Ended {
        if (policy.user() != null) {
            return;
        }
        step("inspect the image");
        try {
            policy = policy.runningAs(ContainerPolicy.defaultUser(containers.imageUser(policy.image())));
        } catch (NotFoundException missing) {
            throw new RunOutcome.Ended(RunState.FAILED, "image " + policy.image() + " not found on the Docker engine");
        }
    }

    /**
     * A run under a named runtime needs it registered with the engine (and gVisor registered to honour the seccomp
     * profile): otherwise REJECTED, before anything is created.
     */
    void checkRuntime(EngineRuntimes runtimes) throws RunOutcome.Ended {
        if (policy.runtime() == null) {
            return;
        }
        step("read the engine's runtimes");
        Optional<String> refusal = runtimes.refusal(policy.runtime());
        if (refusal.isPresent()) {
            throw new RunOutcome.Ended(RunState.REJECTED, refusal.get());
        }
    }

    /**
     * Puts the egress CA in a sandbox; a sandbox without masked secrets does without (its TLS is tunnelled, never
     * intercepted), one with them cannot.
     */
    void placeEgressCa() throws RunOutcome.Ended, InterruptedException {
        if (sandbox == null) {
            return;
        }
        step("place the egress CA");
        try {
            EgressCaVolumes.Placed ca = attachment.egressCa().place(policy.image());
            policy = policy.withEgressCa(ca.volume());
            caFingerprint = ca.fingerprint();
        } catch (EgressCaVolumes.Unavailable unavailable) {
            if (!policy.masks().isEmpty()) {
                throw new RunOutcome.Ended(RunState.FAILED, "masked secrets need the egress CA in the sandbox, but "
                        + unavailable.getMessage() + "; the container was not started");
            }
        }
    }

    /**
     * Creates the container under the run's deterministic name and hands it to the run's handle, so a cancel from now
     * on kills it.
     */
    void create(WritableLayerQuota writableLayer) throws RunOutcome.Ended, InterruptedException {
        step("create the container");
        try {
            WritableLayerQuota.Created created = writableLayer.create(policy, containers);
            containerId = created.containerId();
            policy = created.policy();
        } catch (RunRejected refused) {
            throw new RunOutcome.Ended(RunState.REJECTED, refused.getMessage());
        } catch (ConflictException duplicate) {
            // the name is the run id: another delivery of this run already owns the container
            LOG.infof("container %s already exists: run %s is already executing; nothing to do",
                    policy.name(), run.runId());
            throw new RunOutcome.Ended(RunOutcome.NOTHING);
        } catch (NotFoundException missing) {
            // the image is checked only on this path: an extra engine round trip on every run costs latency
            throw new RunOutcome.Ended(RunState.FAILED, containers.imagePresent(policy.image())
                    ? "could not create the container: " + EngineErrors.engineMessage(missing)
                    : "image " + policy.image() + " not found on the Docker engine");
        }
        if (!handle.attach(containerId)) {
            throw new RunOutcome.Ended(RunState.CANCELLED, "cancelled before it started");
        }
    }

    /**
     * Confirms a sandbox's container to egress-service with its sealed masks, before start: the sandbox's very first
     * DNS query must already be attributed to its company.
     */
    void register(Optional<SandboxMasks> masks) throws SandboxAttachment.Refused, InterruptedException {
        if (sandbox == null) {
            return;
        }
        step("register the sandbox with egress-service");
        String sealed = policy.masks().isEmpty() ? null : masks.orElseThrow().seal(run.runId(),
                EgressServiceClient.canonical(sandbox.ipv4Address()), policy.masks());
        attachment.register(run, sandbox, containerId, sealed, caFingerprint);
    }

    /** Starts the container and tells {@code running}; a cancel that came meanwhile kills it at once. */
    void start(Consumer<ContainerPolicy> running) {
        step("start the container");
        containers.start(containerId);
        times.begin("report RUNNING");
        running.accept(policy);
        if (LOG.isDebugEnabled()) {
            LOG.debugf("run %s started: %s", run.runId(), times.summary());
        }
        if (handle.isCancelled()) {
            containers.kill(containerId);
        }
    }

    /** The sandbox's address on the egress network, or null when it has none (yet). */
    String sandboxAddress() {
        return sandbox == null ? null : sandbox.ipv4Address();
    }

    /**
     * What egress-service noted about the names this run's sandbox used (none off the egress network), asked before
     * the cleanup removes its registration. An interrupted thread gets none.
     */
    List<String> egressNotes() {
        if (sandbox == null) {
            return List.of();
        }
        try {
            return attachment.notes(run, sandbox);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** Waits for the started container's end within the run's timeout. */
    RunOutcome awaitExit(ContainerExit exit) throws InterruptedException {
        return exit.await(containerId, policy, handle, next -> step = next);
    }

    /** What a failure the steps did not expect means for the run. */
    RunOutcome failed(RuntimeException e, String host) {
        if (Thread.currentThread().isInterrupted() || e.getCause() instanceof InterruptedException) {
            return stopped();
        }
        if (e instanceof NotFoundException && containerId != null) {
            return RunOutcome.of(RunState.FAILED, "the container was removed outside Trimus while the run was in progress");
        }
        if (EngineErrors.isUnreachable(e)) {
            LOG.warnf("run %s: Docker engine unreachable while trying to %s: %s", run.runId(), step, e);
        } else {
            LOG.errorf(e, "run %s: could not %s", run.runId(), step);
        }
        return RunOutcome.of(RunState.FAILED, EngineErrors.describe(e, host, step));
    }

    /** The outcome of a run whose thread was stopped (the service is shutting down). */
    static RunOutcome stopped() {
        return RunOutcome.of(RunState.FAILED, "the adapter service stopped while the run was in progress");
    }

    /**
     * Removes the container, then takes the sandbox off the egress network: a sandbox is deregistered only once it can
     * no longer send, and its address is handed out again only once the registration is gone. An interrupted thread
     * cannot lease an engine connection, so the flag is cleared for the cleanup and set again after it.
     */
    void cleanUp() {
        boolean interrupted = Thread.interrupted();
        if (containerId != null) {
            containers.remove(containerId);
        }
        if (sandbox != null) {
            attachment.detach(run, sandbox);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
