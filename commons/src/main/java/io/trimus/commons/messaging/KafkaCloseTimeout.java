package io.trimus.commons.messaging;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How long a stopping service waits for one Kafka producer to close (TRIMUS_SHUTDOWN_KAFKA_CLOSE_TIMEOUT): the
 * connector's own {@code close-timeout} is 10 s and it waits twice that per producer, so a service with a blocked
 * producer (the broker gone) ignored SIGTERM for 20 s and more. Decided once at boot from the {@code trimus} setting,
 * in milliseconds as the connector takes it, below application.properties so a channel's own setting still wins.
 */
public class KafkaCloseTimeout implements ConfigSourceFactory {

    /** The default of every service's {@code trimus.shutdown.kafka-close-timeout}. */
    public static final String DEFAULT = "1s";
    static final String SETTING = "trimus.shutdown.kafka-close-timeout";
    static final String CONNECTOR_CLOSE_TIMEOUT = "mp.messaging.connector.smallrye-kafka.close-timeout";
    /** Below application.properties (250). */
    static final int ORDINAL = 200;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue value = context.getValue(SETTING);
        String text = value == null || value.getValue() == null || value.getValue().isBlank() ? DEFAULT : value.getValue();
        return List.of(new PropertiesConfigSource(
                Map.of(CONNECTOR_CLOSE_TIMEOUT, String.valueOf(millis(text))), "trimus-kafka-close-timeout", ORDINAL));
    }

    /** {@code 1s}, {@code 500ms}, {@code PT2S} or a number of seconds, as Quarkus reads a Duration. */
    static long millis(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.matches("\\d+")) {
                return Duration.ofSeconds(Long.parseLong(t)).toMillis();
            }
            if (t.matches("\\d+ms")) {
                return Long.parseLong(t.substring(0, t.length() - 2));
            }
            if (t.matches("\\d+[smhd]")) {
                return Duration.parse((t.endsWith("d") ? "P" : "PT") + t.toUpperCase(Locale.ROOT)).toMillis();
            }
            return Duration.parse(text.trim().toUpperCase(Locale.ROOT)).toMillis();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException(SETTING + " must be a duration such as 1s or 500ms, got '" + text + "'", e);
        }
    }
}
