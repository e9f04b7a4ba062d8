package io.trimus.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Port helpers: random ports for tests, a readable refusal for taken dev ports. */
class PortsTest {

    @Test
    void freePortsAreDistinct() {
        List<Integer> ports = Ports.free(3);
        assertThat(ports).doesNotHaveDuplicates().allMatch(p -> p > 0);
    }

    @Test
    void aTakenPortIsRefusedNamingItsPurposeAndTheKnobToChangeIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> Ports.requireFree(port, "Kafka", "TRIMUS_KAFKA_PORT"))
                    .hasMessageContaining("port " + port + " for Kafka")
                    .hasMessageContaining("in use")
                    .hasMessageContaining("TRIMUS_KAFKA_PORT");
        }
    }
}
