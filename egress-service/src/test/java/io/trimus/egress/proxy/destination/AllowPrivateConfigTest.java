package io.trimus.egress.proxy.destination;

import com.google.common.net.InetAddresses;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.trimus.egress.config.TrimusConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE as the operator writes it: read from the environment, and wrong entries refused. */
class AllowPrivateConfigTest {

    @Test
    void isEmptyByDefaultSoOnlyPublicAddressesAreDialled() {
        TrimusConfig config = config(Map.of());

        assertThat(config.egress().proxy().allowPrivate()).isEmpty();
        assertThat(new DestinationAddressPolicy(config).refusal(ip("10.0.0.1"))).isEqualTo("private");
    }

    @Test
    void takesCommaSeparatedRangesOfBothFamiliesFromTheEnvironment() {
        TrimusConfig config = config(Map.of("TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE", "10.20.0.0/16,fd00:1::/64,172.31.0.9"));

        assertThat(config.egress().proxy().allowPrivate()).contains(List.of("10.20.0.0/16", "fd00:1::/64",
                "172.31.0.9"));
        DestinationAddressPolicy policy = new DestinationAddressPolicy(config);
        assertThat(policy.refusal(ip("10.20.3.4"))).isNull();
        assertThat(policy.refusal(ip("fd00:1::5"))).isNull();
        assertThat(policy.refusal(ip("172.31.0.9"))).isNull();
        assertThat(policy.refusal(ip("172.31.0.10"))).isEqualTo("private");
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            10.0.0.1/8              | has host bits set after /8; the range is 10.0.0.0/8
            10.0.0.0/33             | has a prefix length outside 0..32
            fd00::/129              | has a prefix length outside 0..128
            10.0.0.0/               | has no prefix length after the /
            10.0.0.0/x              | has no prefix length after the /
            internal.example.com    | is not an address range such as 10.20.0.0/16
            10.0.0.256/32           | is not an address range
            fe80::1%eth0            | is not an address range
            ::ffff:10.0.0.0/104     | is an IPv4-mapped IPv6 range; write its IPv4 form
            """)
    void aWrongEntryStopsTheStartWithASentenceNamingTheVariable(String entry, String because) {
        TrimusConfig config = config(Map.of("TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE", "192.168.0.0/16," + entry));

        assertThatThrownBy(() -> new DestinationAddressPolicy(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE lists '" + entry + "'")
                .hasMessageContaining(because);
    }

    private static java.net.InetAddress ip(String literal) {
        return InetAddresses.forString(literal);
    }

    private static TrimusConfig config(Map<String, String> environment) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(TrimusConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter()) // Quarkus' 10s, 5m
                .withSources(new EnvConfigSource(environment, 300))
                .build();
        return config.getConfigMapping(TrimusConfig.class);
    }
}
