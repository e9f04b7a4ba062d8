package io.trimus.adapter.offhost;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SSRF guard of lambda endpoints and A2A peers, address by address. Nothing here resolves a name or dials
 * anything: every address is a literal, parsed without DNS, and only classified (public ones included). The full
 * table with its range boundaries is {@code io.trimus.commons.net.SpecialAddressesTest}, where this test's table rows
 * moved; here one address per class shows the guard refuses with the table's description.
 */
class EndpointAddressPolicyTest {
    private static final EndpointAddressPolicy PUBLIC_ONLY = EndpointAddressPolicy.publicOnly();

    /**
     * Changed when the guard came to share the proxy's table: {@code ::7f00:1} and {@code 2001:0:4136:e378::1}, refused
     * before as IPv4-compatible and Teredo ranges, are refused now as the loopback and reserved IPv4 addresses they
     * carry, and the reason still names the form.
     */
    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            127.0.0.1               | loopback
            10.0.0.1                | private
            169.254.169.254         | link-local
            100.64.0.1              | carrier-grade NAT
            0.1.2.3                 | unspecified
            224.0.0.1               | multicast
            255.255.255.255         | broadcast
            240.0.0.1               | reserved
            198.18.0.1              | benchmarking
            192.0.2.10              | documentation
            192.0.0.8               | IETF protocol assignment
            ::1                     | loopback
            ::ffff:10.0.0.1         | private
            64:ff9b::a00:1          | NAT64 address of 10.0.0.1, a private
            64:ff9b:1::808:808      | local-use NAT64
            2002:7f00:1::1          | 6to4 address of 127.0.0.1, a loopback
            fd00:ec2::254           | unique local
            fe80::1                 | link-local
            2001:0:4136:e378::1     | Teredo
            ::7f00:1                | IPv4-compatible
            ::808:808               | IPv4-compatible
            2001:0:4136:e378:8000:63bf:f7f7:f7f7 | Teredo
            4000::1                 | outside the global unicast range
            """)
    void nonPublicAddressesAreRefusedWithTheirClass(String address, String because) {
        EndpointAddressPolicy.Verdict verdict = PUBLIC_ONLY.check(literal(address));

        assertThat(verdict.allowed()).as(address).isFalse();
        assertThat(verdict.reason()).contains(because);
    }

    @ParameterizedTest(name = "{0} is public")
    @ValueSource(strings = {"8.8.8.8", "2606:4700::1111", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"})
    void publicAddressesAreAllowed(String address) {
        assertThat(PUBLIC_ONLY.check(literal(address)).allowed()).as(address).isTrue();
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
        EndpointAddressPolicy policy = allowing("127.0.0.1/32", " 10.20.0.0/16 ", "", "fd00:1::/64", "192.168.7.7");

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
        assertThatThrownBy(() -> EndpointAddressPolicy.allowing(List.of(entry), "TRIMUS_LAMBDA_ALLOW_PRIVATE"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("TRIMUS_LAMBDA_ALLOW_PRIVATE: ")
                .hasMessageContaining(entry);
        assertThatThrownBy(() -> EndpointAddressPolicy.allowing(List.of(entry), "TRIMUS_A2A_ALLOW_PRIVATE"))
                .hasMessageStartingWith("TRIMUS_A2A_ALLOW_PRIVATE: ");
    }

    /** Stricter since the table is shared: as in the egress proxy, an entry is matched against the reached address. */
    @Test
    void anAllowedRangeMatchesTheReachedAddressNeverTheIpv6Form() {
        EndpointAddressPolicy policy = allowing("64:ff9b::/96", "2002::/16", "2001::/32", "::/96");

        assertThat(policy.check(literal("64:ff9b::a00:1")).allowed()).isFalse();
        assertThat(policy.check(literal("2002:a00:1::1")).allowed()).isFalse();
        assertThat(policy.check(literal("2001:0:4136:e378:8000:63bf:f5ff:fffe")).allowed()).isFalse();
        assertThat(policy.check(literal("::a00:1")).allowed()).isFalse();
    }

    /** Stricter since the table is shared: as in the egress proxy, no entry opens the unspecified address. */
    @Test
    void theUnspecifiedAddressIsNeverAllowed() {
        EndpointAddressPolicy policy = allowing("0.0.0.0/0", "::/0", "0.0.0.0/8", "::/128");

        assertThat(policy.check(literal("0.0.0.0")).allowed()).isFalse();
        assertThat(policy.check(literal("0.1.2.3")).allowed()).isFalse();
        assertThat(policy.check(literal("::")).allowed()).isFalse();
        assertThat(policy.check(literal("64:ff9b::")).allowed()).isFalse();
        assertThat(policy.check(literal("10.0.0.1")).allowed()).isTrue();
    }

    @Test
    void aResolvedHostIsRefusedByItsFirstRefusedAddress() {
        InetAddress[] mixed = {literal("8.8.8.8"), literal("10.0.0.1"), literal("127.0.0.1")};

        assertThat(PUBLIC_ONLY.checkAll("agent.example.com", mixed).reason())
                .isEqualTo("agent.example.com resolves to 10.0.0.1, and 10.0.0.1 is a private address");
        assertThat(PUBLIC_ONLY.checkAll("agent.example.com", new InetAddress[]{literal("8.8.8.8")}).allowed())
                .isTrue();
    }

    @Test
    void onlyIpLiteralsAreLiterals() {
        assertThat(EndpointAddressPolicy.literal("127.0.0.2")).contains(literal("127.0.0.2"));
        assertThat(EndpointAddressPolicy.literal("::1")).isPresent();
        assertThat(EndpointAddressPolicy.literal("agent.example.com")).isEmpty();
        assertThat(EndpointAddressPolicy.literal("999.0.0.1")).isEmpty();
        assertThat(EndpointAddressPolicy.literal("1.2.3")).isEmpty();
    }

    private static EndpointAddressPolicy allowing(String... ranges) {
        return EndpointAddressPolicy.allowing(List.of(ranges), "TRIMUS_LAMBDA_ALLOW_PRIVATE");
    }

    private static InetAddress literal(String address) {
        return EndpointAddressPolicy.literal(address).orElseThrow(() ->
                new IllegalArgumentException(address + " is not a literal; this test never resolves names"));
    }
}
