package io.trimus.commons.net;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** The prefix test on whole and partial bytes, both families, and across families. */
class AddressPrefixTest {

    private static byte[] ip(String text) throws Exception {
        return InetAddress.getByName(text).getAddress();
    }

    @Test
    void wholeAndPartialBytesAreCompared() throws Exception {
        assertThat(AddressPrefix.matches(ip("10.0.0.0"), 8, ip("10.255.1.2"))).isTrue();
        assertThat(AddressPrefix.matches(ip("10.0.0.0"), 8, ip("11.0.0.1"))).isFalse();
        assertThat(AddressPrefix.matches(ip("172.16.0.0"), 12, ip("172.31.255.255"))).isTrue();
        assertThat(AddressPrefix.matches(ip("172.16.0.0"), 12, ip("172.32.0.0"))).isFalse();
        assertThat(AddressPrefix.matches(ip("0.0.0.0"), 0, ip("203.0.113.9"))).isTrue();
        assertThat(AddressPrefix.matches(ip("192.0.2.7"), 32, ip("192.0.2.7"))).isTrue();
        assertThat(AddressPrefix.matches(ip("192.0.2.7"), 32, ip("192.0.2.6"))).isFalse();
    }

    @Test
    void ipv6RangesAndOtherFamilies() throws Exception {
        assertThat(AddressPrefix.matches(ip("fc00::"), 7, ip("fdff::1"))).isTrue();
        assertThat(AddressPrefix.matches(ip("fc00::"), 7, ip("fe00::1"))).isFalse();
        assertThat(AddressPrefix.matches(ip("10.0.0.0"), 8, ip("2001:db8::a00:1"))).as("an IPv6 address never")
                .isFalse();
    }
}
