package io.trimus.adapter.support;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.trimus.adapter.config.TrimusConfig;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The service's {@link TrimusConfig} outside Quarkus: its defaults, with the given properties over them. */
public final class TestConfig {

    private TestConfig() {
    }

    /** @param keyValues property names and values, alternating ({@code "trimus.docker.host", "local"}) */
    public static TrimusConfig of(String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values alternate");
        }
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.put(keyValues[i], keyValues[i + 1]);
        }
        return of(properties);
    }

    public static TrimusConfig of(Map<String, String> properties) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().addDefaultInterceptors().withMapping(TrimusConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter());   // "5s", as Quarkus reads it
        properties.forEach(builder::withDefaultValue);
        return builder.build().getConfigMapping(TrimusConfig.class);
    }
}
