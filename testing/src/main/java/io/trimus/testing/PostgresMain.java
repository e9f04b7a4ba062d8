package io.trimus.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * An embedded PostgreSQL 14 (zonky) on 127.0.0.1, run in a child JVM by {@link Infra} until its stdin closes.
 * Arguments: port, data dir, binaries cache dir, {@code fresh} (wipe the data dir first and delete it at the end, for
 * tests) or {@code keep} (reuse it across starts, for the dev run).
 */
public final class PostgresMain {
    /** Printed, followed by the port, once the server answers {@code SELECT 1}. */
    public static final String READY = "POSTGRES_READY ";

    private PostgresMain() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // the stdin watcher is a non-daemon thread: without an explicit exit a failed start would hang
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        int port = Integer.parseInt(KafkaBrokerMain.arg(args, 0, "trimus.postgres.port"));
        Path dataDir = Path.of(KafkaBrokerMain.arg(args, 1, "trimus.postgres.dir")).toAbsolutePath();
        Path binaries = Path.of(KafkaBrokerMain.arg(args, 2, "trimus.postgres.binaries")).toAbsolutePath();
        // zonky would wait its whole startup timeout for a server that could not bind
        Ports.requireFree(port, "PostgreSQL", "another port");
        boolean fresh = !"keep".equals(args.length > 3 ? args[3] : System.getProperty("trimus.postgres.mode", "fresh"));

        if (fresh) {
            Directories.deleteRecursively(dataDir);
        } else {
            removeStalePid(dataDir);
        }
        Files.createDirectories(binaries);
        AtomicBoolean up = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!up.get()) {
                abandonStart(dataDir);
            }
        }, "postgres-abandon-start"));
        Stdin.exitWhenClosed();
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setPort(port)
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(fresh)
                .setOverrideWorkingDirectory(binaries.toFile())
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("listen_addresses", "127.0.0.1");
        if (fresh) {
            // Throwaway data: durability buys nothing and costs time on a busy 2-core machine.
            builder.setServerConfig("fsync", "off").setServerConfig("full_page_writes", "off");
        }
        // zonky registers a shutdown hook that stops the server (pg_ctl stop -m fast), so exiting is enough
        builder.start();
        up.set(true);
        System.out.println(READY + port);
        System.out.flush();
    }

    /**
     * Told to stop while still starting: zonky's own hook may not be registered yet, so stop initdb or pg_ctl and a
     * postmaster already launched here, rather than leave them running without anyone holding their stdin.
     */
    private static void abandonStart(Path dataDir) {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroy);
        try {
            Thread.sleep(200);   // lets pg_ctl write postmaster.pid if it was just launching the server
            Optional<ProcessHandle> postmaster = orphanOn(dataDir);
            if (postmaster.isPresent()) {
                stopOrphan(postmaster.get(), dataDir);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            System.out.println("could not stop the PostgreSQL still starting on " + dataDir + ": " + e);
        }
    }

    /**
     * A postmaster.pid left by a killed run blocks the start. Its server may even still run (its launcher JVM was
     * killed): that orphan is ours, so it is shut down (SIGINT = fast shutdown) rather than reported.
     */
    static void removeStalePid(Path dataDir) throws IOException, InterruptedException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        Optional<ProcessHandle> owner = pidFileOwner(dataDir);
        if (owner.isPresent()) {
            stopOrphan(owner.get(), dataDir);
        }
        if (Files.deleteIfExists(pidFile)) {
            System.out.println("removed stale " + pidFile);
        }
    }

    /** The live postmaster an earlier, killed run left on {@code dataDir}, if any. */
    static Optional<ProcessHandle> orphanOn(Path dataDir) {
        return pidFileOwner(dataDir).filter(p -> isPostgresOn(p, dataDir));
    }

    private static Optional<ProcessHandle> pidFileOwner(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        try {
            String firstLine = Files.exists(pidFile)
                    ? Files.readAllLines(pidFile).stream().findFirst().orElse("").trim() : "";
            return firstLine.matches("\\d+")
                    ? ProcessHandle.of(Long.parseLong(firstLine)).filter(ProcessHandle::isAlive) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean isPostgresOn(ProcessHandle process, Path dataDir) {
        String commandLine = process.info().commandLine().orElse("");
        return commandLine.contains("postgres") && commandLine.contains(dataDir.toAbsolutePath().toString());
    }

    private static void stopOrphan(ProcessHandle postmaster, Path dataDir) throws IOException, InterruptedException {
        if (!isPostgresOn(postmaster, dataDir)) {
            throw new IllegalStateException("pid " + postmaster.pid() + " from " + dataDir.resolve("postmaster.pid")
                    + " is alive but is not a PostgreSQL on this data dir: delete the pid file if you are sure no"
                    + " server uses " + dataDir);
        }
        System.out.println("stopping orphaned PostgreSQL pid " + postmaster.pid() + " on " + dataDir);
        new ProcessBuilder("kill", "-INT", String.valueOf(postmaster.pid())).inheritIO().start().waitFor();
        try {
            postmaster.onExit().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            postmaster.destroyForcibly();
            throw new IllegalStateException("orphaned PostgreSQL pid " + postmaster.pid() + " on " + dataDir
                    + " did not stop within 30 s; killed it, start again");
        }
    }
}
