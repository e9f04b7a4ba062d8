package io.trimus.egress.proxy.destination;

import com.google.common.net.InetAddresses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy's destination classes, address by address. Every address is a literal parsed without DNS, and nothing is
 * dialled: the policy only classifies.
 */
class DestinationAddressPolicyTest {
    /** A public address and a private one this pretend host has on its interfaces. */
    private static final HostAddresses HOST = HostAddresses.of(List.of(ip("93.184.216.34"), ip("10.9.0.1"),
            ip("2a00:1450:4001:82b::200e"), ip("127.0.0.1"), ip("::1")));
    private static final DestinationAddressPolicy PUBLIC_ONLY = new DestinationAddressPolicy(AllowedPrivateRanges.NONE,
            HOST);

    /**
     * The policy answers with the class of the one table in commons; every range of it, with its boundaries and each
     * IPv4-embedding form, is tried in {@code io.trimus.commons.net.SpecialAddressesTest} (moved there from here).
     * Here one address per class shows the policy reports that class.
     */
    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0.1.2.3                 | unspecified
            10.0.0.1                | private
            100.64.0.0              | cgnat
            127.0.0.1               | loopback
            169.254.0.1             | link-local
            169.254.169.254         | metadata
            192.0.0.8               | reserved
            192.0.2.10              | documentation
            198.18.0.1              | benchmarking
            224.0.0.1               | multicast
            255.255.255.255         | broadcast
            ::                      | unspecified
            fc00::1                 | private
            fd00:ec2::254           | metadata
            fec0::1                 | site-local
            64:ff9b:1::a00:1        | reserved
            4000::1                 | reserved
            """)
    void nonPublicAddressesAreRefusedWithTheirClass(String address, String expected) {
        assertThat(PUBLIC_ONLY.refusal(ip(address))).as(address).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} is public")
    @ValueSource(strings = {"8.8.8.8", "100.128.0.0", "2606:4700:4700::1111", "2a00:1450:4001:82b::200f",
            "64:ff9b::808:808", "2002:808:808::1"})
    void publicAddressesMayBeDialled(String address) {
        assertThat(PUBLIC_ONLY.refusal(ip(address))).as(address).isNull();
    }

    /**
     * Each form that carries an IPv4 address is judged by the address it reaches (the full list is in commons).
     * Changed when the proxy and the adapter came to share one table: an IPv4-compatible (::/96) or Teredo address
     * that reaches a public address is refused, as the adapter always did (the proxy let ::808:808 and a Teredo
     * client of 8.8.8.8 through).
     */
    @ParameterizedTest(name = "{0} reaches a {1} address")
    @CsvSource(delimiter = '|', nullValues = "public", textBlock = """
            ::7f00:2                                | loopback
            ::808:808                               | reserved
            64:ff9b::a9fe:a9fe                      | metadata
            2002:7f00:1::1                          | loopback
            2001:0:4136:e378:8000:63bf:f5ff:fffe    | private
            2001:0:4136:e378:8000:63bf:f7f7:f7f7    | teredo
            """)
    void ipv6FormsAreJudgedByTheIpv4AddressTheyEmbed(String address, String expected) {
        assertThat(PUBLIC_ONLY.refusal(ip(address))).as(address).isEqualTo(expected);
    }

    /** The JDK turns ::ffff:a.b.c.d text into IPv4, but an Inet6Address can still carry the mapped form. */
    @ParameterizedTest(name = "::ffff:{0} is {1}")
    @CsvSource(delimiter = '|', nullValues = "public", textBlock = """
            127.0.0.1          | loopback
            10.0.0.1           | private
            169.254.169.254    | metadata
            0.0.0.0            | unspecified
            8.8.8.8            | public
            """)
    void ipv4MappedAddressesAreJudgedAsTheirIpv4Address(String ipv4, String expected) throws UnknownHostException {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(ip(ipv4).getAddress(), 0, mapped, 12, 4);
        Inet6Address address = Inet6Address.getByAddress(null, mapped, -1);

        assertThat(PUBLIC_ONLY.refusal(address)).isEqualTo(expected);
        assertThat(PUBLIC_ONLY.refusal(ip("::ffff:" + ipv4))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} is the host's own")
    @ValueSource(strings = {"93.184.216.34", "10.9.0.1", "2a00:1450:4001:82b::200e", "::ffff:93.184.216.34",
            "64:ff9b::5db8:d822", "2002:5db8:d822::1"})
    void theHostsOwnAddressesAreRefusedInWhateverForm(String address) {
        assertThat(PUBLIC_ONLY.refusal(ip(address))).isEqualTo("host");
    }

    @Test
    void everyAddressOfThisMachineIsRefused() throws Exception {
        DestinationAddressPolicy policy = TestDestinations.publicOnly();
        List<InetAddress> own = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(nic -> Collections.list(nic.getInetAddresses()).stream()).toList();

        assertThat(own).isNotEmpty();
        for (InetAddress address : own) {
            String expected = address.isLoopbackAddress() ? "loopback" : "host";
            assertThat(policy.refusal(address)).as(address.toString()).isEqualTo(expected);
        }
    }

    @Test
    void anAllowedRangeOpensItsPrivateAddressesAndTheirEmbeddingForms() {
        DestinationAddressPolicy policy = allowing("10.0.0.0/8", "fd00::/8", "169.254.169.254");

        assertThat(policy.refusal(ip("10.1.2.3"))).isNull();
        assertThat(policy.refusal(ip("::ffff:10.1.2.3"))).isNull();
        assertThat(policy.refusal(ip("64:ff9b::a01:203"))).isNull();
        assertThat(policy.refusal(ip("2002:a01:203::1"))).isNull();
        assertThat(policy.refusal(ip("fd12:3456::1"))).isNull();
        assertThat(policy.refusal(ip("169.254.169.254"))).isNull();
        assertThat(policy.refusal(ip("172.16.0.1"))).isEqualTo("private");
        assertThat(policy.refusal(ip("169.254.169.253"))).isEqualTo("link-local");
        assertThat(policy.refusal(ip("fc00::1"))).isEqualTo("private");
        assertThat(policy.refusal(ip("8.8.8.8"))).isNull();
    }

    @Test
    void anAllowedRangeMatchesTheUnwrappedAddressNeverTheIpv6Form() {
        DestinationAddressPolicy policy = allowing("64:ff9b::/96", "2002::/16", "2001::/32", "::/96");

        assertThat(policy.refusal(ip("64:ff9b::a00:1"))).isEqualTo("private");
        assertThat(policy.refusal(ip("2002:a00:1::1"))).isEqualTo("private");
        assertThat(policy.refusal(ip("2001:0:4136:e378:8000:63bf:f5ff:fffe"))).isEqualTo("private");
        assertThat(policy.refusal(ip("::a00:1"))).isEqualTo("private");
        assertThat(policy.refusal(ip("2001:0:4136:e378:8000:63bf:f7f7:f7f7"))).isEqualTo("teredo");
        assertThat(policy.refusal(ip("::808:808"))).isEqualTo("reserved");
    }

    @Test
    void theUnspecifiedAddressIsNeverAllowed() {
        DestinationAddressPolicy policy = allowing("0.0.0.0/0", "::/0", "0.0.0.0/8", "::/128");

        assertThat(policy.refusal(ip("0.0.0.0"))).isEqualTo("unspecified");
        assertThat(policy.refusal(ip("0.1.2.3"))).isEqualTo("unspecified");
        assertThat(policy.refusal(ip("::"))).isEqualTo("unspecified");
        assertThat(policy.refusal(ip("::ffff:0.0.0.0"))).isEqualTo("unspecified");
        assertThat(policy.refusal(ip("64:ff9b::"))).isEqualTo("unspecified");
    }

    @Test
    void aBroadRangeOpensPrivateNetworksButNotLoopbackNorTheHost() {
        DestinationAddressPolicy policy = allowing("0.0.0.0/0", "::/0");

        assertThat(policy.refusal(ip("10.0.0.1"))).isNull();
        assertThat(policy.refusal(ip("169.254.169.254"))).isNull();
        assertThat(policy.refusal(ip("fe80::1"))).isNull();
        assertThat(policy.refusal(ip("127.0.0.1"))).isEqualTo("loopback");
        assertThat(policy.refusal(ip("::1"))).isEqualTo("loopback");
        assertThat(policy.refusal(ip("64:ff9b::7f00:1"))).isEqualTo("loopback");
        assertThat(policy.refusal(ip("10.9.0.1"))).isEqualTo("host");
        assertThat(policy.refusal(ip("93.184.216.34"))).isEqualTo("host");
    }

    @Test
    void loopbackIsAllowedOnlyByAnEntryInsideLoopback() {
        DestinationAddressPolicy policy = allowing("127.0.0.0/8", "::1");

        assertThat(policy.refusal(ip("127.0.0.1"))).isNull();
        assertThat(policy.refusal(ip("127.5.6.7"))).isNull();
        assertThat(policy.refusal(ip("::ffff:127.0.0.1"))).isNull();
        assertThat(policy.refusal(ip("64:ff9b::7f00:1"))).isNull();
        assertThat(policy.refusal(ip("::1"))).isNull();
        assertThat(allowing("127.0.0.1").refusal(ip("127.0.0.2"))).isEqualTo("loopback");
        assertThat(allowing("64.0.0.0/2").refusal(ip("127.0.0.1"))).isEqualTo("loopback");
        assertThat(allowing("::/127").refusal(ip("::1"))).isEqualTo("loopback");
    }

    @Test
    void aHostAddressIsAllowedOnlyByAnEntryNamingItExactly() {
        assertThat(allowing("10.0.0.0/8").refusal(ip("10.9.0.1"))).isEqualTo("host");
        assertThat(allowing("10.9.0.1").refusal(ip("10.9.0.1"))).isNull();
        assertThat(allowing("10.9.0.1/32").refusal(ip("10.9.0.2"))).isEqualTo("private");
    }

    @Test
    void noEntryIsNeededForPublicAddresses() {
        assertThat(allowing("10.0.0.0/8").refusal(ip("8.8.8.8"))).isNull();
        assertThat(allowing().refusal(ip("2606:4700:4700::1111"))).isNull();
    }

    private static DestinationAddressPolicy allowing(String... ranges) {
        return new DestinationAddressPolicy(AllowedPrivateRanges.parse(Arrays.asList(ranges)), HOST);
    }

    private static InetAddress ip(String literal) {
        return InetAddresses.forString(literal);
    }
}
