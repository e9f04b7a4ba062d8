package io.trimus.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A child that cannot start fails the start at once, and says why, instead of hanging until the timeout. */
class InfraFailureTest {
    private Path dir;

    @BeforeEach
    void makeDirectory() throws IOException {
        dir = Files.createTempDirectory("trimus-infra-failure");
    }

    /**
     * PostgreSQL's own processes may still be finishing their shutdown checkpoint in the data directory after the
     * launcher child has exited: the directory is removed best-effort, a few times, never failing the test.
     */
    @AfterEach
    void removeDirectory() {
        try {
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200)).until(this::removed);
        } catch (ConditionTimeoutException leftBehind) {
            // a temporary directory left behind is no failure of what this test checks
        }
    }

    private boolean removed() {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException stillChanging) {
            return false;
        }
        return !Files.exists(dir);
    }

    @Test
    void aBrokerWhosePortIsTakenFailsTheStartWithItsLogTail() throws Exception {
        List<Integer> ports = Ports.free(2);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InfraSettings settings = new InfraSettings(taken.getLocalPort(), ports.get(0), ports.get(1),
                    dir.resolve("data"), dir.resolve("logs"), true);

            assertThatThrownBy(() -> Infra.start(settings))
                    .hasMessageContaining("kafka exited before it was ready with code 1")
                    .hasMessageContaining("port " + taken.getLocalPort() + " for the Kafka broker on 127.0.0.1 is in use");
        }
    }
}
