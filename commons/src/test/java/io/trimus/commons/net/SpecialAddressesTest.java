package io.trimus.commons.net;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The special-address table, address by address: the union of the egress proxy's table (its class labels) and the
 * adapter's lambda/A2A table (its descriptions), merged here from DestinationAddressPolicyTest and
 * EndpointAddressPolicyTest. Every address is a literal read without DNS, and nothing is dialled.
 *
 * <p>Where the two old tables disagreed, the stricter answer was kept, and the rows say so:
 * <ul>
 *   <li>IPv4-compatible {@code ::/96}: the adapter refused the whole range, the proxy judged the IPv4 address inside.
 *       Now the IPv4 address's class when it is special ({@code ::7f00:1} is loopback), else {@code reserved}
 *       ({@code ::808:808}, which the proxy let through).</li>
 *   <li>Teredo {@code 2001::/32}: the adapter refused the whole range, the proxy judged the client address. Now the
 *       client's class when it is special, else {@code teredo} (the proxy let a public client through).</li>
 *   <li>The cloud metadata address: the adapter called 169.254.169.254 link-local and fd00:ec2::254 unique local; both
 *       are now class {@code metadata}, and the descriptions keep saying what they are. Refused by both before and
 *       after; an allow-private range that covers them still opens them, as in both services before.</li>
 *   <li>Local-use NAT64 {@code 64:ff9b:1::/48}: refused by both; kept {@code reserved} as a whole, never unwrapped,
 *       because where its IPv4 address sits is a local choice (and an unwrapped address could be opened by a
 *       knob).</li>
 * </ul>
 */
class SpecialAddressesTest {

    @ParameterizedTest(name = "{0} is {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            0.0.0.0                 | unspecified   | unspecified
            0.1.2.3                 | unspecified   | unspecified
            10.0.0.1                | private       | a private address
            10.255.255.255          | private       | a private address
            100.64.0.0              | cgnat         | carrier-grade NAT
            100.64.0.1              | cgnat         | carrier-grade NAT
            100.127.255.255         | cgnat         | carrier-grade NAT
            127.0.0.1               | loopback      | loopback
            127.255.255.254         | loopback      | loopback
            169.254.0.1             | link-local    | link-local
            169.254.169.254         | metadata      | link-local
            172.16.0.0              | private       | private
            172.31.255.255          | private       | private
            192.0.0.8               | reserved      | IETF protocol assignment
            192.0.2.10              | documentation | documentation
            192.88.99.1             | reserved      | 6to4 relay anycast
            192.168.1.1             | private       | private
            198.18.0.1              | benchmarking  | benchmarking
            198.19.255.255          | benchmarking  | benchmarking
            198.51.100.7            | documentation | documentation
            203.0.113.9             | documentation | documentation
            224.0.0.1               | multicast     | multicast
            239.255.255.250         | multicast     | multicast
            240.0.0.1               | reserved      | reserved
            255.255.255.254         | reserved      | reserved
            255.255.255.255         | broadcast     | broadcast
            ::                      | unspecified   | unspecified
            ::1                     | loopback      | loopback
            ::ffff:127.0.0.1        | loopback      | loopback
            ::ffff:10.0.0.1         | private       | private
            fc00::1                 | private       | unique local
            fdff:ffff::1            | private       | unique local
            fd00:ec2::254           | metadata      | unique local
            fe80::1                 | link-local    | link-local
            febf:ffff::1            | link-local    | link-local
            fec0::1                 | site-local    | site-local
            ff02::1                 | multicast     | multicast
            ff0e::1                 | multicast     | multicast
            2001:2::1               | benchmarking  | benchmarking
            2001:db8::1             | documentation | documentation
            3fff::1                 | documentation | documentation
            2001:10::1              | reserved      | ORCHID
            2001:20::1              | reserved      | ORCHID
            100::1                  | reserved      | discard-only
            64:ff9b:1::a00:1        | reserved      | local-use NAT64
            64:ff9b:1::808:808      | reserved      | local-use NAT64
            4000::1                 | reserved      | outside the global unicast range
            64:ff9c::1              | reserved      | outside the global unicast range
            ::ffff:0:a00:1          | reserved      | outside the global unicast range
            """)
    void nonPublicAddressesHaveTheirClass(String address, String label, String description) {
        Classification classified = SpecialAddresses.classify(ip(address));

        assertThat(classified.isPublic()).as(address).isFalse();
        assertThat(classified.addressClass().label()).as(address).isEqualTo(label);
        assertThat(classified.reason()).as(address).contains(description);
    }

    @ParameterizedTest(name = "{0} is public")
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "11.0.0.0", "100.63.255.255", "100.128.0.0", "172.15.255.255",
            "172.32.0.0", "169.253.255.255", "198.17.255.255", "198.20.0.0", "223.255.255.255", "2606:4700:4700::1111",
            "2606:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001:82b::200e", "2a00:1450:4001:82b::200f",
            "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"})
    void publicAddressesHaveNoClass(String address) {
        Classification classified = SpecialAddresses.classify(ip(address));

        assertThat(classified.isPublic()).as(address).isTrue();
        assertThat(classified.addressClass()).isNull();
        assertThat(classified.reason()).isNull();
    }

    @ParameterizedTest(name = "{0}: public {1}")
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
    void rangeBoundariesFallOnTheRightSide(String address, boolean isPublic) {
        assertThat(SpecialAddresses.classify(ip(address)).isPublic()).as(address).isEqualTo(isPublic);
    }

    /** Each form that carries an IPv4 address is classed as the address it reaches, public or not. */
    @ParameterizedTest(name = "{0} reaches {2}, {1}")
    @CsvSource(delimiter = '|', nullValues = "public", textBlock = """
            ::7f00:2                                | loopback    | 127.0.0.2
            ::7f00:1                                | loopback    | 127.0.0.1
            ::a00:1                                 | private     | 10.0.0.1
            ::2                                     | unspecified | 0.0.0.2
            64:ff9b::7f00:1                         | loopback    | 127.0.0.1
            64:ff9b::a00:1                          | private     | 10.0.0.1
            64:ff9b::a9fe:a9fe                      | metadata    | 169.254.169.254
            64:ff9b::ac1c:5                         | private     | 172.28.0.5
            64:ff9b::ffff:ffff                      | broadcast   | 255.255.255.255
            64:ff9b::                               | unspecified | 0.0.0.0
            64:ff9b::808:808                        | public      | 8.8.8.8
            2002:7f00:1::1                          | loopback    | 127.0.0.1
            2002:a9fe:a9fe::1                       | metadata    | 169.254.169.254
            2002:c0a8:101::1                        | private     | 192.168.1.1
            2002:a00:1::                            | private     | 10.0.0.1
            2002:6440:1::                           | cgnat       | 100.64.0.1
            2002:808:808::1                         | public      | 8.8.8.8
            2001:0:4136:e378:8000:63bf:80ff:fffe    | loopback    | 127.0.0.1
            2001:0:4136:e378:8000:63bf:f5ff:fffe    | private     | 10.0.0.1
            2001:0:4136:e378:8000:63bf:5601:5601    | metadata    | 169.254.169.254
            2001:0:4136:e378:8000:63bf:3fff:fdd2    | documentation | 192.0.2.45
            2001:0:4136:e378::1                     | reserved    | 255.255.255.254
            """)
    void ipv6FormsAreClassedAsTheIpv4AddressTheyEmbed(String address, String label, String reached) {
        Classification classified = SpecialAddresses.classify(ip(address));

        assertThat(classified.addressClass() == null ? null : classified.addressClass().label()).as(address)
                .isEqualTo(label);
        assertThat(IpAddresses.text(classified.reached())).isEqualTo(reached);
        assertThat(IpAddresses.text(SpecialAddresses.embeddedIpv4(ip(address)))).isEqualTo(reached);
    }

    /** Disagreement: the adapter refused all of ::/96 and 2001::/32; the proxy let a public IPv4 inside through. */
    @Test
    void ipv4CompatibleAndTeredoFormsAreRefusedEvenWhenTheyReachAPublicAddress() {
        Classification compatible = SpecialAddresses.classify(ip("::808:808"));
        Classification teredo = SpecialAddresses.classify(ip("2001:0:4136:e378:8000:63bf:f7f7:f7f7"));

        assertThat(compatible.addressClass()).isEqualTo(AddressClass.RESERVED);
        assertThat(compatible.reason()).isEqualTo("0:0:0:0:0:0:808:808 is an IPv4-compatible address (deprecated) of"
                + " 8.8.8.8, a deprecated form refused whatever it reaches");
        assertThat(teredo.addressClass()).isEqualTo(AddressClass.TEREDO);
        assertThat(IpAddresses.text(teredo.reached())).isEqualTo("8.8.8.8");
        assertThat(teredo.reason()).contains("a Teredo address of 8.8.8.8");
        assertThat(SpecialAddresses.classify(ip("2001:0:4136:e378::1")).reason()).contains("Teredo");
        assertThat(SpecialAddresses.classify(ip("::7f00:1")).reason()).contains("IPv4-compatible");
    }

    /** The JDK turns ::ffff:a.b.c.d text into IPv4, but 16 bytes can still carry the mapped form. */
    @ParameterizedTest(name = "::ffff:{0} is {1}")
    @CsvSource(delimiter = '|', nullValues = "public", textBlock = """
            127.0.0.1          | loopback
            10.0.0.1           | private
            169.254.169.254    | metadata
            0.0.0.0            | unspecified
            8.8.8.8            | public
            """)
    void ipv4MappedAddressesAreClassedAsTheirIpv4Address(String ipv4, String label) {
        byte[] mapped = mapped(ip(ipv4));
        Classification classified = SpecialAddresses.classify(mapped);

        assertThat(classified.addressClass() == null ? null : classified.addressClass().label()).isEqualTo(label);
        assertThat(classified.embedding()).isEqualTo(Classification.Embedding.IPV4_MAPPED);
        Classification asText = SpecialAddresses.classify(ip("::ffff:" + ipv4));
        assertThat(asText.addressClass() == null ? null : asText.addressClass().label()).isEqualTo(label);
    }

    @Test
    void theReasonNamesTheAddressAndItsClass() {
        assertThat(SpecialAddresses.classify(ip("169.254.169.254")).reason())
                .isEqualTo("169.254.169.254 is a link-local address (where cloud metadata services answer)");
        assertThat(SpecialAddresses.classify(ip("2002:a00:1::")).reason())
                .startsWith("2002:a00:1:0:0:0:0:0 is a 6to4 address of 10.0.0.1, a private address");
        assertThat(SpecialAddresses.classify(mapped(ip("127.0.0.1"))).reason())
                .isEqualTo("::ffff:127.0.0.1 is an IPv4-mapped address of 127.0.0.1, a loopback address");
        assertThat(SpecialAddresses.classify(ip("64:ff9b::a00:1")).reason())
                .contains("NAT64 address of 10.0.0.1, a private");
        assertThat(SpecialAddresses.classify(ip("64:ff9b::a9fe:a9fe")).reason())
                .contains("NAT64 address of 169.254.169.254, a link-local");
        assertThat(SpecialAddresses.classify(ip("2002:7f00:1::1")).reason())
                .contains("6to4 address of 127.0.0.1, a loopback");
    }

    @Test
    void onlyTheUnspecifiedClassCanNeverBeOpened() {
        for (AddressClass type : AddressClass.values()) {
            assertThat(type.allowable()).as(type.label()).isEqualTo(type != AddressClass.UNSPECIFIED);
        }
    }

    @Test
    void loopbackIsBothFamilies() {
        assertThat(SpecialAddresses.isLoopback(ip("127.5.6.7"))).isTrue();
        assertThat(SpecialAddresses.isLoopback(ip("::1"))).isTrue();
        assertThat(SpecialAddresses.isLoopback(ip("::2"))).isFalse();
        assertThat(SpecialAddresses.embeddedIpv4(ip("8.8.8.8"))).isNull();
        assertThat(SpecialAddresses.embeddedIpv4(ip("::1"))).isNull();
        assertThat(SpecialAddresses.embeddedIpv4(ip("64:ff9b:1::a00:1"))).as("local-use NAT64 is never unwrapped")
                .isNull();
    }

    private static byte[] mapped(byte[] ipv4) {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(ipv4, 0, mapped, 12, 4);
        return mapped;
    }

    private static byte[] ip(String literal) {
        return IpAddresses.literal(literal).map(InetAddress::getAddress)
                .orElseThrow(() -> new IllegalArgumentException(literal + " is not a literal; no name is resolved"));
    }
}
