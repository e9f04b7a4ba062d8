package io.trimus.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The infrastructure of {@code ./trimus up}: Kafka and PostgreSQL on fixed loopback ports with their data kept under
 * a data dir, until stdin closes or the process gets SIGTERM. Options (or environment): {@code --data-dir}
 * (TRIMUS_DATA_DIR, default .trimus/data), {@code --kafka-port} (TRIMUS_KAFKA_PORT, 9092),
 * {@code --kafka-controller-port} (TRIMUS_KAFKA_CONTROLLER_PORT, 9093), {@code --postgres-port}
 * (TRIMUS_POSTGRES_PORT, 5432). Prints {@code KAFKA=…}, {@code POSTGRES=…}, then {@code READY}.
 */
public final class DevInfraMain {
    private DevInfraMain() {
    }

    public static void main(String[] args) {
        AtomicReference<Infra> running = new AtomicReference<>();
        Thread hook = new Thread(() -> closeIfRunning(running), "trimus-dev-infra-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            int kafkaPort = intOption(args, "kafka-port", "TRIMUS_KAFKA_PORT", 9092);
            int controllerPort = intOption(args, "kafka-controller-port", "TRIMUS_KAFKA_CONTROLLER_PORT", 9093);
            int postgresPort = intOption(args, "postgres-port", "TRIMUS_POSTGRES_PORT", 5432);
            Path dataDir = Path.of(option(args, "data-dir", "TRIMUS_DATA_DIR", ".trimus/data"));
            Ports.requireFree(kafkaPort, "Kafka", "--kafka-port or TRIMUS_KAFKA_PORT");
            Ports.requireFree(controllerPort, "the Kafka controller",
                    "--kafka-controller-port or TRIMUS_KAFKA_CONTROLLER_PORT");
            InfraSettings settings = InfraSettings.forDev(dataDir, kafkaPort, controllerPort, postgresPort);
            if (PostgresMain.orphanOn(settings.postgresDir()).isEmpty()) {
                // an orphan of a killed run holds the port legitimately: PostgresMain stops it first
                Ports.requireFree(postgresPort, "PostgreSQL", "--postgres-port or TRIMUS_POSTGRES_PORT");
            }

            System.out.println("starting Kafka and PostgreSQL, data in " + settings.dataDir()
                    + ", logs in " + settings.logDir());
            running.set(Infra.start(settings));
            Infra infra = running.get();
            System.out.println("KAFKA=" + infra.bootstrapServers());
            System.out.println("POSTGRES=127.0.0.1:" + infra.postgresPort());
            System.out.println("READY");
            System.out.flush();

            Stdin.awaitClose();
            closeIfRunning(running);
            System.exit(0);
        } catch (RuntimeException e) {
            System.err.println("ERROR: " + e.getMessage());
            closeIfRunning(running);
            System.exit(1);
        }
    }

    private static void closeIfRunning(AtomicReference<Infra> running) {
        Infra infra = running.getAndSet(null);
        if (infra != null) {
            infra.close();
            System.out.println("stopped Kafka and PostgreSQL");
        } else {
            stopChildrenStillStarting();
        }
    }

    /** Interrupted while starting: TERM runs the children's own shutdown hooks; wait for them so none outlives us. */
    private static void stopChildrenStillStarting() {
        List<ProcessHandle> children = ProcessHandle.current().children().toList();
        children.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (ProcessHandle child : children) {
            try {
                child.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                child.destroyForcibly();
            }
        }
    }

    private static int intOption(String[] args, String name, String env, int fallback) {
        String value = option(args, name, env, String.valueOf(fallback));
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " (" + env + ") must be a port number, got '" + value + "'");
        }
    }

    private static String option(String[] args, String name, String env, String fallback) {
        String prefix = "--" + name + "=";
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith(prefix)) {
                return args[i].substring(prefix.length());
            }
            if (args[i].equals("--" + name) && i + 1 < args.length) {
                return args[i + 1];
            }
        }
        String fromEnv = System.getenv(env);
        return fromEnv == null || fromEnv.isBlank() ? fallback : fromEnv;
    }
}
