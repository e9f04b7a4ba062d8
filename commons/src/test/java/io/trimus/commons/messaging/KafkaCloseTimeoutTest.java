package io.trimus.commons.messaging;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaCloseTimeoutTest {

    @Test
    void readsADurationAsQuarkusDoesIntoTheConnectorsMilliseconds() {
        assertThat(KafkaCloseTimeout.millis(KafkaCloseTimeout.DEFAULT)).isEqualTo(1000);
        assertThat(KafkaCloseTimeout.millis("500ms")).isEqualTo(500);
        assertThat(KafkaCloseTimeout.millis("3")).isEqualTo(3000);
        assertThat(KafkaCloseTimeout.millis("2s")).isEqualTo(2000);
        assertThat(KafkaCloseTimeout.millis("PT1.5S")).isEqualTo(1500);
    }

    @Test
    void aValueThatIsNoDurationNamesTheSetting() {
        assertThatThrownBy(() -> KafkaCloseTimeout.millis("soon"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trimus.shutdown.kafka-close-timeout");
    }
}
