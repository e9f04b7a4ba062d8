package io.trimus.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A child that cannot start fails the start at once, and says why, instead of hanging until the timeout. */
class InfraFailureTest {
    @TempDir
    Path dir;

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
