package io.trimus.adapter.local;

import io.quarkus.runtime.ShutdownEvent;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.run.StreamTail;
import io.trimus.adapter.run.pool.RunPool;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Runs host-process CLIs on a bounded pool (TRIMUS_LOCAL_MAX_CONCURRENT_RUNS). Each child starts in a session of its
 * own ({@code setsid}), so a timeout or cancel can end the whole process tree: SIGTERM to the group and every
 * descendant, TRIMUS_LOCAL_KILL_GRACE, then SIGKILL. Output (stdout and stderr) is kept as a capped tail.
 */
@ApplicationScoped
public class LocalProcessRunner {
    private static final Logger LOG = Logger.getLogger(LocalProcessRunner.class);
    private static final String SETSID = "/usr/bin/setsid";

    private final RunReporter reporter;
    private final RunStarts starts;
    private final int outputMaxBytes;
    private final Duration killGrace;
    private final RunPool<Running> pool;

    @Inject
    public LocalProcessRunner(RunReporter reporter, RunStarts starts, TrimusConfig config) {
        int outputMaxBytes = config.run().outputMaxBytes();
        Duration killGrace = config.local().killGrace();
        int maxConcurrentRuns = config.local().maxConcurrentRuns();
        this.reporter = reporter;
        this.starts = starts;
        this.outputMaxBytes = outputMaxBytes;
        this.killGrace = killGrace;
        this.pool = new RunPool<>("TRIMUS_LOCAL_MAX_CONCURRENT_RUNS", "trimus-local-run", maxConcurrentRuns);
    }

    /** Queues the run unless it is already held. */
    public void submit(RunRequested run, LocalLaunch launch) {
        Running running = new Running(run, launch);
        pool.submit(run.runId(), running, () -> execute(running), () -> report(running, RunState.FAILED, null, null,
                "the adapter service is shutting down; the run was not started"));
    }

    /** Cancels a held run: a queued one never starts, a running tree is ended. False when not held here. */
    public boolean cancel(UUID runId) {
        Running running = pool.held(runId);
        if (running == null) {
            return false;
        }
        Process process;
        synchronized (running) {
            running.cancelled = true;
            process = running.process;
        }
        if (process != null) {
            endTree(process);
        }
        return true;
    }

    /** Whether this process holds the run. */
    public boolean holds(UUID runId) {
        return pool.holds(runId);
    }

    private void execute(Running running) {
        RunStarts.Start start = starts.awaitStart(running.run.runId());
        if (start != RunStarts.Start.GO) {
            if (start == RunStarts.Start.NOT_RECORDED) {
                report(running, RunState.FAILED, null, null, RunStarts.NOT_RECORDED);
            }
            return;
        }
        LocalLaunch launch = running.launch;
        Process process;
        try {
            createPrivateDirectory(launch.directory());
            List<String> command = new ArrayList<>();
            command.add(SETSID);
            command.addAll(launch.argv());
            ProcessBuilder builder = new ProcessBuilder(command).directory(launch.directory().toFile())
                    .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.environment().clear();
            builder.environment().putAll(launch.env());
            synchronized (running) {
                if (running.cancelled) {
                    report(running, RunState.CANCELLED, null, null, "cancelled before it started");
                    return;
                }
                process = builder.start();
                running.process = process;
            }
        } catch (IOException e) {
            report(running, RunState.FAILED, null, null, "could not start " + launch.argv().get(0) + ": "
                    + e.getMessage());
            return;
        }
        report(running, RunState.RUNNING, null, null, null);
        StreamTail tail = new StreamTail(outputMaxBytes);
        Thread reader = new Thread(() -> drain(process.getInputStream(), tail), "trimus-local-output");
        reader.setDaemon(true);
        reader.start();
        try {
            boolean exited = process.waitFor(launch.timeout().toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                endTree(process);
            }
            process.waitFor();
            reader.join(TimeUnit.SECONDS.toMillis(5));
            String output = tail.text();
            if (running.cancelled) {
                report(running, RunState.CANCELLED, exited ? process.exitValue() : null, output, "cancelled");
            } else if (!exited) {
                report(running, RunState.TIMED_OUT, null, output, "timed out after "
                        + launch.timeout().toSeconds() + " s; the process tree was killed");
            } else if (process.exitValue() == 0) {
                report(running, RunState.SUCCEEDED, 0, output, null);
            } else {
                report(running, RunState.FAILED, process.exitValue(), output, "exited with code "
                        + process.exitValue());
            }
        } catch (InterruptedException e) {
            endTree(process);
            Thread.currentThread().interrupt();
            report(running, RunState.FAILED, null, tail.text(), "the adapter service stopped while the run was in"
                    + " progress; the process tree was killed");
        }
    }

    /**
     * SIGTERM to the child's process group (it leads its own session) and to every descendant still known, the grace
     * period, then SIGKILL to whatever is left. Descendants are collected first: once the child exits, its orphans are
     * re-parented and no longer listed as its descendants, but they stay in its group.
     */
    private void endTree(Process process) {
        long group = process.pid();
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        signalGroup("TERM", group);
        process.destroy();
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + killGrace.toNanos();
        while (System.nanoTime() < deadline && (process.isAlive() || tree.stream().anyMatch(ProcessHandle::isAlive))) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        signalGroup("KILL", group);
        process.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    private static void signalGroup(String signal, long group) {
        try {
            new ProcessBuilder("kill", "-" + signal, "--", "-" + group).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            LOG.warnf("could not signal process group %d: %s", group, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void drain(InputStream in, StreamTail tail) {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                tail.append(java.util.Arrays.copyOf(buffer, n));
            }
        } catch (IOException ignored) {
            // the process ended or was killed; what arrived is kept
        }
    }

    /** The agent's home: created 0700 if missing, tightened to 0700 if it exists. */
    static void createPrivateDirectory(Path directory) throws IOException {
        var owner = PosixFilePermissions.fromString("rwx------");
        if (!Files.isDirectory(directory)) {
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(owner));
        }
        Files.setPosixFilePermissions(directory, owner);
    }

    private void report(Running running, RunState state, Integer exitCode, String output, String error) {
        RunRequested r = running.run;
        var redactor = running.launch.redactor();
        RunStatusChanged event = RunStatusChanged.of(r.runId(), r.companyId(), r.agentId(), state, exitCode,
                redactor.redact(output), redactor.redact(error));
        if (state == RunState.RUNNING) {
            event = event.withNotes(running.launch.notes());
        } else if (output != null) {
            // read from the raw tail, before masking: the reader masks what it takes out
            event = running.launch.output().read(event, output, redactor);
        }
        reporter.report(event);
    }

    /** Ends every running tree while the broker connection is still open; queued runs are reported FAILED. */
    void onShutdown(@Observes ShutdownEvent event) {
        pool.shutdown(running -> {
            Process process;
            synchronized (running) {
                running.cancelled = running.process == null;
                process = running.process;
            }
            if (process != null) {
                endTree(process);
            } else {
                report(running, RunState.FAILED, null, null, "the adapter service stopped before the run started");
            }
        }, Duration.ofSeconds(30));
    }

    /** A held run and, once started, its process. */
    private static final class Running {
        final RunRequested run;
        final LocalLaunch launch;
        Process process;
        volatile boolean cancelled;

        Running(RunRequested run, LocalLaunch launch) {
            this.run = run;
            this.launch = launch;
        }
    }
}
