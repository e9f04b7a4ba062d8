package io.trimus.testing;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process whose merged output is copied to a log file, keeping the last lines for error messages.
 * Optionally it waits for a line that announces readiness (e.g. {@code KAFKA_READY 127.0.0.1:9092}, or Quarkus's
 * {@code Listening on: http://127.0.0.1:PORT}).
 */
public final class ChildProcess {
    private static final int TAIL_LINES = 40;
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Function<String, String> readyLine;
    private final Deque<String> tail = new ArrayDeque<>();
    private final CompletableFuture<String> ready = new CompletableFuture<>();
    private final long startedAt = System.nanoTime();

    private ChildProcess(String name, Process process, Path logFile, Function<String, String> readyLine) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.readyLine = readyLine;
    }

    /** Starts {@code command}; {@code readyPrefix} may be null when readiness is checked some other way. */
    static ChildProcess start(String name, List<String> command, Path logFile, String readyPrefix) {
        return start(name, command, java.util.Map.of(), logFile, readyPrefix);
    }

    /** Starts {@code command} with {@code env} added to this JVM's environment. */
    static ChildProcess start(String name, List<String> command, java.util.Map<String, String> env, Path logFile,
                              String readyPrefix) {
        return start(name, command, env, logFile, readyPrefix == null ? null
                : line -> line.startsWith(readyPrefix) ? line.substring(readyPrefix.length()).trim() : null);
    }

    /**
     * Starts {@code command}; the first line {@code readyPattern} finds anywhere in completes {@link #ready()} with
     * the pattern's first group (e.g. the port a server bound, from its "Listening on" line).
     */
    static ChildProcess start(String name, List<String> command, java.util.Map<String, String> env, Path logFile,
                              Pattern readyPattern) {
        return start(name, command, env, logFile, line -> {
            Matcher matcher = readyPattern.matcher(line);
            return matcher.find() ? matcher.group(1) : null;
        });
    }

    private static ChildProcess start(String name, List<String> command, java.util.Map<String, String> env,
                                      Path logFile, Function<String, String> readyLine) {
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            Files.writeString(logFile, "# " + String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = builder.start();
            ChildProcess child = new ChildProcess(name, process, logFile, readyLine);
            Thread pump = new Thread(child::pumpOutput, "trimus-" + name + "-output");
            pump.setDaemon(true);
            pump.start();
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Waits for the ready line and returns what follows the prefix; kills the child if it does not come in time. */
    String awaitReady(Duration timeout) {
        try {
            return ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            kill();
            long seconds = Duration.ofNanos(System.nanoTime() - startedAt).toSeconds();
            throw new IllegalStateException(name + " was not ready " + seconds + " s after its start" + describeLog());
        } catch (ExecutionException e) {
            throw new IllegalStateException(name + " exited before it was ready" + exitCodeText() + describeLog());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            throw new IllegalStateException("interrupted while waiting for " + name, e);
        }
    }

    /** Completes with the text after the ready prefix, or exceptionally when the child's output ends first. */
    CompletableFuture<String> ready() {
        return ready;
    }

    /** Closes the child's stdin (its signal to shut down cleanly), then escalates to TERM and KILL if it lingers. */
    void stopGracefully(Duration grace) {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // already closed: the child is on its way out
        }
        if (!waitFor(grace)) {
            terminate(KILL_WAIT);
        }
    }

    /** Sends TERM, then KILL if the child is still there after {@code grace}. */
    void terminate(Duration grace) {
        process.destroy();
        if (!waitFor(grace)) {
            kill();
        }
    }

    /** Sends TERM and waits up to {@code timeout}; the exit code, or empty when the child is still running. */
    java.util.OptionalInt terminateWithin(Duration timeout) {
        process.destroy();
        return waitFor(timeout) ? java.util.OptionalInt.of(process.exitValue()) : java.util.OptionalInt.empty();
    }

    void kill() {
        process.destroyForcibly();
        waitFor(KILL_WAIT);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    Path logFile() {
        return logFile;
    }

    /** The last lines the child printed, oldest first. */
    String tail() {
        synchronized (tail) {
            return String.join(System.lineSeparator(), tail);
        }
    }

    /** " (log: path), last lines: ..." for exception messages. */
    String describeLog() {
        return " (log: " + logFile.toAbsolutePath() + "), last lines:" + System.lineSeparator() + tail();
    }

    String exitCodeText() {
        waitFor(Duration.ofSeconds(2));
        return process.isAlive() ? "" : " with code " + process.exitValue();
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private void pumpOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8,
                     StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                log.write(line);
                log.newLine();
                log.flush();
                remember(line);
                if (readyLine != null && !ready.isDone()) {
                    String announced = readyLine.apply(line);
                    if (announced != null) {
                        ready.complete(announced);
                    }
                }
            }
        } catch (IOException e) {
            remember("[output of " + name + " lost: " + e.getMessage() + "]");
        } finally {
            ready.completeExceptionally(new IllegalStateException(name + " closed its output"));
        }
    }

    private void remember(String line) {
        synchronized (tail) {
            if (tail.size() == TAIL_LINES) {
                tail.removeFirst();
            }
            tail.addLast(line);
        }
    }
}
