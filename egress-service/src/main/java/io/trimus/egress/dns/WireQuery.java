package io.trimus.egress.dns;

import io.netty.buffer.ByteBuf;

/**
 * One UDP query read in place from its buffer, for the answers the resolver writes without dnsjava. It understands
 * only the common shape, and says so: a header of a plain query (QR, TC clear, opcode QUERY, one question, no
 * answer or authority records, at most one additional record), one question of class IN whose name is a plain host
 * name (labels of 1 to 63 letters, digits, {@code _} and {@code -}, not first or last, at most 253 characters
 * dotted, no compression pointer), and an optional EDNS OPT record at the root whose options dnsjava would read
 * without complaint. Anything else is left to the dnsjava path, which then answers exactly as it always has; bytes
 * after the records are ignored, as dnsjava ignores them.
 *
 * <p>Reusable and not thread-safe: each event loop owns one, and {@link #name()} is valid until the next
 * {@link #read}.
 */
final class WireQuery {
    static final int HEADER_LENGTH = 12;
    private static final int MAX_DOTTED_NAME = 253;
    private static final int TYPE_OPT = 41;
    private static final int CLASS_IN = 1;
    private static final int OPTION_CLIENT_SUBNET = 8;
    private static final int OPTION_COOKIE = 10;
    private static final int OPTION_TCP_KEEPALIVE = 11;
    private static final int OPTION_EXTENDED_ERROR = 15;

    private final AsciiName name = new AsciiName(MAX_DOTTED_NAME);
    private int id;
    private boolean recursionDesired;
    private int type;
    private int questionLength;
    private boolean edns;

    /**
     * Reads the query between the buffer's reader and writer indexes (neither moves); false when it is not of the
     * shape this class understands, and then nothing it returned before is valid.
     */
    boolean read(ByteBuf packet) {
        int start = packet.readerIndex();
        int end = packet.writerIndex();
        if (end - start < HEADER_LENGTH + 1 + 4) {
            return false;
        }
        int flags = packet.getUnsignedShort(start + 2);
        // QR, opcode (4 bits) and TC must all be 0
        if ((flags & 0xFA00) != 0 || packet.getUnsignedShort(start + 4) != 1 || packet.getUnsignedShort(start + 6) != 0
                || packet.getUnsignedShort(start + 8) != 0) {
            return false;
        }
        int additional = packet.getUnsignedShort(start + 10);
        if (additional > 1) {
            return false;
        }
        int at = readName(packet, start + HEADER_LENGTH, end);
        if (at < 0 || at + 4 > end || packet.getUnsignedShort(at + 2) != CLASS_IN) {
            return false;
        }
        type = packet.getUnsignedShort(at);
        at += 4;
        questionLength = at - start - HEADER_LENGTH;
        edns = additional == 1;
        if (edns && !readOpt(packet, at, end)) {
            return false;
        }
        id = packet.getUnsignedShort(start);
        recursionDesired = (flags & 0x0100) != 0;
        return true;
    }

    /** The question's name, normalised: lower case, dotted, without the trailing dot. */
    AsciiName name() {
        return name;
    }

    int id() {
        return id;
    }

    boolean recursionDesired() {
        return recursionDesired;
    }

    /** The question's type. */
    int type() {
        return type;
    }

    /** The question's wire length (name, type and class), which starts right after the header. */
    int questionLength() {
        return questionLength;
    }

    /** Whether the query carries an EDNS OPT record. */
    boolean edns() {
        return edns;
    }

    /** Reads a plain name into {@link #name}; the offset after it, or -1. */
    private int readName(ByteBuf packet, int at, int end) {
        name.clear();
        while (at < end) {
            int length = packet.getUnsignedByte(at++);
            if (length == 0) {
                return name.length() == 0 ? -1 : at;
            }
            // 64 and more: a compression pointer or an extended label type, which the dnsjava path reads
            if (length > 63 || at + length > end
                    || name.length() + (name.length() == 0 ? 0 : 1) + length > MAX_DOTTED_NAME) {
                return -1;
            }
            if (name.length() > 0) {
                name.append('.');
            }
            for (int i = 0; i < length; i++) {
                int c = packet.getUnsignedByte(at + i);
                if (c >= 'A' && c <= 'Z') {
                    c += 'a' - 'A';
                } else if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
                        || c == '-' && i != 0 && i != length - 1)) {
                    return -1;
                }
                name.append((char) c);
            }
            at += length;
        }
        return -1;
    }

    /** Whether an OPT record at the root starts at {@code at}, whole, with options dnsjava reads as they are. */
    private static boolean readOpt(ByteBuf packet, int at, int end) {
        if (at + 11 > end || packet.getUnsignedByte(at) != 0 || packet.getUnsignedShort(at + 1) != TYPE_OPT) {
            return false;
        }
        int dataLength = packet.getUnsignedShort(at + 9);
        int option = at + 11;
        int dataEnd = option + dataLength;
        if (dataEnd > end) {
            return false;
        }
        while (option < dataEnd) {
            if (option + 4 > dataEnd) {
                return false;
            }
            int code = packet.getUnsignedShort(option);
            int length = packet.getUnsignedShort(option + 2);
            option += 4 + length;
            if (option > dataEnd || !readableOption(code, length)) {
                return false;
            }
        }
        return true;
    }

    /** Whether dnsjava reads an option of this code and length without an error (its checks, per option code). */
    private static boolean readableOption(int code, int length) {
        return switch (code) {
            case OPTION_CLIENT_SUBNET -> false; // its address and prefix checks are left to dnsjava itself
            case OPTION_COOKIE -> length == 8 || length >= 16 && length <= 40;
            case OPTION_TCP_KEEPALIVE -> length == 0 || length == 2;
            case OPTION_EXTENDED_ERROR -> length >= 2;
            default -> true;
        };
    }
}
