package io.trimus.system.stop;

import com.github.dockerjava.api.DockerClient;
import io.trimus.testing.DockerClients;
import io.trimus.testing.Infra;
import io.trimus.testing.ServiceProcess;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM ends every service and a worker within 10 s with the exit of a handled TERM, also when the broker or the
 * database is already gone (a worker whose broker had stopped used to ignore TERM for 20 s and more). Real jars on a
 * private broker and database of this test's own, so stopping them disturbs no other test; the broker case runs
 * first and starts the broker again for the database case (in the background: the database case's services boot
 * meanwhile, and it waits for the broker before it stops the database).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StopWithinTenSecondsTest {
    private static final Duration STOP_BUDGET = Duration.ofSeconds(10);
    /** What a JVM that ran its shutdown hooks on TERM exits with (128 + 15); a plain exit would be 0. */
    private static final int TERMINATED = 143;

    private static final Duration NOTICE_TIMEOUT = Duration.ofSeconds(60);
    /** How often a condition is asked again: the condition, not this period, ends the wait. */
    private static final Duration NOTICE_POLL = Duration.ofMillis(250);
    /** Where a Kafka send waits for a broker that does not answer (up to max.block.ms, 60 s by default). */
    private static final String SEND_WAITING = "KafkaProducer.waitOnMetadata";

    private static Infra infra;
    /** The broker's restart after the broker case; the database case needs it back before it stops the database. */
    private static CompletableFuture<Void> brokerBack = CompletableFuture.completedFuture(null);

    @BeforeAll
    static void startInfra() {
        infra = Infra.startForTests();
    }

    @AfterAll
    static void stopInfra() {
        if (infra != null) {
            infra.close();
        }
        try (DockerClient docker = DockerClients.local()) {
            docker.removeNetworkCmd(StopStack.NETWORK).exec();
        } catch (Exception e) {
            // never created, or already gone
        }
    }

    @Test
    @Order(1)
    void everyServiceAndAWorkerStopWithinTenSecondsWhenTheBrokerIsGone() {
        Map<String, ServiceProcess> processes = StopStack.start(infra,
                List.of("run-service", "adapter", "egress-service", "admin-ui", "worker"));
        try {
            infra.stopKafka();
            // the case seen in the field: the broker has been gone a while, so a heartbeat send already waits for it
            ServiceProcess worker = processes.get("worker");
            await("a heartbeat of the worker waits for the broker", () -> worker.threadDump().contains(SEND_WAITING));
            assertAllStopInTime(processes);
        } finally {
            processes.values().forEach(ServiceProcess::kill);
            brokerBack = CompletableFuture.runAsync(infra::startKafka);
        }
    }

    @Test
    @Order(2)
    void theServicesOfTheDatabaseStopWithinTenSecondsWhenItIsGone() {
        Map<String, ServiceProcess> processes = StopStack.start(infra, List.of("run-service", "egress-service"));
        try {
            // the broker restarted while they booted: it must be up before the database goes, so only that is gone
            brokerBack.join();
            infra.stopPostgres();
            await("both services report their database gone",
                    () -> processes.values().stream().noneMatch(ServiceProcess::isReady));
            assertAllStopInTime(processes);
        } finally {
            processes.values().forEach(ServiceProcess::kill);
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        Awaitility.await(what).atMost(NOTICE_TIMEOUT).pollInterval(NOTICE_POLL)
                .until(condition::getAsBoolean);
    }

    /** TERM to all at once, as an orchestrator stops a stack, and each must be gone within the budget. */
    private static void assertAllStopInTime(Map<String, ServiceProcess> processes) {
        List<CompletableFuture<String>> stops = new ArrayList<>();
        processes.forEach((name, process) -> stops.add(CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            OptionalInt code = process.terminateWithin(STOP_BUDGET);
            String took = Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms";
            if (code.isEmpty()) {
                return name + " still running " + STOP_BUDGET.toSeconds() + " s after TERM (threads in "
                        + process.logFile() + ".threads); last lines:\n" + process.logTail();
            }
            if (code.getAsInt() != TERMINATED && code.getAsInt() != 0) {
                return name + " exited with " + code.getAsInt() + " after " + took + "; last lines:\n"
                        + process.logTail();
            }
            System.out.println(name + " stopped in " + took + " (exit " + code.getAsInt() + ")");
            return null;
        })));
        List<String> failures = stops.stream().map(CompletableFuture::join).filter(f -> f != null).toList();
        assertThat(failures).as("processes that did not stop cleanly within %s s", STOP_BUDGET.toSeconds()).isEmpty();
    }
}
