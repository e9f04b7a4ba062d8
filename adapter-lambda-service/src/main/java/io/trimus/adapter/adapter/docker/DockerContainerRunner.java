package io.trimus.adapter.adapter.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Frame;
import io.trimus.adapter.adapter.RunReporter;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.concurrent.TimeUnit;

/**
 * The blocking life of one docker run: image present? → create (deterministic name) → start → RUNNING →
 * wait with the timeout → collect the output tail → SUCCEEDED | FAILED | TIMED_OUT | CANCELLED → remove.
 * Called on a worker thread of {@link RunExecutor}, never on the event loop.
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

    @Inject
    public DockerContainerRunner(DockerClient docker, RunReporter reporter, TrimusConfig config) {
        this(docker, reporter, config.docker().host(), config.run().outputMaxBytes());
    }

    public DockerContainerRunner(DockerClient docker, RunReporter reporter, String host, int outputMaxBytes) {
        new OutputTail(outputMaxBytes); // checks the knob at boot
        this.docker = docker;
        this.reporter = reporter;
        this.host = host;
        this.outputMaxBytes = outputMaxBytes;
    }

    /** Executes the run to its end and reports every transition after DISPATCHED. */
    public void run(RunRequested run, ContainerPolicy policy, RunHandle handle) {
        String containerId = null;
        String step = "check the image";
        try {
            step = "check the network";
            String refusal = networkRefusal(policy.network());
            if (refusal != null) {
                report(run, RunState.FAILED, null, null, refusal);
                return;
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
                report(run, RunState.FAILED, null, null, imagePresent(policy.image())
                        ? "could not create the container: " + EngineErrors.engineMessage(missing)
                        : "image " + policy.image() + " not found on the Docker engine");
                return;
            }
            if (!handle.attach(containerId)) {
                report(run, RunState.CANCELLED, null, null, "cancelled before it started");
                return;
            }
            step = "start the container";
            docker.startContainerCmd(containerId).exec();
            report(run, RunState.RUNNING, null, null, null);
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
                    report(run, RunState.CANCELLED, null, output, "cancelled");
                } else {
                    report(run, RunState.TIMED_OUT, null, output,
                            "timed out after " + timeoutSec + " s; the container was killed");
                }
                return;
            }
            int exitCode = wait.awaitStatusCode();
            step = "read the container's result";
            String output = output(containerId);
            if (handle.isCancelled()) {
                report(run, RunState.CANCELLED, exitCode, output, "cancelled");
            } else if (exitCode != 0 && oomKilled(containerId)) {
                String limit = policy.memoryLimitText();
                report(run, RunState.FAILED, exitCode, output,
                        "killed: out of memory" + (limit == null ? "" : " (limit " + limit + ")"));
            } else if (exitCode == 0) {
                report(run, RunState.SUCCEEDED, 0, output, null);
            } else {
                report(run, RunState.FAILED, exitCode, output, "exited with code " + exitCode);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            report(run, RunState.FAILED, null, null, "the adapter service stopped while the run was in progress");
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted() || e.getCause() instanceof InterruptedException) {
                report(run, RunState.FAILED, null, null, "the adapter service stopped while the run was in progress");
            } else if (e instanceof NotFoundException && containerId != null) {
                report(run, RunState.FAILED, null, null,
                        "the container was removed outside Trimus while the run was in progress");
            } else {
                if (EngineErrors.isUnreachable(e)) {
                    LOG.warnf("run %s: Docker engine unreachable while trying to %s: %s", run.runId(), step, e);
                } else {
                    LOG.errorf(e, "run %s: could not %s", run.runId(), step);
                }
                report(run, RunState.FAILED, null, null, EngineErrors.describe(e, host, step));
            }
        } finally {
            if (containerId != null) {
                // an interrupted thread cannot lease an engine connection: clear the flag for the cleanup
                boolean interrupted = Thread.interrupted();
                remove(containerId);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
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
     * Why the container must not join {@code network}, or null. Docker also resolves a network by an id prefix,
     * so a harmless-looking name could select the host's network stack: check what the name resolves to.
     */
    private String networkRefusal(String network) {
        if (DockerAdapterConfig.NETWORK_NONE.equals(network)) {
            return null;
        }
        try {
            String driver = docker.inspectNetworkCmd().withNetworkId(network).exec().getDriver();
            if ("host".equals(driver)) {
                return "network " + network + " resolves to the host's network stack, which would bypass the "
                        + "container's network isolation; use none or a bridge network";
            }
            return null;
        } catch (NotFoundException e) {
            return "network " + network + " not found on the Docker engine";
        }
    }

    /** Asked only after a failure: a clean exit cannot have been OOM-killed, and the round trip costs latency. */
    private boolean oomKilled(String containerId) {
        return Boolean.TRUE.equals(docker.inspectContainerCmd(containerId).exec().getState().getOOMKilled());
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

    private void report(RunRequested run, RunState state, Integer exitCode, String output, String error) {
        reporter.report(RunStatusChanged.of(run.runId(), run.companyId(), run.agentId(), state, exitCode, output,
                error));
    }
}
