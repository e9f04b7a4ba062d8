package io.trimus.commons.messaging;

import io.smallrye.config.WithDefault;
import io.trimus.commons.config.ShutdownBounds;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaStopBoundsTest {

    @Test
    void readsADurationAsQuarkusDoesIntoTheConnectorsMilliseconds() {
        assertThat(KafkaStopBounds.millis("x", KafkaStopBounds.CLOSE_TIMEOUT_DEFAULT)).isEqualTo(1000);
        assertThat(KafkaStopBounds.millis("x", KafkaStopBounds.CONSUMER_GRACE_DEFAULT)).isEqualTo(200);
        assertThat(KafkaStopBounds.millis("x", "3")).isEqualTo(3000);
        assertThat(KafkaStopBounds.millis("x", "2s")).isEqualTo(2000);
        assertThat(KafkaStopBounds.millis("x", "PT1.5S")).isEqualTo(1500);
    }

    @Test
    void theFallbacksAreTheDefaultsEveryServiceDeclares() throws NoSuchMethodException {
        assertThat(ShutdownBounds.class.getMethod("kafkaCloseTimeout").getAnnotation(WithDefault.class).value())
                .isEqualTo(KafkaStopBounds.CLOSE_TIMEOUT_DEFAULT);
        assertThat(ShutdownBounds.class.getMethod("kafkaConsumerGrace").getAnnotation(WithDefault.class).value())
                .isEqualTo(KafkaStopBounds.CONSUMER_GRACE_DEFAULT);
    }

    @Test
    void aValueThatIsNoDurationNamesTheSetting() {
        assertThatThrownBy(() -> KafkaStopBounds.millis(KafkaStopBounds.CLOSE_TIMEOUT, "soon"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trimus.shutdown.kafka-close-timeout");
    }
}
