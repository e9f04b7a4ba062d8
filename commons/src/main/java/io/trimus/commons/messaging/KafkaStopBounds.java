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
 * How long a stopping service waits on Kafka, from the {@code trimus.shutdown} settings every service declares, in
 * the milliseconds the SmallRye connector takes. Its own defaults made a stop slow: it waits twice its 10 s
 * {@code close-timeout} per producer whose send is blocked on a broker that is gone (a worker ignored SIGTERM for 20 s
 * and more), and each consumer sleeps twice its 1 s {@code poll-timeout} before it commits and closes, one consumer
 * after the other. Below application.properties, so a connector or channel setting there still wins.
 */
public class KafkaStopBounds implements ConfigSourceFactory {

    /** The default of {@code trimus.shutdown.kafka-close-timeout}, as {@code io.trimus.commons.config.ShutdownBounds} declares it. */
    public static final String CLOSE_TIMEOUT_DEFAULT = "1s";
    /** The default of {@code trimus.shutdown.kafka-consumer-grace}, as {@code io.trimus.commons.config.ShutdownBounds} declares it. */
    public static final String CONSUMER_GRACE_DEFAULT = "200ms";
    static final String CLOSE_TIMEOUT = "trimus.shutdown.kafka-close-timeout";
    static final String CONSUMER_GRACE = "trimus.shutdown.kafka-consumer-grace";
    static final String CONNECTOR = "mp.messaging.connector.smallrye-kafka.";
    /** Below application.properties (250). */
    static final int ORDINAL = 200;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        long close = millis(CLOSE_TIMEOUT, setting(context, CLOSE_TIMEOUT, CLOSE_TIMEOUT_DEFAULT));
        long grace = millis(CONSUMER_GRACE, setting(context, CONSUMER_GRACE, CONSUMER_GRACE_DEFAULT));
        return List.of(new PropertiesConfigSource(Map.of(
                CONNECTOR + "close-timeout", String.valueOf(close),
                // the connector's graceful stop of a consumer pauses it and then sleeps twice its poll timeout
                CONNECTOR + "poll-timeout", String.valueOf(Math.max(1, grace / 2))),
                "trimus-kafka-stop-bounds", ORDINAL));
    }

    private static String setting(ConfigSourceContext context, String name, String fallback) {
        ConfigValue value = context.getValue(name);
        return value == null || value.getValue() == null || value.getValue().isBlank() ? fallback : value.getValue();
    }

    /** {@code 1s}, {@code 500ms}, {@code PT2S} or a number of seconds, as Quarkus reads a Duration. */
    static long millis(String setting, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.matches("\\d+")) {
                return Duration.ofSeconds(Long.parseLong(t)).toMillis();
            }
            if (t.matches("\\d+ms")) {
                return Long.parseLong(t.substring(0, t.length() - 2));
            }
            if (t.matches("\\d+[smh]")) {
                return Duration.parse("PT" + t.toUpperCase(Locale.ROOT)).toMillis();
            }
            return Duration.parse(text.trim().toUpperCase(Locale.ROOT)).toMillis();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException(setting + " must be a duration such as 1s or 500ms, got '" + text + "'", e);
        }
    }
}
