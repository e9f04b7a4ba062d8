package io.trimus.adapter.container;

import com.github.dockerjava.api.command.WaitContainerResultCallback;
import io.trimus.events.RunState;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Waits for a started container with the run's timeout and reads how it ended: killed at the timeout or on a cancel
 * (its partial output kept), out of memory, or its exit code, each with the output tail.
 */
final class ContainerExit {

    private final ContainerCalls containers;

    ContainerExit(ContainerCalls containers) {
        this.containers = containers;
    }

    /**
     * Blocks until the container exits or the run's timeout passes (then the container is killed).
     *
     * @param step told what is being done, for the sentence of an engine failure
     */
    RunOutcome await(String containerId, ContainerPolicy policy, RunHandle handle, Consumer<String> step)
            throws InterruptedException {
        step.accept("watch the container");
        WaitContainerResultCallback wait = containers.watch(containerId);
        long timeoutSec = policy.timeout().toSeconds();
        if (!wait.awaitCompletion(timeoutSec, TimeUnit.SECONDS)) {
            ContainerCalls.closeQuietly(wait);
            return killed(containerId, handle, timeoutSec);
        }
        int exitCode = wait.awaitStatusCode();
        step.accept("read the container's result");
        return exited(containerId, exitCode, policy, handle);
    }

    private RunOutcome killed(String containerId, RunHandle handle, long timeoutSec) throws InterruptedException {
        containers.kill(containerId);
        containers.awaitExit(containerId);
        String output = containers.output(containerId);
        return handle.isCancelled()
                ? new RunOutcome(RunState.CANCELLED, null, output, "cancelled")
                : new RunOutcome(RunState.TIMED_OUT, null, output,
                        "timed out after " + timeoutSec + " s; the container was killed");
    }

    private RunOutcome exited(String containerId, int exitCode, ContainerPolicy policy, RunHandle handle)
            throws InterruptedException {
        String output = containers.output(containerId);
        if (handle.isCancelled()) {
            return new RunOutcome(RunState.CANCELLED, exitCode, output, "cancelled");
        }
        if (exitCode == 0) {
            return new RunOutcome(RunState.SUCCEEDED, 0, output, null);
        }
        if (containers.oomKilled(containerId, exitCode)) {
            String limit = policy.memoryLimitText();
            return new RunOutcome(RunState.FAILED, exitCode, output,
                    "killed: out of memory" + (limit == null ? "" : " (limit " + limit + ")"));
        }
        return new RunOutcome(RunState.FAILED, exitCode, output, "exited with code " + exitCode);
    }
}
