package io.trimus.egress.dns;

import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Header;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.io.IOException;

/**
 * The DNS wire format, by dnsjava only: parses what clients and the upstream send and builds every response the
 * resolver gives. Nothing here decides; a packet that does not parse is reported as null so the caller can drop
 * and count it.
 */
public final class DnsCodec {
    /** Largest DNS message: the TCP length prefix is two bytes. */
    public static final int MAX_MESSAGE = 65535;
    /** UDP answer size for a client without EDNS (RFC 1035). */
    public static final int CLASSIC_UDP_PAYLOAD = 512;
    /** UDP payload Trimus advertises and accepts (the DNS Flag Day 2020 value, safe from IP fragmentation). */
    public static final int EDNS_UDP_PAYLOAD = 1232;

    private static final int[] ANSWER_SECTIONS = {Section.ANSWER, Section.AUTHORITY, Section.ADDITIONAL};

    private DnsCodec() {
    }

    /**
     * A client's query, or null when the packet is not a well-formed DNS query: a response, a query with TC set,
     * or one whose sections do not hold the records its header counts, all count as malformed.
     */
    public static Message parseQuery(byte[] wire) {
        Message message = parse(wire);
        if (message == null) {
            return null;
        }
        Header header = message.getHeader();
        // dnsjava accepts a message cut short when its TC bit is set; a query is never truncated.
        return header.getFlag(Flags.QR) || header.getFlag(Flags.TC) || !complete(message) ? null : message;
    }

    /** An upstream's response, or null when the packet is not a well-formed DNS response (a truncated one is). */
    public static Message parseResponse(byte[] wire) {
        Message message = parse(wire);
        if (message == null || !message.getHeader().getFlag(Flags.QR)) {
            return null;
        }
        return message.getHeader().getFlag(Flags.TC) || complete(message) ? message : null;
    }

    /**
     * Whether the packet is long enough for the records its header counts (a question takes at least 5 bytes, a
     * record at least 11). dnsjava sizes its section lists by those counts before reading a record, so a 12-byte
     * packet claiming 4 × 65535 records would otherwise cost a megabyte of allocation.
     */
    private static boolean countsFit(byte[] wire) {
        long questions = ((wire[4] & 0xFF) << 8) | (wire[5] & 0xFF);
        long records = 0;
        for (int at = 6; at < Header.LENGTH; at += 2) {
            records += ((wire[at] & 0xFF) << 8) | (wire[at + 1] & 0xFF);
        }
        return Header.LENGTH + 5 * questions + 11 * records <= wire.length;
    }

    private static boolean complete(Message message) {
        for (int section = Section.QUESTION; section <= Section.ADDITIONAL; section++) {
            if (message.getSection(section).size() != message.getHeader().getCount(section)) {
                return false;
            }
        }
        return true;
    }

    private static Message parse(byte[] wire) {
        if (wire == null || wire.length < Header.LENGTH || wire.length > MAX_MESSAGE || !countsFit(wire)) {
            return null;
        }
        try {
            return new Message(wire);
        } catch (IOException | RuntimeException malformed) {
            // dnsjava reports most damage as WireParseException; a few record parsers throw unchecked ones.
            return null;
        }
    }

    /**
     * The query sent upstream for one allowed question: a fresh id, recursion desired, the question and nothing
     * else the client sent; an EDNS OPT record of Trimus's own so the upstream can answer up to 1232 bytes over UDP.
     */
    public static Message upstreamQuery(int id, Name name, int type) {
        Message query = new Message(id);
        query.getHeader().setOpcode(Opcode.QUERY);
        query.getHeader().setFlag(Flags.RD);
        query.addRecord(Record.newRecord(name, type, DClass.IN), Section.QUESTION);
        query.addRecord(new OPTRecord(EDNS_UDP_PAYLOAD, 0, 0), Section.ADDITIONAL);
        return query;
    }

    /** A response with no records: the query's id, question and RD echoed, RA set, and {@code rcode}. */
    public static Message response(Message query, int rcode) {
        Header queryHeader = query.getHeader();
        Message response = new Message(queryHeader.getID());
        Header header = response.getHeader();
        header.setFlag(Flags.QR);
        header.setOpcode(queryHeader.getOpcode());
        if (queryHeader.getFlag(Flags.RD)) {
            header.setFlag(Flags.RD);
        }
        header.setFlag(Flags.RA);
        header.setRcode(rcode);
        for (Record question : query.getSection(Section.QUESTION)) {
            response.addRecord(question, Section.QUESTION);
        }
        if (query.getOPT() != null) {
            response.addRecord(new OPTRecord(EDNS_UDP_PAYLOAD, 0, 0), Section.ADDITIONAL);
        }
        return response;
    }

    /**
     * The client's answer built from an upstream (or cached) answer: the upstream's rcode and records, the client's
     * id, question and RD; the upstream's EDNS and signature records stay behind.
     */
    public static Message answer(Message query, Message upstream) {
        int rcode = upstream.getRcode();
        // An extended rcode (BADVERS …) belongs to the upstream's EDNS exchange, not to the client's.
        Message response = response(query, rcode > 0xF ? Rcode.SERVFAIL : rcode);
        for (int section : ANSWER_SECTIONS) {
            for (Record record : upstream.getSection(section)) {
                int type = record.getType();
                if (type != Type.OPT && type != Type.TSIG && type != Type.SIG) {
                    response.addRecord(record, section);
                }
            }
        }
        return response;
    }

    /**
     * The answer that steers an allowed name to the egress proxy: for an A question, one A record of the proxy's
     * address with the question's name (as the client spelled it) and {@code ttl}; for AAAA and CNAME, NOERROR with no
     * records (the proxy is reached over IPv4 only, and the name is answered as it was asked).
     */
    public static Message steered(Message query, java.net.Inet4Address proxy, long ttl) {
        Message response = response(query, Rcode.NOERROR);
        Record question = query.getQuestion();
        if (question != null && question.getType() == Type.A) {
            response.addRecord(new org.xbill.DNS.ARecord(question.getName(), DClass.IN, ttl, proxy), Section.ANSWER);
        }
        return response;
    }

    /** SERVFAIL for the query: what a client gets when the upstream did not answer in time. */
    public static Message servfail(Message query) {
        return response(query, Rcode.SERVFAIL);
    }

    /** The largest UDP answer the client accepts: its EDNS payload size within [512, 1232], else 512. */
    public static int udpLimit(Message query) {
        OPTRecord opt = query.getOPT();
        if (opt == null) {
            return CLASSIC_UDP_PAYLOAD;
        }
        return Math.max(CLASSIC_UDP_PAYLOAD, Math.min(EDNS_UDP_PAYLOAD, opt.getPayloadSize()));
    }

    /** The response's wire form within {@code maxLength} bytes; dnsjava drops what does not fit and sets TC. */
    public static byte[] toWire(Message response, int maxLength) {
        return response.toWire(maxLength);
    }
}
