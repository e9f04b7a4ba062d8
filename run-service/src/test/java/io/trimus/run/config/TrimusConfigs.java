package io.trimus.run.config;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Test wiring: a real {@link TrimusConfig} outside Quarkus, its defaults as the service has them, with the given
 * properties set, so a unit test builds a bean through its one constructor instead of a constructor of its own.
 */
public final class TrimusConfigs {
    private TrimusConfigs() {
    }

    /** The config with {@code keysAndValues} (property names as in application.properties) set. */
    public static TrimusConfig with(String... keysAndValues) {
        Map<String, String> properties = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .withMapping(TrimusConfig.class)
                .build();
        return config.getConfigMapping(TrimusConfig.class);
    }
}
