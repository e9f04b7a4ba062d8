package io.trimus.adapter.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.egress.ca.EgressCaVolumes;
import io.trimus.adapter.egress.network.EgressNetworkSettings;
import io.trimus.adapter.egress.registry.EgressServiceClient;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.egress.probe.ProxyProbe;
import io.trimus.adapter.egress.ReadyWait;
import io.trimus.adapter.egress.probe.ResolverProbe;
import io.trimus.adapter.egress.SandboxAddressPool;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.adapter.egress.SandboxNetwork;
import io.trimus.adapter.engine.EngineErrors;
import io.trimus.adapter.run.secrets.DispatchKeys;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.RunReporter;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.secrets.Redactor;
import io.trimus.events.secrets.SandboxMasks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The blocking life of one docker run: network allowed? → (egress network: resolver and proxy answer, waited for
 * up to TRIMUS_EGRESS_READY_TIMEOUT; claim the sandbox address at egress-service; place the egress CA, without which
 * a run with masked secrets fails) → create (deterministic name; a writable root bounded in size, else REJECTED unless
 * the operator allows it unbounded) → (egress network: confirm the container to egress-service, with its sealed masks,
 * refreshed while it runs) → start → RUNNING → wait with
 * the timeout → collect the output tail → SUCCEEDED | FAILED | TIMED_OUT | CANCELLED → remove → (deregister, release
 * the address). Called on a worker thread of {@link RunExecutor}, never on the event loop.
 */
@ApplicationScoped
public class DockerContainerRunner {

    private static final Logger LOG = Logger.getLogger(DockerContainerRunner.class);
    /** Why a run with masked secrets cannot use any other network. */
    public static final String MASKS_NEED_EGRESS = "masked secrets need the egress proxy, which swaps in their real"
            + " values: they are only available on the egress network";

    private final ContainerCalls containers;
    private final RunReporter reporter;
    private final String host;
    private final SandboxAttachment attachment;
    private final WritableLayerQuota writableLayer;
    private final Optional<SandboxMasks> masks;

    @Inject
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, TrimusConfig config,
                                 SandboxAttachment attachment, DispatchKeys keys) {
        this(docker, reporter, config.docker().host(), config.run().outputMaxBytes(), attachment,
                config.docker().allowUnboundedWritableLayer(), keys.masks());
    }

    /** A runner whose egress network is never ready: a run on trimus-egress-allowlist fails, nothing is created. */
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, String host, int outputMaxBytes) {
        this(docker, reporter, host, outputMaxBytes, false);
    }

    /** As above, with TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER given. */
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, String host, int outputMaxBytes,
                                 boolean allowUnboundedWritableLayer) {
        this(docker, reporter, host, outputMaxBytes, new SandboxAttachment(docker,
                new EnsureEgressNetwork(docker, EgressNetworkSettings.defaults(), host), new SandboxAddressPool(),
                new EgressServiceClient(URI.create("http://127.0.0.1:8083"), Duration.ofSeconds(5)),
                new ResolverProbe(Optional.empty()), new ProxyProbe(3128, Optional.empty()),
                new ReadyWait(Duration.ZERO)), allowUnboundedWritableLayer);
    }

    /** A runner that refuses writable runs the engine cannot bound (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER off). */
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, String host, int outputMaxBytes,
                                 SandboxAttachment attachment) {
        this(docker, reporter, host, outputMaxBytes, attachment, false);
    }

    /** A runner without a dispatch key: a run with masked secrets is rejected. */
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, String host, int outputMaxBytes,
                                 SandboxAttachment attachment, boolean allowUnboundedWritableLayer) {
        this(docker, reporter, host, outputMaxBytes, attachment, allowUnboundedWritableLayer, Optional.empty());
    }

    public DockerContainerRunner(DockerClient docker, RunReporter reporter, String host, int outputMaxBytes,
                                 SandboxAttachment attachment, boolean allowUnboundedWritableLayer,
                                 Optional<SandboxMasks> masks) {
        this.masks = masks;
        this.containers = new ContainerCalls(docker, host, outputMaxBytes);
        this.reporter = reporter;
        this.host = host;
        this.attachment = attachment;
        this.writableLayer = new WritableLayerQuota(allowUnboundedWritableLayer);
    }

    /** Executes the run to its end and reports every transition after DISPATCHED. */
    public void run(RunRequested run, ContainerPolicy decided, RunHandle handle) {
        ContainerPolicy policy = decided;
        String containerId = null;
        SandboxNetwork sandbox = null;
        String step = "check the network";
        try {
            if (!decided.masks().isEmpty() && masks.isEmpty()) {
                report(run, decided, RunState.REJECTED, null, null, "the run carries masked secrets but neither"
                        + " TRIMUS_ENCRYPTION_KEY nor TRIMUS_DISPATCH_KEY is set on the adapter service");
                return;
            }
            sandbox = attachment.attach(run, decided.network(), handle::pause);
            if (sandbox == null && !decided.masks().isEmpty()) {
                report(run, decided, RunState.REJECTED, null, null, MASKS_NEED_EGRESS);
                return;
            }
            if (sandbox != null) {
                policy = decided.onSandboxNetwork(sandbox);
            }
            if (policy.user() == null) {
                step = "inspect the image";
                try {
                    policy = policy.runningAs(ContainerPolicy.defaultUser(containers.imageUser(policy.image())));
                } catch (NotFoundException missing) {
                    report(run, decided, RunState.FAILED, null, null,
                            "image " + policy.image() + " not found on the Docker engine");
                    return;
                }
            }
            String caFingerprint = null;
            if (sandbox != null) {
                step = "place the egress CA";
                try {
                    EgressCaVolumes.Placed ca = attachment.egressCa().place(policy.image());
                    policy = policy.withEgressCa(ca.volume());
                    caFingerprint = ca.fingerprint();
                } catch (EgressCaVolumes.Unavailable unavailable) {
                    if (!policy.masks().isEmpty()) {
                        report(run, decided, RunState.FAILED, null, null, "masked secrets need the egress CA in the"
                                + " sandbox, but " + unavailable.getMessage() + "; the container was not started");
                        return;
                    }
                    // without masked secrets the sandbox does without: its TLS is tunnelled, never intercepted
                }
            }
            step = "create the container";
            try {
                WritableLayerQuota.Created created = writableLayer.create(policy, containers);
                containerId = created.containerId();
                policy = created.policy();
            } catch (RunRejected refused) {
                report(run, decided, RunState.REJECTED, null, null, refused.getMessage());
                return;
            } catch (ConflictException duplicate) {
                // the name is the run id: another delivery of this run already owns the container
                LOG.infof("container %s already exists: run %s is already executing; nothing to do",
                        policy.name(), run.runId());
                return;
            } catch (NotFoundException missing) {
                // the image is checked only on this path: an extra engine round trip on every run costs latency
                report(run, decided, RunState.FAILED, null, null, containers.imagePresent(policy.image())
                        ? "could not create the container: " + EngineErrors.engineMessage(missing)
                        : "image " + policy.image() + " not found on the Docker engine");
                return;
            }
            if (!handle.attach(containerId)) {
                report(run, decided, RunState.CANCELLED, null, null, "cancelled before it started");
                return;
            }
            if (sandbox != null) {
                // before start: the sandbox's very first DNS query must already be attributed to its company
                step = "register the sandbox with egress-service";
                String sealed = policy.masks().isEmpty() ? null : masks.orElseThrow().seal(run.runId(),
                        EgressServiceClient.canonical(sandbox.ipv4Address()), policy.masks());
                attachment.register(run, sandbox, containerId, sealed, caFingerprint);
            }
            step = "start the container";
            containers.start(containerId);
            report(run, policy, RunState.RUNNING, null, null, null);
            if (handle.isCancelled()) {
                containers.kill(containerId);
            }

            step = "watch the container";
            WaitContainerResultCallback wait = containers.watch(containerId);
            long timeoutSec = policy.timeout().toSeconds();
            if (!wait.awaitCompletion(timeoutSec, TimeUnit.SECONDS)) {
                ContainerCalls.closeQuietly(wait);
                containers.kill(containerId);
                containers.awaitExit(containerId);
                String output = containers.output(containerId);
                if (handle.isCancelled()) {
                    report(run, decided, RunState.CANCELLED, null, output, "cancelled");
                } else {
                    report(run, decided, RunState.TIMED_OUT, null, output,
                            "timed out after " + timeoutSec + " s; the container was killed");
                }
                return;
            }
            int exitCode = wait.awaitStatusCode();
            step = "read the container's result";
            String output = containers.output(containerId);
            if (handle.isCancelled()) {
                report(run, decided, RunState.CANCELLED, exitCode, output, "cancelled");
            } else if (exitCode != 0 && containers.oomKilled(containerId, exitCode)) {
                String limit = policy.memoryLimitText();
                report(run, decided, RunState.FAILED, exitCode, output,
                        "killed: out of memory" + (limit == null ? "" : " (limit " + limit + ")"));
            } else if (exitCode == 0) {
                report(run, decided, RunState.SUCCEEDED, 0, output, null);
            } else {
                report(run, decided, RunState.FAILED, exitCode, output, "exited with code " + exitCode);
            }
        } catch (SandboxAttachment.Refused refused) {
            report(run, decided, refused.state(), null, null, refused.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            report(run, decided, RunState.FAILED, null, null, "the adapter service stopped while the run was in progress");
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted() || e.getCause() instanceof InterruptedException) {
                report(run, decided, RunState.FAILED, null, null, "the adapter service stopped while the run was in progress");
            } else if (e instanceof NotFoundException && containerId != null) {
                report(run, decided, RunState.FAILED, null, null,
                        "the container was removed outside Trimus while the run was in progress");
            } else {
                if (EngineErrors.isUnreachable(e)) {
                    LOG.warnf("run %s: Docker engine unreachable while trying to %s: %s", run.runId(), step, e);
                } else {
                    LOG.errorf(e, "run %s: could not %s", run.runId(), step);
                }
                report(run, decided, RunState.FAILED, null, null, EngineErrors.describe(e, host, step));
            }
        } finally {
            // an interrupted thread cannot lease an engine connection: clear the flag for the cleanup
            boolean interrupted = Thread.interrupted();
            // in this order: a sandbox is deregistered only once it can no longer send, and its address is
            // handed out again only once the registration is gone
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

    /** Kills a container; one that is already gone or stopped is fine. */
    public void kill(String containerId) {
        containers.kill(containerId);
    }

    /** Reports a transition; whatever the run printed or an error quotes is reported with its secrets masked. */
    private void report(RunRequested run, ContainerPolicy policy, RunState state, Integer exitCode, String output,
                        String error) {
        Redactor redactor = policy.redactor();
        RunStatusChanged event = RunStatusChanged.of(run.runId(), run.companyId(), run.agentId(), state, exitCode,
                redactor.redact(output), redactor.redact(error));
        reporter.report(state == RunState.RUNNING ? event.withNotes(policy.notes()) : event);
    }
}
