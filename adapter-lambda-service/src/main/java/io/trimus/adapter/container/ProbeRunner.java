package io.trimus.adapter.container;

import com.github.dockerjava.api.DockerClient;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs a probe container (an egress canary's sandbox) with the same steps and hardening as a docker run, and returns
 * how it ended instead of reporting it: nothing of a probe goes to trimus.run.status or trimus.adapter.leases, and a
 * probe takes no slot of the run pool and no share of its company's. Blocking: callers bound their own concurrency.
 * The steps: join the network (resolver and proxy checks, address claimed at egress-service), create, register, start,
 * wait within the policy's timeout, read the output, and always remove the container and deregister it.
 */
@ApplicationScoped
public class ProbeRunner {

    private final ContainerCalls containers;
    private final ContainerExit exit;
    private final SandboxAttachment attachment;
    private final WritableLayerQuota writableLayer;
    private final String host;
    private final Set<UUID> held = ConcurrentHashMap.newKeySet();

    /** How a probe ended: its state, exit code and output when it ran, why not when it did not. */
    public record Outcome(RunState state, Integer exitCode, String output, String error, String sandboxIp) {
    }

    @Inject
    public ProbeRunner(DockerClient docker, TrimusConfig config, SandboxAttachment attachment) {
        this.host = config.docker().host();
        this.containers = new ContainerCalls(docker, host, config.run().outputMaxBytes());
        this.exit = new ContainerExit(containers);
        this.attachment = attachment;
        this.writableLayer = new WritableLayerQuota(config.docker().allowUnboundedWritableLayer());
    }

    /**
     * Runs {@code policy} for the synthetic request {@code probe} (its run id names the probe at egress-service and on
     * the container's labels) to its end, on the calling thread.
     */
    public Outcome run(RunRequested probe, ContainerPolicy policy) {
        if (!held.add(probe.runId())) {
            return new Outcome(RunState.FAILED, null, null, "probe " + probe.runId() + " is already running here",
                    null);
        }
        RunHandle handle = new RunHandle(probe);
        handle.begin();
        ContainerRun container = new ContainerRun(probe, policy, handle, containers, attachment, new StepTimes());
        try {
            RunOutcome outcome = execute(container);
            return new Outcome(outcome.state(), outcome.exitCode(), outcome.output(), outcome.error(),
                    container.sandboxAddress());
        } finally {
            container.cleanUp();
            held.remove(probe.runId());
        }
    }

    private RunOutcome execute(ContainerRun container) {
        try {
            container.settleUser();
            container.joinNetwork(Optional.empty());
            container.create(writableLayer);
            container.register(Optional.empty());
            container.start(started -> { });
            return container.awaitExit(exit);
        } catch (RunOutcome.Ended ended) {
            return ended.outcome().reported() ? ended.outcome()
                    : RunOutcome.of(RunState.FAILED, "a container of this probe already exists");
        } catch (SandboxAttachment.Refused refused) {
            return RunOutcome.of(refused.state(), refused.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RunOutcome.of(RunState.FAILED, "the adapter service stopped while the probe was in progress");
        } catch (RuntimeException e) {
            return container.failed(e, host);
        }
    }

    /** Whether a probe of this id is running in this process (so the boot's orphan reaping leaves it alone). */
    public boolean holds(UUID probeId) {
        return held.contains(probeId);
    }
}
