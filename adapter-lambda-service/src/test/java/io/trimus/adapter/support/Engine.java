package io.trimus.adapter.support;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.Frame;
import io.trimus.testing.Containers;
import io.trimus.testing.DockerClients;
import io.trimus.testing.TestImages;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/** The test's own view of the Docker engine: what the product started, found by its labels. */
public final class Engine {

    public static final String LABEL_RUN = "trimus.run_id";
    public static final String LABEL_COMPANY = "trimus.company_id";
    /** The busybox test image with {@code USER agent} (uid 1000), for the setuid test. */
    public static final String BUSYBOX_AS_AGENT = "trimus-test/busybox-agent:latest";

    private static DockerClient docker;

    private Engine() {
    }

    public static synchronized DockerClient docker() {
        if (docker == null) {
            docker = DockerClients.local();
        }
        return docker;
    }

    /** The busybox test image (root user), built if missing. */
    public static String busybox() {
        return TestImages.busybox(docker());
    }

    /** The busybox test image running as {@code agent} (uid 1000) instead of root, built if missing. */
    public static synchronized String busyboxAsAgent() {
        String base = busybox();
        try {
            docker().inspectImageCmd(BUSYBOX_AS_AGENT).exec();
            return BUSYBOX_AS_AGENT;
        } catch (NotFoundException missing) {
            // build it below
        }
        try {
            Path dir = Files.createTempDirectory("trimus-busybox-agent");
            Files.writeString(dir.resolve("Dockerfile"),
                    "FROM " + base + "\nLABEL " + TestImages.LABEL + "=true\nUSER agent\n", StandardCharsets.UTF_8);
            docker().buildImageCmd(dir.toFile()).withTags(Set.of(BUSYBOX_AS_AGENT)).withPull(false)
                    .withRemove(true).exec(new BuildImageResultCallback()).awaitImageId(2, TimeUnit.MINUTES);
            Files.delete(dir.resolve("Dockerfile"));
            Files.delete(dir);
            return BUSYBOX_AS_AGENT;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The container of a run, running or not, if it exists. */
    public static Optional<Container> containerOf(UUID runId) {
        List<Container> found = Containers.findByLabel(docker(), LABEL_RUN, runId.toString());
        return found.stream().findFirst();
    }

    /** Waits until the run's container exists and is running; returns its inspection. */
    public static InspectContainerResponse awaitRunning(UUID runId) {
        await().atMost(RunBus.FIRST_EVENT).pollInterval(Duration.ofMillis(100))
                .until(() -> containerOf(runId).map(c -> "running".equals(c.getState())).orElse(false));
        return inspect(runId);
    }

    /** The inspection of the run's container. */
    public static InspectContainerResponse inspect(UUID runId) {
        Container container = containerOf(runId).orElseThrow(() -> new AssertionError("no container for run " + runId));
        return docker().inspectContainerCmd(container.getId()).exec();
    }

    /** The run container's output so far, read by the test itself. */
    public static String logs(UUID runId) {
        Optional<Container> container = containerOf(runId);
        if (container.isEmpty()) {
            return "";
        }
        return logsOf(container.get().getId());
    }

    /** A container's output so far (stdout and stderr), or "" once it is gone. */
    public static String logsOf(String containerId) {
        return lastLinesOf(containerId, -1);
    }

    /**
     * The last {@code lines} lines of a container's output (all of it when negative), read through the engine without
     * reading the whole log; "" once the container is gone.
     */
    public static String lastLinesOf(String containerId, int lines) {
        StringBuilder out = new StringBuilder();
        var command = docker().logContainerCmd(containerId).withStdOut(true).withStdErr(true);
        if (lines >= 0) {
            command.withTail(lines);
        }
        try (var callback = command.exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        synchronized (out) {
                            out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                        }
                    }
                })) {
            callback.awaitCompletion(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (RuntimeException containerGone) {
            return "";
        }
        synchronized (out) {
            return out.toString();
        }
    }

    /** Waits until the run's container has printed {@code text}. */
    public static void awaitOutput(UUID runId, String text) {
        await().atMost(RunBus.FIRST_EVENT).pollInterval(Duration.ofMillis(200))
                .until(() -> logs(runId).contains(text));
    }

    /** How many containers the engine created for the run since {@code sinceEpochSecond} (its event log). */
    public static int containersCreated(UUID runId, long sinceEpochSecond) {
        return containerEvents(runId, sinceEpochSecond, "create");
    }

    /**
     * How many {@code action} events (create, start, destroy, …) the engine logged for the run's containers since
     * {@code sinceEpochSecond}.
     */
    public static int containerEvents(UUID runId, long sinceEpochSecond, String action) {
        List<Event> events = new ArrayList<>();
        // the engine's log up to a quarter second from now (it answers once that moment has passed), not up to the
        // next whole second: every event of a run that has ended is already in it
        long untilMillis = System.currentTimeMillis() + 250;
        String until = untilMillis / 1000 + "." + String.format("%03d", untilMillis % 1000) + "000000";
        try (var callback = docker().eventsCmd()
                .withSince(String.valueOf(sinceEpochSecond))
                .withUntil(until)
                .withLabelFilter(Map.of(LABEL_RUN, runId.toString()))
                .withEventFilter(action)
                .exec(new ResultCallback.Adapter<Event>() {
                    @Override
                    public void onNext(Event event) {
                        synchronized (events) {
                            events.add(event);
                        }
                    }
                })) {
            callback.awaitCompletion(15, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        synchronized (events) {
            return events.size();
        }
    }

    /**
     * Starts a test-owned container on {@code network} that answers every TCP connection on port 8080 with
     * {@code banner}; returns its address there. Labelled {@code label=true} for clean-up.
     */
    public static String startListener(String network, String label, String banner) {
        String id = docker().createContainerCmd(busybox())
                .withName("trimus-test-listener-" + UUID.randomUUID())
                .withLabels(Map.of(label, "true"))
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig().withNetworkMode(network))
                .withCmd("nc", "-ll", "-p", "8080", "-e", "/bin/echo", banner)
                .exec().getId();
        docker().startContainerCmd(id).exec();
        return docker().inspectContainerCmd(id).exec().getNetworkSettings().getNetworks().get(network).getIpAddress();
    }

    /**
     * Runs {@code script} in a busybox container the test owns (not a Trimus run) on {@code network}, and returns what
     * it printed: a control from a network agents may not join.
     */
    public static String probe(String network, String label, String script) {
        String id = docker().createContainerCmd(busybox())
                .withName("trimus-test-probe-" + UUID.randomUUID())
                .withLabels(Map.of(label, "true"))
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig().withNetworkMode(network))
                .withCmd("sh", "-c", script)
                .exec().getId();
        try {
            docker().startContainerCmd(id).exec();
            docker().waitContainerCmd(id).start().awaitStatusCode(60, java.util.concurrent.TimeUnit.SECONDS);
            return logsOf(id);
        } finally {
            docker().removeContainerCmd(id).withForce(true).exec();
        }
    }

    /** Removes the company's containers except the one of {@code keptRun} (may be null). */
    public static void removeCompanyContainersExcept(UUID companyId, UUID keptRun) {
        for (Container c : Containers.findByLabel(docker(), LABEL_COMPANY, companyId.toString())) {
            if (keptRun == null || !keptRun.toString().equals(c.getLabels().get(LABEL_RUN))) {
                try {
                    docker().removeContainerCmd(c.getId()).withForce(true).exec();
                } catch (NotFoundException | ConflictException goneOrGoing) {
                    // the adapter removed it meanwhile, or is removing it right now
                }
            }
        }
    }

    /** Removes every container of the company (what a test started and did not finish). */
    public static void removeCompanyContainers(UUID companyId) {
        removeCompanyContainersExcept(companyId, null);
    }
}
