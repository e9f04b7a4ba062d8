package io.trimus.egress.tunnelling;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.trimus.egress.anomaly.RateLimitedAnomalyRecorder;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.config.TunnellingAction;
import io.trimus.egress.config.TunnellingSettings;
import io.trimus.egress.sandbox.SandboxRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A threshold outside (0, 1] stops the start with a message naming the setting; one inside makes the watch. */
class TunnellingLifecycleTest {

    @ParameterizedTest
    @ValueSource(doubles = {0, -0.5, 1.01, Double.NaN})
    void aThresholdOutsideZeroToOneStopsTheStart(double threshold) {
        assertThatThrownBy(() -> new TunnellingLifecycle(new SandboxRegistry()).watch(config(threshold), recorder()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TRIMUS_EGRESS_TUNNELLING_THRESHOLD");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.05, 0.8, 1})
    void aThresholdInsideMakesTheWatch(double threshold) {
        assertThat(new TunnellingLifecycle(new SandboxRegistry()).watch(config(threshold), recorder())).isNotNull();
    }

    private static RateLimitedAnomalyRecorder recorder() {
        return new RateLimitedAnomalyRecorder(event -> { }, Duration.ofSeconds(10), 100, 10, Clock.systemUTC(),
                new SimpleMeterRegistry());
    }

    /** The configuration with only the tunnelling settings answered. */
    private static TrimusConfig config(double threshold) {
        TunnellingSettings settings = new TunnellingSettings() {
            @Override
            public double threshold() {
                return threshold;
            }

            @Override
            public TunnellingAction action() {
                return TunnellingAction.BLOCK;
            }
        };
        TrimusConfig.Egress egress = (TrimusConfig.Egress) Proxy.newProxyInstance(TrimusConfig.class.getClassLoader(),
                new Class<?>[] {TrimusConfig.Egress.class}, (proxy, method, args) -> {
                    if (method.getName().equals("tunnelling")) {
                        return settings;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        return (TrimusConfig) Proxy.newProxyInstance(TrimusConfig.class.getClassLoader(),
                new Class<?>[] {TrimusConfig.class}, (proxy, method, args) -> {
                    if (method.getName().equals("egress")) {
                        return egress;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
