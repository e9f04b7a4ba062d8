package io.trimus.commons.net;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one CIDR type: the prefix test on whole and partial bytes, both families and across families (formerly
 * AddressPrefixTest), strict parsing with a sentence per mistake, and the IPv4 host arithmetic of the egress subnet.
 */
class CidrTest {

    private static byte[] ip(String text) {
        return IpAddresses.literal(text).map(InetAddress::getAddress)
                .orElseThrow(() -> new IllegalArgumentException(text + " is not a literal"));
    }

    private static boolean matches(String network, int prefix, String address) {
        return Cidr.of(ip(network), prefix).contains(ip(address));
    }

    @Test
    void wholeAndPartialBytesAreCompared() {
        assertThat(matches("10.0.0.0", 8, "10.255.1.2")).isTrue();
        assertThat(matches("10.0.0.0", 8, "11.0.0.1")).isFalse();
        assertThat(matches("172.16.0.0", 12, "172.31.255.255")).isTrue();
        assertThat(matches("172.16.0.0", 12, "172.32.0.0")).isFalse();
        assertThat(matches("0.0.0.0", 0, "203.0.113.9")).isTrue();
        assertThat(matches("192.0.2.7", 32, "192.0.2.7")).isTrue();
        assertThat(matches("192.0.2.7", 32, "192.0.2.6")).isFalse();
    }

    @Test
    void ipv6RangesAndOtherFamilies() {
        assertThat(matches("fc00::", 7, "fdff::1")).isTrue();
        assertThat(matches("fc00::", 7, "fe00::1")).isFalse();
        assertThat(matches("10.0.0.0", 8, "2001:db8::a00:1")).as("an IPv6 address never").isFalse();
        assertThat(Cidr.parse("::/0").contains(ip("10.0.0.1"))).as("an IPv4 address never").isFalse();
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', textBlock = """
            10.20.0.0/16        | 10.20.0.0/16
            ' 10.20.0.0/16 '    | 10.20.0.0/16
            192.168.7.7         | 192.168.7.7/32
            0.0.0.0/0           | 0.0.0.0/0
            fd00:1::/64         | fd00:1::/64
            FD00:0001:0:0::/64  | fd00:1::/64
            ::1                 | ::1/128
            ::/0                | ::/0
            2001:db8:0:0:1::/80 | 2001:db8:0:0:1::/80
            """)
    void parsesBothFamiliesAndPrintsTheShortestForm(String text, String printed) {
        assertThat(Cidr.parse(text)).hasToString(printed);
        assertThat(Cidr.parse(printed)).isEqualTo(Cidr.parse(text));
    }

    /** The egress proxy's messages (its knob's test checks them end to end) and the adapter's refused entries. */
    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            10.0.0.1/8              | has host bits set after /8; the range is 10.0.0.0/8
            10.0.0.0/33             | has a prefix length outside 0..32
            fd00::/129              | has a prefix length outside 0..128
            10.0.0.0/               | has no prefix length after the /
            10.0.0.0/x              | has no prefix length after the /
            internal.example.com    | is not an address range such as 10.20.0.0/16
            10.0.0.256/32           | is not an address range
            999.1.1.1/32            | is not an address range
            localhost               | is not an address range
            example.com/24          | is not an address range
            1.2.3                   | is not an address range
            fe80::1%eth0            | is not an address range
            [::1]                   | is not an address range
            1::2::3                 | is not an address range
            ::ffff:10.0.0.0/104     | is an IPv4-mapped IPv6 range; write its IPv4 form
            010.0.0.0/8             | without leading zeros
            """)
    void aWrongRangeIsRefusedWithASentence(String text, String because) {
        assertThatThrownBy(() -> Cidr.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'" + text + "'")
                .hasMessageContaining(because);
    }

    @Test
    void nothingIsANullOrBlankRange() {
        assertThatThrownBy(() -> Cidr.parse(null)).hasMessageContaining("is not an address range");
        assertThatThrownBy(() -> Cidr.parse(" ")).hasMessageContaining("is not an address range");
    }

    @Test
    void rangesKnowWhetherTheyLieInsideAnotherAndWhetherTheyAreOneAddress() {
        assertThat(Cidr.parse("127.0.0.0/16").isWithin(Cidr.parse("127.0.0.0/8"))).isTrue();
        assertThat(Cidr.parse("64.0.0.0/2").isWithin(Cidr.parse("127.0.0.0/8"))).isFalse();
        assertThat(Cidr.parse("::1").isWithin(Cidr.parse("::/0"))).isTrue();
        assertThat(Cidr.parse("::1").isWithin(Cidr.parse("0.0.0.0/0"))).isFalse();
        assertThat(Cidr.parse("10.9.0.1").isSingleAddress()).isTrue();
        assertThat(Cidr.parse("::/127").isSingleAddress()).isFalse();
    }

    @Test
    void anIpv4MappedRangeIsMadeFromBytesAndStaysIpv6() {
        byte[] network = new byte[16];
        network[10] = (byte) 0xff;
        network[11] = (byte) 0xff;
        Cidr mapped = Cidr.of(network, 96);

        assertThat(mapped).hasToString("::ffff:0:0/96");
        assertThat(mapped.isIpv4()).isFalse();
        assertThatThrownBy(() -> Cidr.of(ip("10.0.0.1"), 8)).hasMessageContaining("not a network address");
        assertThatThrownBy(() -> Cidr.of(ip("10.0.0.0"), 33)).hasMessageContaining("0 to 32");
    }

    @Test
    void ipv4SubnetsCountTheirHosts() {
        Cidr subnet = Cidr.ipv4Subnet("172.30.0.0/24");

        assertThat(subnet.isIpv4()).isTrue();
        assertThat(subnet.prefix()).isEqualTo(24);
        assertThat(subnet.hostCount()).isEqualTo(254);
        assertThat(Cidr.text(subnet.host(0))).isEqualTo("172.30.0.1");
        assertThat(subnet.contains("172.30.0.77")).isTrue();
        assertThat(subnet.contains("172.31.0.77")).isFalse();
        assertThat(subnet).isEqualTo(Cidr.parse("172.30.0.0/24")).isEqualTo(Cidr.ipv4(Cidr.address("172.30.0.0"), 24));
        assertThat(Cidr.ipv4Subnet("10.0.0.0/31").hostCount()).isZero();
        assertThatThrownBy(() -> Cidr.ipv4(Cidr.address("10.0.0.1"), 8)).hasMessageContaining("the subnet is 10.0.0.0/8");
        assertThatThrownBy(() -> Cidr.parse("fd00::/64").network()).hasMessageContaining("not an IPv4 subnet");
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent.example.com", "999.0.0.1", "1.2.3", "1.2.3.4.5", "", "[::1]", "1::2::3"})
    void namesAreNotLiterals(String host) {
        assertThat(IpAddresses.literal(host)).isEmpty();
    }

    @Test
    void literalsAreReadAsTheJdkWouldDialThem() {
        assertThat(IpAddresses.literal("127.0.0.2")).map(InetAddress::getHostAddress).contains("127.0.0.2");
        assertThat(IpAddresses.literal("010.0.0.1")).map(InetAddress::getHostAddress).contains("10.0.0.1");
        assertThat(IpAddresses.literal("::1")).isPresent();
        assertThat(IpAddresses.literal(null)).isEmpty();
    }

    @Test
    void anIpv4MappedAddressIsShownAsSuch() {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 127;
        mapped[15] = 1;

        assertThat(IpAddresses.text(mapped)).isEqualTo("::ffff:127.0.0.1");
        assertThat(IpAddresses.text(ip("2002:a00:1::"))).isEqualTo("2002:a00:1:0:0:0:0:0");
    }
}
