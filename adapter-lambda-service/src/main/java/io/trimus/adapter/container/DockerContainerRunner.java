package io.trimus.adapter.container;

import com.github.dockerjava.api.DockerClient;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.adapter.engine.EngineRuntimes;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.run.secrets.DispatchKeys;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.secrets.Redactor;
import io.trimus.events.secrets.SandboxMasks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The blocking life of one docker run: network allowed? → runtime registered with the engine? → (egress network: resolver and proxy answer, waited for
 * up to TRIMUS_EGRESS_READY_TIMEOUT; claim the sandbox address at egress-service; place the egress CA, without which
 * a run with masked secrets fails) → create (deterministic name; a writable root bounded in size, else REJECTED unless
 * the operator allows it unbounded) → (egress network: confirm the container to egress-service, with its sealed masks,
 * refreshed while it runs) → start → RUNNING → wait with
 * the timeout → collect the output tail → (egress network: egress-service's notes on the names the run used, e.g.
 * suspected tunnelling) → SUCCEEDED | FAILED | TIMED_OUT | CANCELLED → remove → (deregister, release the address). Called on a worker thread of {@link RunExecutor}, never on the event loop.
 */
@ApplicationScoped
public class DockerContainerRunner {

    /** Why a run with masked secrets cannot use any other network. */
    public static final String MASKS_NEED_EGRESS = "masked secrets need the egress proxy, which swaps in their real"
            + " values: they are only available on the egress network";

    private final ContainerCalls containers;
    private final ContainerExit exit;
    private final RunReporter reporter;
    private final String host;
    private final SandboxAttachment attachment;
    private final WritableLayerQuota writableLayer;
    private final Optional<SandboxMasks> masks;
    private final EngineRuntimes runtimes;

    @Inject
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, TrimusConfig config,
                                 SandboxAttachment attachment, DispatchKeys keys, EngineRuntimes runtimes) {
        this.host = config.docker().host();
        this.masks = keys.masks();
        this.containers = new ContainerCalls(docker, host, config.run().outputMaxBytes());
        this.exit = new ContainerExit(containers);
        this.reporter = reporter;
        this.attachment = attachment;
        this.writableLayer = new WritableLayerQuota(config.docker().allowUnboundedWritableLayer());
        this.runtimes = runtimes;
    }

    /**
     * Executes the run to its end and reports every transition after DISPATCHED: RUNNING once the container started,
     * then its outcome, once, whichever step decided it; the container and the sandbox address are cleaned up in
     * every case.
     */
    public void run(RunRequested run, ContainerPolicy decided, RunHandle handle) {
        run(run, decided, handle, CompletableFuture.completedFuture(RunStarts.Start.GO));
    }

    /**
     * As {@link #run(RunRequested, ContainerPolicy, RunHandle)} for a run whose start is being recorded
     * ({@link RunStarts#recordStart}): nothing of it is created before {@code start} says GO.
     */
    void run(RunRequested run, ContainerPolicy decided, RunHandle handle, CompletionStage<RunStarts.Start> start) {
        ContainerRun container = new ContainerRun(run, decided, handle, containers, attachment, new StepTimes());
        try {
            RunOutcome outcome = outcome(container, run, decided, start);
            if (outcome.reported()) {
                report(run, decided, outcome.state(), outcome.exitCode(), outcome.output(), outcome.error(),
                        container.egressNotes());
            }
        } finally {
            container.cleanUp();
        }
    }

    /** How the run ended, whichever step decided it. */
    private RunOutcome outcome(ContainerRun container, RunRequested run, ContainerPolicy decided,
                               CompletionStage<RunStarts.Start> start) {
        try {
            return execute(container, run, start);
        } catch (RunOutcome.Ended ended) {
            return ended.outcome();
        } catch (SandboxAttachment.Refused refused) {
            return RunOutcome.of(refused.state(), refused.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ContainerRun.stopped();
        } catch (RuntimeException e) {
            return container.failed(e, host);
        }
    }

    /**
     * The steps of one run, in order; each may end it early ({@link RunOutcome.Ended}). Only the image's inspection,
     * which changes nothing, comes before the start is recorded.
     */
    private RunOutcome execute(ContainerRun container, RunRequested run, CompletionStage<RunStarts.Start> start)
            throws RunOutcome.Ended, SandboxAttachment.Refused, InterruptedException {
        container.settleUser();
        container.awaitStart(start);
        container.checkRuntime(runtimes);
        container.joinNetwork(masks);
        container.placeEgressCa();
        container.create(writableLayer);
        container.register(masks);
        container.start(started -> report(run, started, RunState.RUNNING, null, null, null, List.of()));
        return container.awaitExit(exit);
    }

    /** Kills a container; one that is already gone or stopped is fine. */
    public void kill(String containerId) {
        containers.kill(containerId);
    }

    /**
     * Reports a transition; whatever the run printed or an error quotes is reported with its secrets masked. The
     * output of a run that printed any is read by the policy's {@link ContainerPolicy#outputReader} (an agent CLI's
     * answer and usage), from the raw tail, before anything is masked: the reader masks what it takes out.
     */
    private void report(RunRequested run, ContainerPolicy policy, RunState state, Integer exitCode, String output,
                        String error, List<String> egressNotes) {
        Redactor redactor = policy.redactor();
        RunStatusChanged event = RunStatusChanged.of(run.runId(), run.companyId(), run.agentId(), state, exitCode,
                redactor.redact(output), redactor.redact(error));
        if (state == RunState.RUNNING) {
            event = event.withNotes(policy.notes());
        } else if (output != null) {
            event = policy.outputReader().read(event, output, redactor);
        }
        if (!egressNotes.isEmpty()) {
            List<String> notes = new ArrayList<>(event.notes() == null ? List.of() : event.notes());
            notes.addAll(egressNotes);
            event = event.withNotes(notes);
        }
        reporter.report(event);
    }
}
