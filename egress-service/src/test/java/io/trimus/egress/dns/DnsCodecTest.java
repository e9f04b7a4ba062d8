package io.trimus.egress.dns;

import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.ClientSubnetOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Section;
import org.xbill.DNS.TSIGRecord;
import org.xbill.DNS.Type;

import java.net.InetAddress;
import java.time.Instant;
import java.util.Arrays;

import static io.trimus.egress.dns.DnsTestClient.name;
import static org.assertj.core.api.Assertions.assertThat;

class DnsCodecTest {

    @Test
    void wellFormedQueryParses() {
        Message query = DnsTestClient.ednsQuery("www.example.test", Type.A);

        Message parsed = DnsCodec.parseQuery(query.toWire());

        assertThat(parsed.getQuestion()).isEqualTo(query.getQuestion());
    }

    @Test
    void headerClaimingMoreRecordsThanThePacketCanHoldIsMalformed() {
        byte[] packet = {0x12, 0x34, 0x01, 0x00, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0};

        assertThat(DnsCodec.parseQuery(packet)).isNull();
    }

    @Test
    void queryCutShortIsMalformedEvenWithTcSet() {
        Message query = DnsTestClient.ednsQuery("www.example.test", Type.A);
        byte[] cut = Arrays.copyOf(query.toWire(), query.toWire().length - 3);
        byte[] cutWithTc = cut.clone();
        cutWithTc[2] |= 0x02;

        assertThat(DnsCodec.parseQuery(cut)).isNull();
        assertThat(DnsCodec.parseQuery(cutWithTc)).isNull();
    }

    @Test
    void responseIsNoQuery() {
        Message response = DnsCodec.response(DnsTestClient.query("www.example.test", Type.A), Rcode.NOERROR);

        assertThat(DnsCodec.parseQuery(response.toWire())).isNull();
        assertThat(DnsCodec.parseResponse(response.toWire())).isNotNull();
    }

    @Test
    void truncatedUpstreamResponseIsAcceptedSoItCanBeAskedAgainOverTcp() {
        Message response = DnsCodec.response(DnsTestClient.query("www.example.test", Type.A), Rcode.NOERROR);
        response.getHeader().setFlag(Flags.TC);

        assertThat(DnsCodec.parseResponse(response.toWire()).getHeader().getFlag(Flags.TC)).isTrue();
    }

    @Test
    void upstreamQueryCarriesOnlyTheQuestionAndTrimususOwnEdns() throws Exception {
        Message query = DnsCodec.upstreamQuery(4242, name("www.example.test"), Type.AAAA);

        assertThat(query.getHeader().getID()).isEqualTo(4242);
        assertThat(query.getHeader().getFlag(Flags.RD)).isTrue();
        assertThat(query.getSection(Section.QUESTION)).hasSize(1);
        assertThat(query.getSection(Section.ANSWER)).isEmpty();
        assertThat(query.getSection(Section.AUTHORITY)).isEmpty();
        assertThat(query.getOPT().getPayloadSize()).isEqualTo(1232);
        assertThat(query.getOPT().getOptions()).isEmpty();
    }

    @Test
    void answerTakesTheUpstreamsRecordsButNotItsEdnsOrSignatures() throws Exception {
        Message query = DnsTestClient.query("www.example.test", Type.A);
        Message upstream = new Message(999);
        upstream.getHeader().setRcode(Rcode.NOERROR);
        upstream.addRecord(new ARecord(name("www.example.test"), DClass.IN, 60, InetAddress.getByName("192.0.2.1")),
                Section.ANSWER);
        upstream.addRecord(new OPTRecord(4096, 0, 0, 0,
                        new ClientSubnetOption(24, InetAddress.getByName("198.51.100.0"))),
                Section.ADDITIONAL);
        upstream.addRecord(new TSIGRecord(name("key.example.test"), DClass.ANY, 0, name("hmac-sha256."),
                Instant.now(), java.time.Duration.ofMinutes(5), new byte[32], 999, 0, null), Section.ADDITIONAL);

        Message answer = DnsCodec.answer(query, upstream);

        assertThat(answer.getHeader().getID()).isEqualTo(query.getHeader().getID());
        assertThat(answer.getHeader().getFlag(Flags.RA)).isTrue();
        assertThat(answer.getQuestion()).isEqualTo(query.getQuestion());
        assertThat(answer.getSection(Section.ANSWER)).hasSize(1);
        assertThat(answer.getSection(Section.ADDITIONAL)).isEmpty();
    }

    @Test
    void clientWithoutEdnsGets512BytesAndOneWithEdnsAtMost1232() {
        assertThat(DnsCodec.udpLimit(DnsTestClient.query("a.test", Type.A))).isEqualTo(512);
        assertThat(DnsCodec.udpLimit(DnsTestClient.ednsQuery("a.test", Type.A))).isEqualTo(1232);
        Message huge = DnsTestClient.query("a.test", Type.A);
        huge.addRecord(new OPTRecord(65000, 0, 0), Section.ADDITIONAL);
        Message tiny = DnsTestClient.query("a.test", Type.A);
        tiny.addRecord(new OPTRecord(100, 0, 0), Section.ADDITIONAL);
        assertThat(DnsCodec.udpLimit(huge)).isEqualTo(1232);
        assertThat(DnsCodec.udpLimit(tiny)).isEqualTo(512);
    }
}
