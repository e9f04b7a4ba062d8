package io.trimus.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Kafka and PostgreSQL for tests and the dev run, each in its own child JVM (keeps the broker's Scala and log4j jars
 * off the Quarkus classpath). This JVM holds their stdin, so they shut down when it closes them or when it dies.
 */
public final class Infra implements AutoCloseable {
    static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);
    private static final List<String> COMMON_JVM_OPTIONS = List.of(
            "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.awt.headless=true",
            // two SLF4J providers reach the classpath (slf4j-simple, jboss-logmanager): pick the plain one
            "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-Dorg.slf4j.simpleLogger.showDateTime=true");

    private final InfraSettings settings;
    private ChildProcess postgres;
    private ChildProcess kafka;

    private Infra(InfraSettings settings, ChildProcess postgres, ChildProcess kafka) {
        this.settings = settings;
        this.postgres = postgres;
        this.kafka = kafka;
    }

    /** Random ports and throwaway data under {@code target/trimus-infra/}. */
    public static Infra startForTests() {
        return start(InfraSettings.forTests());
    }

    /** Starts both children in parallel and returns once both said READY (at most 120 s). */
    public static Infra start(InfraSettings settings) {
        ChildProcess postgres = launchPostgres(settings);
        ChildProcess kafka = null;
        try {
            kafka = launchKafka(settings);
            awaitReady(postgres, kafka);
            return new Infra(settings, postgres, kafka);
        } catch (RuntimeException e) {
            postgres.stopGracefully(Duration.ofSeconds(20));
            if (kafka != null) {
                kafka.stopGracefully(Duration.ofSeconds(20));
            }
            throw e;
        }
    }

    public InfraSettings settings() {
        return settings;
    }

    /** {@code 127.0.0.1:PORT}, for {@code kafka.bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + settings.kafkaPort();
    }

    public int postgresPort() {
        return settings.postgresPort();
    }

    /** For {@code quarkus.datasource.reactive.url}. */
    public String reactiveUrl() {
        return "postgresql://127.0.0.1:" + postgresPort() + "/postgres";
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgresPort() + "/postgres";
    }

    public synchronized boolean kafkaRunning() {
        return kafka != null && kafka.isAlive();
    }

    /** Shuts the broker down cleanly and waits for its JVM to exit; clients see it unreachable until {@link #startKafka()}. */
    public synchronized void stopKafka() {
        if (kafka != null) {
            kafka.stopGracefully(STOP_GRACE);
            kafka = null;
        }
    }

    /** Starts the broker again on the same ports and log dir, so its topics and offsets are still there. */
    public synchronized void startKafka() {
        if (kafkaRunning()) {
            return;
        }
        ChildProcess restarted = launchKafka(settings);
        restarted.awaitReady(READY_TIMEOUT);
        kafka = restarted;
    }

    /** Shuts the database down and waits for it to exit; clients see it unreachable from then on. */
    public synchronized void stopPostgres() {
        if (postgres != null) {
            postgres.stopGracefully(STOP_GRACE);
            postgres = null;
        }
    }

    /** Stops both children (gracefully, then by force); deletes the data of a test run. */
    @Override
    public synchronized void close() {
        stopKafka();
        stopPostgres();
        if (settings.freshData()) {
            try {
                Directories.deleteRecursively(settings.dataDir());
            } catch (IOException e) {
                throw new UncheckedIOException("could not delete " + settings.dataDir(), e);
            }
        }
    }

    /** Waits for all children, but gives up as soon as one of them fails, and reports that one. */
    private static void awaitReady(ChildProcess... children) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        CompletableFuture<?>[] readies = Arrays.stream(children).map(ChildProcess::ready)
                .toArray(CompletableFuture[]::new);
        CompletableFuture<Void> firstFailure = new CompletableFuture<>();
        for (CompletableFuture<?> ready : readies) {
            ready.whenComplete((line, failure) -> {
                if (failure != null) {
                    firstFailure.complete(null);
                }
            });
        }
        try {
            CompletableFuture.anyOf(CompletableFuture.allOf(readies), firstFailure)
                    .get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // reported below, child by child
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Arrays.stream(children)
                .sorted(Comparator.comparing(child -> !child.ready().isCompletedExceptionally()))
                .forEach(child -> child.awaitReady(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
    }

    private static ChildProcess launchKafka(InfraSettings s) {
        List<String> command = ChildJvm.command(KafkaBrokerMain.class, jvmOptions("-Xmx512m"), List.of(
                String.valueOf(s.kafkaPort()), String.valueOf(s.controllerPort()), s.kafkaDir().toString()));
        return ChildProcess.start("kafka", command, s.logDir().resolve("kafka-" + s.kafkaPort() + ".log"),
                KafkaBrokerMain.READY);
    }

    private static ChildProcess launchPostgres(InfraSettings s) {
        List<String> command = ChildJvm.command(PostgresMain.class,
                jvmOptions("-Xmx128m", "-Dorg.slf4j.simpleLogger.log.io.zonky=info"),
                List.of(String.valueOf(s.postgresPort()), s.postgresDir().toString(), s.postgresBinaries().toString(),
                        s.freshData() ? "fresh" : "keep"));
        return ChildProcess.start("postgres", command, s.logDir().resolve("postgres-" + s.postgresPort() + ".log"),
                PostgresMain.READY);
    }

    private static List<String> jvmOptions(String... specific) {
        return Stream.concat(Stream.of(specific), COMMON_JVM_OPTIONS.stream()).toList();
    }
}
