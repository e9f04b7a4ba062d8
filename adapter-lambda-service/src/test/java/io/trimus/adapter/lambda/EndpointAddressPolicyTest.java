package io.trimus.adapter.lambda;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SSRF guard's classification, address by address. Nothing here resolves a name or dials anything: every address
 * is a literal, parsed without DNS, and only classified (public ones included).
 */
class EndpointAddressPolicyTest {
    private static final EndpointAddressPolicy PUBLIC_ONLY = EndpointAddressPolicy.publicOnly();

    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            127.0.0.1               | loopback
            127.255.255.254         | loopback
            10.0.0.1                | private
            172.16.0.0              | private
            172.31.255.255          | private
            192.168.1.1             | private
            169.254.169.254         | link-local
            100.64.0.0              | carrier-grade NAT
            100.64.0.1              | carrier-grade NAT
            100.127.255.255         | carrier-grade NAT
            0.0.0.0                 | unspecified
            0.1.2.3                 | unspecified
            224.0.0.1               | multicast
            239.255.255.250         | multicast
            255.255.255.255         | broadcast
            240.0.0.1               | reserved
            198.18.0.1              | benchmarking
            198.19.255.255          | benchmarking
            192.0.2.10              | documentation
            198.51.100.7            | documentation
            203.0.113.9             | documentation
            192.0.0.8               | IETF protocol assignment
            ::1                     | loopback
            ::                      | unspecified
            ::ffff:127.0.0.1        | loopback
            ::ffff:10.0.0.1         | private
            64:ff9b::a00:1          | NAT64 address of 10.0.0.1, a private
            64:ff9b::a9fe:a9fe      | NAT64 address of 169.254.169.254, a link-local
            64:ff9b:1::808:808      | local-use NAT64
            2002:a00:1::            | 6to4 address of 10.0.0.1, a private
            2002:7f00:1::1          | 6to4 address of 127.0.0.1, a loopback
            fc00::1                 | unique local
            fd00:ec2::254           | unique local
            fe80::1                 | link-local
            febf:ffff::1            | link-local
            fec0::1                 | site-local
            ff02::1                 | multicast
            2001:db8::1             | documentation
            3fff::1                 | documentation
            2001:0:4136:e378::1     | Teredo
            2001:2::1               | benchmarking
            100::1                  | discard-only
            ::7f00:1                | IPv4-compatible
            4000::1                 | outside the global unicast range
            """)
    void nonPublicAddressesAreRefusedWithTheirClass(String address, String because) {
        EndpointAddressPolicy.Verdict verdict = PUBLIC_ONLY.check(literal(address));

        assertThat(verdict.allowed()).as(address).isFalse();
        assertThat(verdict.reason()).contains(because);
    }

    @ParameterizedTest(name = "{0} is public")
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001:82b::200e",
            "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"})
    void publicAddressesAreAllowed(String address) {
        assertThat(PUBLIC_ONLY.check(literal(address)).allowed()).as(address).isTrue();
    }

    @ParameterizedTest(name = "{0}: allowed {1}")
    @CsvSource(delimiter = '|', textBlock = """
            100.63.255.255  | true
            100.64.0.0      | false
            100.127.255.255 | false
            100.128.0.0     | true
            172.15.255.255  | true
            172.16.0.0      | false
            172.31.255.255  | false
            172.32.0.0      | true
            169.253.255.255 | true
            169.254.0.0     | false
            169.255.0.0     | true
            9.255.255.255   | true
            11.0.0.0        | true
            126.255.255.255 | true
            128.0.0.0       | true
            198.17.255.255  | true
            198.18.0.0      | false
            198.20.0.0      | true
            223.255.255.255 | true
            1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff | false
            2000::          | true
            fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff | false
            """)
    void rangeBoundariesFallOnTheRightSide(String address, boolean allowed) {
        assertThat(PUBLIC_ONLY.check(literal(address)).allowed()).as(address).isEqualTo(allowed);
    }

    @Test
    void anIpv4MappedAddressIsJudgedByItsIpv4AddressEvenAsSixteenBytes() {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 127;
        mapped[15] = 1;

        EndpointAddressPolicy.Verdict verdict = PUBLIC_ONLY.check(mapped);

        assertThat(verdict.allowed()).isFalse();
        assertThat(verdict.reason()).isEqualTo("::ffff:127.0.0.1 is an IPv4-mapped address of 127.0.0.1, a loopback"
                + " address");
    }

    @Test
    void theReasonNamesTheAddressAndItsClass() {
        assertThat(PUBLIC_ONLY.check(literal("169.254.169.254")).reason())
                .isEqualTo("169.254.169.254 is a link-local address (where cloud metadata services answer)");
        assertThat(PUBLIC_ONLY.check(literal("2002:a00:1::")).reason())
                .startsWith("2002:a00:1:0:0:0:0:0 is a 6to4 address of 10.0.0.1, a private address");
    }

    @Test
    void theAllowListCoversExactlyItsRanges() {
        EndpointAddressPolicy policy = EndpointAddressPolicy.allowing(List.of("127.0.0.1/32", " 10.20.0.0/16 ", "",
                "fd00:1::/64", "192.168.7.7"));

        assertThat(policy.check(literal("127.0.0.1")).allowed()).isTrue();
        assertThat(policy.check(literal("127.0.0.2")).allowed()).isFalse();
        assertThat(policy.check(literal("10.20.255.255")).allowed()).isTrue();
        assertThat(policy.check(literal("10.21.0.0")).allowed()).isFalse();
        assertThat(policy.check(literal("fd00:1::abcd")).allowed()).isTrue();
        assertThat(policy.check(literal("fd00:2::1")).allowed()).isFalse();
        assertThat(policy.check(literal("192.168.7.7")).allowed()).isTrue();
        assertThat(policy.check(literal("192.168.7.8")).allowed()).isFalse();
        // an address embedding an allowed IPv4 address reaches it: allowed alike
        assertThat(policy.check(literal("64:ff9b::a14:1")).allowed()).isTrue();
        assertThat(policy.check(literal("169.254.169.254")).allowed()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.0/33", "10.0.0.1/8", "localhost", "10.0.0.0/x", "999.1.1.1/32", "fd00::/129",
            "example.com/24"})
    void aBrokenAllowListEntryStopsTheServiceWithTheSetting(String entry) {
        assertThatThrownBy(() -> EndpointAddressPolicy.allowing(List.of(entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("TRIMUS_LAMBDA_ALLOW_PRIVATE: ")
                .hasMessageContaining(entry);
    }

    @Test
    void onlyIpLiteralsAreLiterals() {
        assertThat(EndpointAddressPolicy.literal("127.0.0.2")).contains(literal("127.0.0.2"));
        assertThat(EndpointAddressPolicy.literal("::1")).isPresent();
        assertThat(EndpointAddressPolicy.literal("agent.example.com")).isEmpty();
        assertThat(EndpointAddressPolicy.literal("999.0.0.1")).isEmpty();
        assertThat(EndpointAddressPolicy.literal("1.2.3")).isEmpty();
    }

    private static InetAddress literal(String address) {
        return EndpointAddressPolicy.literal(address).orElseThrow(() ->
                new IllegalArgumentException(address + " is not a literal; this test never resolves names"));
    }
}
