package io.trimus.adapter.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Frame;
import io.trimus.adapter.engine.EngineErrors;
import io.trimus.adapter.run.StreamTail;
import org.jboss.logging.Logger;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The docker-java calls on one run's container: create it from its policy, start, watch, kill, wait for the exit,
 * read the output tail, ask whether it was OOM-killed, remove it. Blocking; nothing here reports a run's status.
 */
final class ContainerCalls {

    private static final Logger LOG = Logger.getLogger(ContainerCalls.class);
    /** How long a killed container may take to be reported exited, and logs to be read. */
    private static final long SETTLE_SECONDS = 30;

    private final DockerClient docker;
    private final String host;
    private final int outputMaxBytes;

    ContainerCalls(DockerClient docker, String host, int outputMaxBytes) {
        new StreamTail(outputMaxBytes); // checks the knob at boot
        this.docker = docker;
        this.host = host;
        this.outputMaxBytes = outputMaxBytes;
    }

    void start(String containerId) {
        docker.startContainerCmd(containerId).exec();
    }

    /** A wait for the container's exit; the caller decides how long to wait. */
    WaitContainerResultCallback watch(String containerId) {
        return docker.waitContainerCmd(containerId).exec(new WaitContainerResultCallback());
    }

    /** Kills a container; one that is already gone or stopped is fine. */
    void kill(String containerId) {
        try {
            docker.killContainerCmd(containerId).exec();
        } catch (NotFoundException | ConflictException | NotModifiedException alreadyStopped) {
            // nothing left to kill
        } catch (RuntimeException e) {
            LOG.warnf("could not kill container %s: %s", containerId, EngineErrors.describe(e, host, "kill it"));
        }
    }

    /**
     * Asked only after a failure: a clean exit cannot have been OOM-killed, and the round trip costs latency.
     * The engine learns of an OOM kill from a separate event that can land just after the exit, so a SIGKILL
     * exit (137) is asked again for a moment before it is taken for a plain kill.
     */
    boolean oomKilled(String containerId, int exitCode) throws InterruptedException {
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

    boolean imagePresent(String image) {
        try {
            docker.inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException missing) {
            return false;
        }
    }

    /**
     * The image's USER, empty when it names none (root).
     *
     * @throws NotFoundException when the image is not on the engine
     */
    String imageUser(String image) {
        var config = docker.inspectImageCmd(image).exec().getConfig();
        return config == null || config.getUser() == null ? "" : config.getUser();
    }

    String create(ContainerPolicy policy) {
        var cmd = docker.createContainerCmd(policy.image())
                .withName(policy.name())
                .withHostConfig(policy.hostConfig())
                .withEnv(policy.envList())
                .withLabels(policy.labels())
                .withAttachStdin(false)
                .withStdinOpen(false)
                .withTty(false);
        if (policy.entrypoint() != null) {
            cmd.withEntrypoint(policy.entrypoint());
            cmd.withCmd(policy.command());   // even empty: the image's CMD must not become the entrypoint's arguments
        } else if (!policy.command().isEmpty()) {
            cmd.withCmd(policy.command());
        }
        if (policy.user() != null) {
            cmd.withUser(policy.user());
        }
        if (policy.sandbox() != null) {
            cmd.withIpv4Address(policy.sandbox().ipv4Address());
        }
        return cmd.exec().getId();
    }

    static void closeQuietly(Closeable callback) {
        try {
            callback.close();
        } catch (IOException ignored) {
            // the stream is abandoned either way
        }
    }

    void awaitExit(String containerId) throws InterruptedException {
        try (WaitContainerResultCallback exit = docker.waitContainerCmd(containerId)
                .exec(new WaitContainerResultCallback())) {
            exit.awaitCompletion(SETTLE_SECONDS, TimeUnit.SECONDS);
        } catch (IOException ignored) {
            // closing a finished callback
        }
    }

    String output(String containerId) throws InterruptedException {
        StreamTail tail = new StreamTail(outputMaxBytes);
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
        } catch (IOException ignored) {
            // closing a finished callback
        }
        return tail.text();
    }

    void remove(String containerId) {
        try {
            docker.removeContainerCmd(containerId).withForce(true).withRemoveVolumes(true).exec();
        } catch (NotFoundException gone) {
            // already removed
        } catch (RuntimeException e) {
            LOG.warnf("could not remove container %s (the next start removes it): %s", containerId,
                    EngineErrors.describe(e, host, "remove it"));
        }
    }
}
