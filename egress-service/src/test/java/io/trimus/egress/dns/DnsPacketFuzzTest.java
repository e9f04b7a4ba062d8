package io.trimus.egress.dns;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random packets straight into the packet handler (over UDP as the listener does: in place first, see
 * {@link InPlaceAnswers}): random bytes, and valid queries truncated, bit-flipped,
 * overwritten and spliced. Whatever comes in, no exception escapes, garbage gets no answer and never reaches the
 * upstream, and everything that does reach it is an allowed question from a registered sandbox.
 */
class DnsPacketFuzzTest {
    /** Change it to explore; a failure message names the packet index under this seed. */
    private static final long SEED = 0x7E57_D25L;
    private static final int RANDOM_PACKETS = 60_000;
    private static final int MUTATED_PACKETS = 60_000;
    private static final Set<Integer> RESOLVABLE = Set.of(Type.A, Type.AAAA, Type.CNAME);

    private static final InetAddress LOCALHOST = address(127, 0, 0, 1);
    private static final InetAddress OTHER = address(127, 0, 0, 2);

    private final List<Name> forwarded = new ArrayList<>();
    private final List<Integer> forwardedTypes = new ArrayList<>();
    private final ResolverFixture resolver = new ResolverFixture(this::recordingUpstream,
            List.of("allowed.example.test", "*.cdn.example.test"), List.of("other.example.test"));
    private final InPlaceAnswers inPlace = resolver.handler.inPlace();
    private final ByteBuf out = Unpooled.buffer(512);

    @Test
    void randomBytesNeverReachTheUpstreamAndAreCountedAsMalformed() {
        Random random = new Random(SEED);
        int malformed = 0;
        for (int i = 0; i < RANDOM_PACKETS; i++) {
            byte[] packet = randomBytes(random);
            if (feed(i, packet, random)) {
                malformed++;
            }
        }

        assertThat(forwarded).as("names forwarded from random bytes").isEmpty();
        assertThat(malformed).isGreaterThan(RANDOM_PACKETS * 99 / 100);
        assertThat(resolver.metrics.malformed()).isEqualTo(malformed);
        assertThat(resolver.metrics.errors()).isZero();
    }

    @Test
    void mutatedQueriesNeverEscapeAndOnlyAllowedQuestionsReachTheUpstream() throws Exception {
        Random random = new Random(SEED + 1);
        List<byte[]> seeds = validQueries();
        int malformed = 0;
        for (int i = 0; i < MUTATED_PACKETS; i++) {
            byte[] packet = mutate(seeds.get(random.nextInt(seeds.size())), random);
            if (feed(i, packet, random)) {
                malformed++;
            }
        }

        assertThat(resolver.metrics.malformed()).isEqualTo(malformed);
        assertThat(malformed).as("mutations that broke the packet").isGreaterThan(MUTATED_PACKETS / 4);
        assertThat(forwarded).as("mutations that stayed allowed questions").isNotEmpty();
        for (int i = 0; i < forwarded.size(); i++) {
            String name = forwarded.get(i).toString(true);
            assertThat(resolver.allowlists.allows(ResolverFixture.COMPANY_A, name))
                    .as("forwarded %s", name).isTrue();
            assertThat(RESOLVABLE).as("type of forwarded %s", name).contains(forwardedTypes.get(i));
        }
        assertThat(resolver.metrics.errors()).isZero();
    }

    /** Feeds one packet and checks the handler's contract; true when the packet was garbage. */
    private boolean feed(int index, byte[] packet, Random random) {
        String source = random.nextInt(4) == 0 ? "127.0.0.2" : "127.0.0.1";
        DnsQueryHandler.Transport transport = random.nextBoolean()
                ? DnsQueryHandler.Transport.UDP : DnsQueryHandler.Transport.TCP;
        boolean garbage = DnsCodec.parseQuery(packet) == null;
        int before = forwarded.size();

        Future<byte[]> result = transport == DnsQueryHandler.Transport.UDP ? answerUdp(source, packet)
                : resolver.handler.handle(source, packet, transport);

        // Plain checks, not AssertJ: this runs 120,000 times.
        Supplier<String> what = () -> "packet " + index + " from " + source + " over " + transport + ": "
                + Arrays.toString(packet);
        check(result.succeeded(), what, "the handler's future failed");
        byte[] answer = result.result();
        if (garbage) {
            check(answer == null, what, "garbage was answered");
            check(forwarded.size() == before, what, "garbage reached the upstream");
            return true;
        }
        check(source.equals("127.0.0.1") || forwarded.size() == before, what,
                "a query from an unknown source reached the upstream");
        check(answer != null, what, "a well-formed query got no answer");
        Message response = DnsTestClient.parse(answer);
        check(response.getHeader().getFlag(Flags.QR), what, "the answer is no response");
        check(response.getHeader().getID() == (((packet[0] & 0xFF) << 8) | (packet[1] & 0xFF)), what,
                "the answer's id is not the query's");
        check(transport == DnsQueryHandler.Transport.TCP || answer.length <= DnsCodec.EDNS_UDP_PAYLOAD, what,
                "a UDP answer is larger than 1232 bytes");
        return false;
    }

    /** As the UDP listener answers: in place when it can, else through the handler. */
    private Future<byte[]> answerUdp(String source, byte[] packet) {
        out.clear();
        InetAddress sender = source.equals("127.0.0.1") ? LOCALHOST : OTHER;
        if (inPlace.answer(Unpooled.wrappedBuffer(packet), sender, out)) {
            return Future.succeededFuture(ByteBufUtil.getBytes(out));
        }
        return resolver.handler.handle(source, packet, DnsQueryHandler.Transport.UDP);
    }

    private static void check(boolean holds, Supplier<String> what, String violation) {
        if (!holds) {
            throw new AssertionError(violation + ": " + what.get());
        }
    }

    private Future<Message> recordingUpstream(Name name, int type) {
        forwarded.add(name);
        forwardedTypes.add(type);
        Message answer = new Message(1);
        answer.getHeader().setFlag(Flags.QR);
        answer.addRecord(Record.newRecord(name, type, DClass.IN), Section.QUESTION);
        if (type == Type.A) {
            answer.addRecord(new ARecord(name, DClass.IN, 60, new byte[] {(byte) 192, 0, 2, 1}), Section.ANSWER);
        }
        return Future.succeededFuture(answer);
    }

    private static InetAddress address(int... octets) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) octets[0], (byte) octets[1], (byte) octets[2],
                    (byte) octets[3]});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] randomBytes(Random random) {
        int length = switch (random.nextInt(10)) {
            case 0 -> random.nextInt(12);
            case 1 -> 512 + random.nextInt(4096);
            default -> 12 + random.nextInt(300);
        };
        byte[] packet = new byte[length];
        random.nextBytes(packet);
        return packet;
    }

    /** One to three random mutations of {@code seed} (a copy). */
    static byte[] mutate(byte[] seed, Random random) {
        byte[] packet = seed.clone();
        int rounds = 1 + random.nextInt(3);
        for (int round = 0; round < rounds; round++) {
            packet = switch (random.nextInt(7)) {
                case 0 -> Arrays.copyOf(packet, random.nextInt(packet.length + 1)); // truncate
                case 1 -> flipBits(packet, random);
                case 2 -> overwrite(packet, random);
                case 3 -> insert(packet, random);
                case 4 -> counts(packet, random);
                case 5 -> selfPointer(packet, random);
                default -> append(packet, random);
            };
        }
        return packet;
    }

    private static byte[] flipBits(byte[] packet, Random random) {
        if (packet.length > 0) {
            for (int n = 1 + random.nextInt(8); n > 0; n--) {
                packet[random.nextInt(packet.length)] ^= (byte) (1 << random.nextInt(8));
            }
        }
        return packet;
    }

    private static byte[] overwrite(byte[] packet, Random random) {
        if (packet.length > 0) {
            for (int n = 1 + random.nextInt(4); n > 0; n--) {
                packet[random.nextInt(packet.length)] = (byte) random.nextInt(256);
            }
        }
        return packet;
    }

    private static byte[] insert(byte[] packet, Random random) {
        int at = random.nextInt(packet.length + 1);
        byte[] extra = new byte[1 + random.nextInt(16)];
        random.nextBytes(extra);
        byte[] longer = new byte[packet.length + extra.length];
        System.arraycopy(packet, 0, longer, 0, at);
        System.arraycopy(extra, 0, longer, at, extra.length);
        System.arraycopy(packet, at, longer, at + extra.length, packet.length - at);
        return longer;
    }

    /** Header counts that lie: more or fewer records than the packet holds. */
    private static byte[] counts(byte[] packet, Random random) {
        if (packet.length >= 12) {
            int field = 4 + 2 * random.nextInt(4);
            int value = random.nextBoolean() ? random.nextInt(4) : random.nextInt(0x10000);
            packet[field] = (byte) (value >> 8);
            packet[field + 1] = (byte) value;
        }
        return packet;
    }

    /** A compression pointer to itself or to an earlier pointer: a loop a careless parser follows forever. */
    private static byte[] selfPointer(byte[] packet, Random random) {
        if (packet.length >= 14) {
            int at = 12 + random.nextInt(packet.length - 13);
            int target = random.nextBoolean() ? at : 12;
            packet[at] = (byte) (0xC0 | (target >> 8));
            packet[at + 1] = (byte) target;
        }
        return packet;
    }

    private static byte[] append(byte[] packet, Random random) {
        byte[] extra = new byte[1 + random.nextInt(64)];
        random.nextBytes(extra);
        byte[] longer = Arrays.copyOf(packet, packet.length + extra.length);
        System.arraycopy(extra, 0, longer, packet.length, extra.length);
        return longer;
    }

    private static List<byte[]> validQueries() throws Exception {
        List<Message> queries = new ArrayList<>();
        queries.add(DnsTestClient.query("allowed.example.test", Type.A));
        queries.add(DnsTestClient.query("allowed.example.test", Type.AAAA));
        queries.add(DnsTestClient.query("allowed.example.test", Type.TXT));
        queries.add(DnsTestClient.query("x.cdn.example.test", Type.CNAME));
        queries.add(DnsTestClient.query("denied.example.test", Type.A));
        queries.add(DnsTestClient.query("other.example.test", Type.A));
        queries.add(DnsTestClient.query(QueryPolicy.DOH_CANARY, Type.A));
        queries.add(DnsTestClient.ednsQuery("allowed.example.test", Type.A));
        Message sections = DnsTestClient.ednsQuery("allowed.example.test", Type.A);
        sections.addRecord(new ARecord(DnsTestClient.name("allowed.example.test"), DClass.IN, 60,
                InetAddress.getByName("203.0.113.1")), Section.ANSWER);
        sections.addRecord(new ARecord(DnsTestClient.name("smuggled.example.test"), DClass.IN, 60,
                InetAddress.getByName("203.0.113.2")), Section.ADDITIONAL);
        queries.add(sections);
        Message two = DnsTestClient.query("allowed.example.test", Type.A);
        two.addRecord(Record.newRecord(DnsTestClient.name("denied.example.test"), Type.A, DClass.IN),
                Section.QUESTION);
        queries.add(two);
        Message bigEdns = DnsTestClient.query("allowed.example.test", Type.A);
        bigEdns.addRecord(new OPTRecord(65535, 0, 0), Section.ADDITIONAL);
        queries.add(bigEdns);
        return queries.stream().map(Message::toWire).toList();
    }
}
