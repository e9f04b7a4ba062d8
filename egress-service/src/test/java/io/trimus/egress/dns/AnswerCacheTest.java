package io.trimus.egress.dns;

import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.trimus.egress.dns.DnsTestClient.name;
import static org.assertj.core.api.Assertions.assertThat;

class AnswerCacheTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AnswerCache cache = new AnswerCache(3, Duration.ofMinutes(5), now::get);

    @Test
    void positiveAnswerIsServedWithTtlsReducedByItsAge() throws Exception {
        cache.put(key("www.example.test"), answer("www.example.test", 120, 300));

        advance(Duration.ofSeconds(7));
        Message served = cache.get(key("www.example.test"));

        assertThat(served.getSection(Section.ANSWER)).extracting(Record::getTTL).containsExactly(113L, 113L);
        assertThat(served.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(cache.hits()).isEqualTo(1);
    }

    @Test
    void answerExpiresAfterItsSmallestTtl() throws Exception {
        cache.put(key("www.example.test"), answer("www.example.test", 120, 300));

        advance(Duration.ofSeconds(119));
        assertThat(cache.get(key("www.example.test"))).isNotNull();
        advance(Duration.ofSeconds(1));
        assertThat(cache.get(key("www.example.test"))).isNull();
        assertThat(cache.misses()).isEqualTo(1);
        assertThat(cache.size()).isZero();
    }

    @Test
    void lifetimeIsCappedByTheMaximumTtl() throws Exception {
        cache.put(key("long.example.test"), answer("long.example.test", 86400));

        advance(Duration.ofMinutes(5));

        assertThat(cache.get(key("long.example.test"))).isNull();
    }

    @Test
    void servedTtlNeverExceedsTheRemainingCacheLifetime() throws Exception {
        cache.put(key("long.example.test"), answer("long.example.test", 86400));

        advance(Duration.ofSeconds(100));

        assertThat(cache.get(key("long.example.test")).getSection(Section.ANSWER).get(0).getTTL()).isEqualTo(200);
    }

    @Test
    void negativeAnswerLivesForTheSoaNegativeTtl() throws Exception {
        Message nxdomain = negative(Rcode.NXDOMAIN, 3600, 30);
        cache.put(key("gone.example.test"), nxdomain);

        advance(Duration.ofSeconds(29));
        Message served = cache.get(key("gone.example.test"));
        assertThat(served.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(served.getSection(Section.AUTHORITY).get(0).getTTL()).isEqualTo(1);
        advance(Duration.ofSeconds(1));
        assertThat(cache.get(key("gone.example.test"))).isNull();
    }

    @Test
    void negativeTtlIsTheSmallerOfSoaTtlAndMinimum() throws Exception {
        assertThat(AnswerCache.cacheTtl(negative(Rcode.NOERROR, 20, 900))).isEqualTo(20);
        assertThat(AnswerCache.cacheTtl(negative(Rcode.NXDOMAIN, 3600, 45))).isEqualTo(45);
    }

    @Test
    void negativeAnswerWithoutSoaIsNotCached() {
        Message nodata = new Message(1);
        nodata.getHeader().setRcode(Rcode.NXDOMAIN);
        cache.put(key("gone.example.test"), nodata);

        assertThat(cache.get(key("gone.example.test"))).isNull();
    }

    @Test
    void failuresAndTruncatedAnswersAreNotCached() throws Exception {
        Message servfail = answer("a.example.test", 300);
        servfail.getHeader().setRcode(Rcode.SERVFAIL);
        Message truncated = answer("b.example.test", 300);
        truncated.getHeader().setFlag(Flags.TC);
        Message zeroTtl = answer("c.example.test", 0);

        cache.put(key("a.example.test"), servfail);
        cache.put(key("b.example.test"), truncated);
        cache.put(key("c.example.test"), zeroTtl);

        assertThat(cache.size()).isZero();
    }

    @Test
    void theCacheNeverHoldsMoreThanItsBound() throws Exception {
        for (int i = 1; i <= 50; i++) {
            String name = i + ".example.test";
            cache.put(key(name), answer(name, 300));
        }

        assertThat(cache.size()).isEqualTo(3);
        long kept = java.util.stream.IntStream.rangeClosed(1, 50)
                .filter(i -> cache.get(key(i + ".example.test")) != null).count();
        assertThat(kept).isEqualTo(3);
    }

    @Test
    void aNameAskedForAgainAndAgainSurvivesAScanOfOneOffNames() throws Exception {
        cache.put(key("hot.example.test"), answer("hot.example.test", 300));
        for (int i = 0; i < 20; i++) {
            cache.get(key("hot.example.test"));
        }

        for (int i = 1; i <= 100; i++) {
            String name = i + ".scan.example.test";
            cache.put(key(name), answer(name, 300));
        }

        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.get(key("hot.example.test"))).isNotNull();
    }

    @Test
    void keyIncludesTheType() throws Exception {
        cache.put(key("www.example.test"), answer("www.example.test", 300));

        assertThat(cache.get(new AnswerCache.Key("www.example.test", Type.AAAA, DClass.IN))).isNull();
    }

    @Test
    void cnameChainIsKeptWhole() throws Exception {
        Message answer = new Message(1);
        answer.addRecord(new CNAMERecord(name("alias.example.test"), DClass.IN, 600, name("www.example.test")),
                Section.ANSWER);
        answer.addRecord(new ARecord(name("www.example.test"), DClass.IN, 60, InetAddress.getByName("192.0.2.1")),
                Section.ANSWER);
        cache.put(key("alias.example.test"), answer);

        advance(Duration.ofSeconds(10));

        assertThat(cache.get(key("alias.example.test")).getSection(Section.ANSWER))
                .extracting(Record::getType, Record::getTTL)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Type.CNAME, 50L),
                        org.assertj.core.groups.Tuple.tuple(Type.A, 50L));
    }

    @Test
    void answerLargerThan4096BytesIsNotKept() throws Exception {
        Message big = answer("big.example.test", 300);
        for (int i = 0; i < 300; i++) {
            big.addRecord(new ARecord(name("big.example.test"), DClass.IN, 300,
                    InetAddress.getByName("198.51." + (i / 250) + "." + (i % 250))), Section.ANSWER);
        }
        Message parsed = new Message(big.toWire());
        Message small = new Message(answer("small.example.test", 300).toWire());

        cache.put(key("big.example.test"), parsed);
        cache.put(key("small.example.test"), small);

        assertThat(parsed.numBytes()).isGreaterThan(4096);
        assertThat(cache.get(key("big.example.test"))).isNull();
        assertThat(cache.get(key("small.example.test"))).isNotNull();
    }

    @Test
    void zeroEntriesTurnsCachingOff() throws Exception {
        AnswerCache off = new AnswerCache(0, Duration.ofMinutes(5), now::get);
        off.put(key("www.example.test"), answer("www.example.test", 300));

        assertThat(off.get(key("www.example.test"))).isNull();
    }

    private void advance(Duration by) {
        now.addAndGet(TimeUnit.NANOSECONDS.convert(by));
    }

    private static AnswerCache.Key key(String name) {
        return new AnswerCache.Key(name, Type.A, DClass.IN);
    }

    private static Message answer(String name, long... ttls) throws Exception {
        Message answer = new Message(1);
        answer.getHeader().setFlag(Flags.QR);
        int octet = 1;
        for (long ttl : ttls) {
            answer.addRecord(new ARecord(name(name), DClass.IN, ttl, InetAddress.getByName("192.0.2." + octet++)),
                    Section.ANSWER);
        }
        return answer;
    }

    private static Message negative(int rcode, long soaTtl, long minimum) {
        Message answer = new Message(1);
        answer.getHeader().setRcode(rcode);
        answer.addRecord(new SOARecord(name("example.test"), DClass.IN, soaTtl, name("ns.example.test"),
                name("admin.example.test"), 1, 3600, 600, 86400, minimum), Section.AUTHORITY);
        return answer;
    }
}
