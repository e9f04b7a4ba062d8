package io.trimus.adapter.adapter.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.Network;
import io.trimus.adapter.adapter.OutputTail;
import io.trimus.adapter.adapter.RunReporter;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.egress.EgressNetwork;
import io.trimus.adapter.egress.EgressNetworkSettings;
import io.trimus.adapter.egress.EgressServiceClient;
import io.trimus.adapter.egress.EnsureEgressNetwork;
import io.trimus.adapter.egress.ResolverProbe;
import io.trimus.adapter.egress.SandboxAddressPool;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.SandboxRegistration;
import io.trimus.events.secrets.Redactor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The blocking life of one docker run: network allowed? → (egress network: reserve the sandbox address) → create
 * (deterministic name) → (egress network: register the sandbox with egress-service) → start → RUNNING → wait with
 * the timeout → collect the output tail → SUCCEEDED | FAILED | TIMED_OUT | CANCELLED → remove → (deregister, release
 * the address). Called on a worker thread of {@link RunExecutor}, never on the event loop.
 */
@ApplicationScoped
public class DockerContainerRunner {

    private static final Logger LOG = Logger.getLogger(DockerContainerRunner.class);
    /** How long a killed container may take to be reported exited, and logs to be read. */
    private static final long SETTLE_SECONDS = 30;

    private final DockerClient docker;
    private final RunReporter reporter;
    private final String host;
    private final int outputMaxBytes;
    private final EnsureEgressNetwork egressNetwork;
    private final SandboxAddressPool addresses;
    private final EgressServiceClient egressService;
    private final ResolverProbe resolverProbe;

    @Inject
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, TrimusConfig config,
                                 EnsureEgressNetwork egressNetwork, SandboxAddressPool addresses,
                                 EgressServiceClient egressService, ResolverProbe resolverProbe) {
        this(docker, reporter, config.docker().host(), config.run().outputMaxBytes(), egressNetwork, addresses,
                egressService, resolverProbe);
    }

    /** A runner whose egress network is never ready: a run on trimus-egress-allowlist fails, nothing is created. */
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, String host, int outputMaxBytes) {
        this(docker, reporter, host, outputMaxBytes,
                new EnsureEgressNetwork(docker, EgressNetworkSettings.defaults(), host), new SandboxAddressPool(),
                new EgressServiceClient(URI.create("http://127.0.0.1:8083"), Duration.ofSeconds(5)),
                new ResolverProbe(java.util.Optional.empty()));
    }

    public DockerContainerRunner(DockerClient docker, RunReporter reporter, String host, int outputMaxBytes,
                                 EnsureEgressNetwork egressNetwork, SandboxAddressPool addresses,
                                 EgressServiceClient egressService, ResolverProbe resolverProbe) {
        new OutputTail(outputMaxBytes); // checks the knob at boot
        this.docker = docker;
        this.reporter = reporter;
        this.host = host;
        this.outputMaxBytes = outputMaxBytes;
        this.egressNetwork = egressNetwork;
        this.addresses = addresses;
        this.egressService = egressService;
        this.resolverProbe = resolverProbe;
    }

    /** Executes the run to its end and reports every transition after DISPATCHED. */
    public void run(RunRequested run, ContainerPolicy decided, RunHandle handle) {
        ContainerPolicy policy = decided;
        String containerId = null;
        SandboxNetwork sandbox = null;
        boolean registrationSent = false;
        String step = "check the network";
        try {
            sandbox = joinNetwork(decided.network());
            if (sandbox != null) {
                policy = decided.onSandboxNetwork(sandbox);
                step = "check the Trimus resolver";
                String resolverProblem = resolverProbe.problem(sandbox.dns().get(0));
                if (resolverProblem != null) {
                    throw new RunRefused(resolverProblem + "; the container was not started");
                }
            }
            step = "create the container";
            try {
                containerId = create(policy);
            } catch (ConflictException duplicate) {
                // the name is the run id: another delivery of this run already owns the container
                LOG.infof("container %s already exists: run %s is already executing; nothing to do",
                        policy.name(), run.runId());
                return;
            } catch (NotFoundException missing) {
                // the image is checked only on this path: an extra engine round trip on every run costs latency
                report(run, decided, RunState.FAILED, null, null, imagePresent(policy.image())
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
                registrationSent = true;
                register(run, sandbox, containerId);
            }
            step = "start the container";
            docker.startContainerCmd(containerId).exec();
            report(run, decided, RunState.RUNNING, null, null, null);
            if (handle.isCancelled()) {
                kill(containerId);
            }

            step = "watch the container";
            WaitContainerResultCallback wait = docker.waitContainerCmd(containerId)
                    .exec(new WaitContainerResultCallback());
            long timeoutSec = policy.timeout().toSeconds();
            if (!wait.awaitCompletion(timeoutSec, TimeUnit.SECONDS)) {
                closeQuietly(wait);
                kill(containerId);
                awaitExit(containerId);
                String output = output(containerId);
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
            String output = output(containerId);
            if (handle.isCancelled()) {
                report(run, decided, RunState.CANCELLED, exitCode, output, "cancelled");
            } else if (exitCode != 0 && oomKilled(containerId, exitCode)) {
                String limit = policy.memoryLimitText();
                report(run, decided, RunState.FAILED, exitCode, output,
                        "killed: out of memory" + (limit == null ? "" : " (limit " + limit + ")"));
            } else if (exitCode == 0) {
                report(run, decided, RunState.SUCCEEDED, 0, output, null);
            } else {
                report(run, decided, RunState.FAILED, exitCode, output, "exited with code " + exitCode);
            }
        } catch (RunRefused refused) {
            report(run, decided, RunState.FAILED, null, null, refused.getMessage());
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
                remove(containerId);
            }
            if (registrationSent) {
                deregister(run, sandbox);
            }
            if (sandbox != null) {
                addresses.release(sandbox.ipv4Address());
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Kills a container; one that is already gone or stopped is fine. */
    public void kill(String containerId) {
        try {
            docker.killContainerCmd(containerId).exec();
        } catch (NotFoundException | ConflictException | NotModifiedException alreadyStopped) {
            // nothing left to kill
        } catch (RuntimeException e) {
            LOG.warnf("could not kill container %s: %s", containerId, EngineErrors.describe(e, host, "kill it"));
        }
    }

    /**
     * Checks the network the container is to join and, for the egress network, reserves the sandbox's address.
     * Docker also resolves a network by an id prefix, so a harmless-looking name could select the host's network
     * stack, or the egress network without the registration: check what the name resolves to.
     *
     * @return the sandbox's place on the egress network, or null for any other network
     * @throws RunRefused when the container must not join it
     */
    private SandboxNetwork joinNetwork(String requested) throws RunRefused {
        if (DockerAdapterConfig.NETWORK_NONE.equals(requested)) {
            return null;
        }
        String egressName = egressNetwork.settings().name();
        EnsureEgressNetwork.Status egress = egressNetwork.status();
        if (requested.equals(egressName) && !egress.ready()) {
            throw egressNotReady(egress.problem());
        }
        Network network;
        try {
            network = docker.inspectNetworkCmd().withNetworkId(requested).exec();
        } catch (NotFoundException e) {
            if (requested.equals(egressName)) {
                egressNetwork.lost(egress, "network " + egressName + " was removed from the Docker engine;"
                        + " creating it again");
                throw egressNotReady("it no longer exists on the Docker engine; the adapter service creates it again");
            }
            throw new RunRefused("network " + requested + " not found on the Docker engine");
        }
        if ("host".equals(network.getDriver())) {
            throw new RunRefused("network " + requested + " resolves to the host's network stack, which would bypass"
                    + " the container's network isolation; use none or a bridge network");
        }
        boolean isEgress = egressName.equals(network.getName())
                || (egress.ready() && egress.network().id().equals(network.getId()));
        if (!isEgress) {
            return null;
        }
        if (!egress.ready()) {
            throw egressNotReady(egress.problem());
        }
        if (!egress.network().id().equals(network.getId())) {
            egressNetwork.lost(egress, "network " + egressName + " was replaced by another network of that name;"
                    + " checking it again");
            throw egressNotReady("it was replaced since it was checked; the adapter service checks it again");
        }
        EgressNetwork checked = egress.network();
        String address = addresses.reserve(checked, attachedAddresses(network)).orElseThrow(() -> new RunRefused(
                "no free sandbox address left on egress network " + egressName + " (" + checked.subnet() + ")"));
        return SandboxNetwork.on(checked, address, egressNetwork.settings());
    }

    private RunRefused egressNotReady(String why) {
        return new RunRefused("egress network " + egressNetwork.settings().name() + " is not ready: " + why);
    }

    /** The IPv4 addresses of the containers attached to the network, as the engine reports them. */
    private static Set<String> attachedAddresses(Network network) {
        Set<String> addresses = new HashSet<>();
        if (network.getContainers() != null) {
            for (Network.ContainerNetworkConfig endpoint : network.getContainers().values()) {
                String cidr = endpoint.getIpv4Address();
                if (cidr != null && !cidr.isBlank()) {
                    addresses.add(cidr.contains("/") ? cidr.substring(0, cidr.indexOf('/')) : cidr);
                }
            }
        }
        return addresses;
    }

    /** Registers the sandbox with egress-service, synchronously; a failure refuses the run. */
    private void register(RunRequested run, SandboxNetwork sandbox, String containerId)
            throws RunRefused, InterruptedException {
        try {
            egressService.register(sandbox.ipv4Address(),
                    new SandboxRegistration(run.companyId(), run.agentId(), run.runId(), containerId));
            LOG.debugf("run %s: sandbox %s registered with egress-service", run.runId(), sandbox.ipv4Address());
        } catch (EgressServiceClient.RegistrationFailed e) {
            throw new RunRefused("could not register the sandbox with egress-service: " + e.getMessage()
                    + "; the container was not started");
        }
    }

    /** Best effort: egress-service replaces a stale registration when the address is registered again. */
    private void deregister(RunRequested run, SandboxNetwork sandbox) {
        try {
            egressService.deregister(sandbox.ipv4Address());
        } catch (EgressServiceClient.RegistrationFailed e) {
            LOG.warnf("run %s: could not remove the registration of sandbox %s from egress-service: %s",
                    run.runId(), sandbox.ipv4Address(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warnf("run %s: stopped before the registration of sandbox %s was removed from egress-service",
                    run.runId(), sandbox.ipv4Address());
        }
    }

    /**
     * Asked only after a failure: a clean exit cannot have been OOM-killed, and the round trip costs latency.
     * The engine learns of an OOM kill from a separate event that can land just after the exit, so a SIGKILL
     * exit (137) is asked again for a moment before it is taken for a plain kill.
     */
    private boolean oomKilled(String containerId, int exitCode) throws InterruptedException {
        long deadline = System.nanoTime() + (exitCode == 137 ? TimeUnit.SECONDS.toNanos(2) : 0);
        while (true) {
            if (Boolean.TRUE.equals(docker.inspectContainerCmd(containerId).exec().getState().getOOMKilled())) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private boolean imagePresent(String image) {
        try {
            docker.inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException missing) {
            return false;
        }
    }

    private String create(ContainerPolicy policy) {
        var cmd = docker.createContainerCmd(policy.image())
                .withName(policy.name())
                .withHostConfig(policy.hostConfig())
                .withEnv(policy.envList())
                .withLabels(policy.labels())
                .withAttachStdin(false)
                .withStdinOpen(false)
                .withTty(false);
        if (!policy.command().isEmpty()) {
            cmd.withCmd(policy.command());
        }
        if (policy.sandbox() != null) {
            cmd.withIpv4Address(policy.sandbox().ipv4Address());
        }
        return cmd.exec().getId();
    }

    private static void closeQuietly(java.io.Closeable callback) {
        try {
            callback.close();
        } catch (java.io.IOException ignored) {
            // the stream is abandoned either way
        }
    }

    private void awaitExit(String containerId) throws InterruptedException {
        try (WaitContainerResultCallback exit = docker.waitContainerCmd(containerId)
                .exec(new WaitContainerResultCallback())) {
            exit.awaitCompletion(SETTLE_SECONDS, TimeUnit.SECONDS);
        } catch (java.io.IOException ignored) {
            // closing a finished callback
        }
    }

    private String output(String containerId) throws InterruptedException {
        OutputTail tail = new OutputTail(outputMaxBytes);
        // each line is at least one byte, so the last outputMaxBytes lines hold the last outputMaxBytes bytes
        try (ResultCallback.Adapter<Frame> logs = docker.logContainerCmd(containerId)
                .withStdOut(true).withStdErr(true).withTail(outputMaxBytes)
                .exec(new ResultCallback.Adapter<>() {
                    @Override
                    public void onNext(Frame frame) {
                        tail.append(frame.getPayload());
                    }
                })) {
            if (!logs.awaitCompletion(SETTLE_SECONDS, TimeUnit.SECONDS)) {
                LOG.warnf("reading the output of container %s took more than %d s; keeping what arrived",
                        containerId, SETTLE_SECONDS);
            }
        } catch (java.io.IOException ignored) {
            // closing a finished callback
        }
        return tail.text();
    }

    private void remove(String containerId) {
        try {
            docker.removeContainerCmd(containerId).withForce(true).withRemoveVolumes(true).exec();
        } catch (NotFoundException gone) {
            // already removed
        } catch (RuntimeException e) {
            LOG.warnf("could not remove container %s (the next start removes it): %s", containerId,
                    EngineErrors.describe(e, host, "remove it"));
        }
    }

    /** Reports a transition; whatever the run printed or an error quotes is reported with its secrets masked. */
    private void report(RunRequested run, ContainerPolicy policy, RunState state, Integer exitCode, String output,
                        String error) {
        Redactor redactor = policy.redactor();
        RunStatusChanged event = RunStatusChanged.of(run.runId(), run.companyId(), run.agentId(), state, exitCode,
                redactor.redact(output), redactor.redact(error));
        reporter.report(state == RunState.RUNNING ? event.withNotes(policy.notes()) : event);
    }

    /** A run that must not go on, with the one sentence that says why; the runner reports it FAILED. */
    private static final class RunRefused extends Exception {
        RunRefused(String reason) {
            super(reason, null, false, false);
        }
    }
}
