package io.trimus.egress.dns;

import io.netty.buffer.ByteBuf;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.tunnelling.TunnellingWatch;
import org.jboss.logging.Logger;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Type;

import java.net.InetAddress;

/**
 * The resolver's hot path for UDP: answers the queries that need only their header and their one question — every
 * denial and every name steered to the egress proxy — straight from the packet's buffer into the answer's, without
 * dnsjava and (nearly) without allocating. It decides with the same {@link QueryPolicy}, charges the same
 * {@link SourceQueryBudget}, counts the same metrics and reports the same anomalies as {@link DnsQueryHandler}, and
 * its answers are byte for byte those of {@link DnsCodec#response} and {@link DnsCodec#steered}: the header patched
 * (QR, RA, the query's id and RD, the rcode), the question copied as the client sent it, for a steered A question
 * one A record whose name points at the question's, and the resolver's own EDNS OPT record when the query had one.
 *
 * <p>A packet it does not fully understand ({@link WireQuery}), or an allowed name while there is no proxy to steer
 * to, is left untouched and uncounted for the dnsjava path. One instance per event loop: it is not thread-safe.
 */
public final class InPlaceAnswers {
    private static final Logger LOG = Logger.getLogger(InPlaceAnswers.class);
    private static final int FLAG_QR = 0x8000;
    private static final int FLAG_RD = 0x0100;
    private static final int FLAG_RA = 0x0080;
    private static final int POINTER_TO_QUESTION = 0xC000 | WireQuery.HEADER_LENGTH;
    private static final String[] TYPE_NAMES = new String[1024];

    static {
        for (int type = 0; type < TYPE_NAMES.length; type++) {
            TYPE_NAMES[type] = Type.string(type);
        }
    }

    private final QueryPolicy policy;
    private final AnomalyRecorder anomalies;
    private final DnsMetrics metrics;
    private final SourceQueryBudget budget;
    private final DnsQueryHandler.Steering steering;
    private final byte[] proxyAddress;
    private final WireQuery query = new WireQuery();
    private final TunnellingWatch tunnelling;

    InPlaceAnswers(QueryPolicy policy, AnomalyRecorder anomalies, DnsMetrics metrics, SourceQueryBudget budget,
                   DnsQueryHandler.Steering steering, TunnellingWatch tunnelling) {
        this.tunnelling = tunnelling;
        this.policy = policy;
        this.anomalies = anomalies;
        this.metrics = metrics;
        this.budget = budget;
        this.steering = steering;
        this.proxyAddress = steering == null ? null : steering.proxy().getAddress();
    }

    /**
     * Writes the answer to the UDP query in {@code packet} (between its reader and writer index, which do not move)
     * from {@code source} into {@code out} and returns true; returns false, having done and counted nothing, when the
     * packet is for {@link DnsQueryHandler#handle}.
     */
    public boolean answer(ByteBuf packet, InetAddress source, ByteBuf out) {
        long start = System.nanoTime();
        if (!query.read(packet)) {
            return false;
        }
        Sandbox sandbox = policy.sandboxAt(source);
        Verdict verdict = policy.verdict(sandbox, query.name(), query.type());
        boolean resolved = verdict.answered();
        if (resolved && steering == null) {
            return false;
        }
        if (!budget.tryAcquire(source)) {
            metrics.counted(Verdict.RATE_LIMITED);
            write(packet, out, Verdict.RATE_LIMITED.rcode(), false);
        } else {
            verdict = DnsQueryHandler.watched(tunnelling, sandbox, query.name(), query.type(), typeName(query.type()),
                    verdict);
            metrics.counted(verdict);
            report(sandbox, source, verdict);
            write(packet, out, verdict.rcode(), verdict.answered() && query.type() == Type.A);
        }
        metrics.answered(start);
        return true;
    }

    private void report(Sandbox sandbox, InetAddress source, Verdict verdict) {
        String reason = verdict.anomalyReason();
        if (reason == null) {
            return;
        }
        try {
            anomalies.record(sandbox, source, query.name(), typeName(query.type()), reason,
                    verdict.enforced());
        } catch (RuntimeException e) {
            // The answer matters more than the report; the recorder logs its own failures.
            LOG.debugf(e, "could not record a %s anomaly", reason);
        }
    }

    private void write(ByteBuf packet, ByteBuf out, int rcode, boolean steeredAddress) {
        out.writeShort(query.id());
        out.writeShort(FLAG_QR | (query.recursionDesired() ? FLAG_RD : 0) | FLAG_RA | rcode);
        out.writeShort(1);
        out.writeShort(steeredAddress ? 1 : 0);
        out.writeShort(0);
        out.writeShort(query.edns() ? 1 : 0);
        out.writeBytes(packet, packet.readerIndex() + WireQuery.HEADER_LENGTH, query.questionLength());
        if (steeredAddress) {
            out.writeShort(POINTER_TO_QUESTION);
            out.writeShort(Type.A);
            out.writeShort(DClass.IN);
            out.writeInt((int) steering.ttl());
            out.writeShort(proxyAddress.length);
            out.writeBytes(proxyAddress);
        }
        if (query.edns()) {
            // What DnsCodec.response adds: new OPTRecord(EDNS_UDP_PAYLOAD, 0, 0) at the root, no options.
            out.writeByte(0);
            out.writeShort(Type.OPT);
            out.writeShort(DnsCodec.EDNS_UDP_PAYLOAD);
            out.writeInt(0);
            out.writeShort(0);
        }
    }

    static String typeName(int type) {
        return type < TYPE_NAMES.length ? TYPE_NAMES[type] : Type.string(type);
    }
}
