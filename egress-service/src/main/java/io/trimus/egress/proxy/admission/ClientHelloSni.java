package io.trimus.egress.proxy.admission;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads the server name (SNI) of a TLS ClientHello from the first bytes a client sends into a tunnel, without
 * terminating TLS, and whether it offers Encrypted Client Hello. Incremental: each read is fed once and every byte is
 * looked at once, so a ClientHello trickled a byte at a time costs what one read of it would (the previous parser
 * read everything again on every read); at most {@value #MAX_CLIENT_HELLO_BYTES} bytes are kept. Its verdicts are
 * those of Netty's {@code AbstractSniHandler}, which it replaces (records of one handshake aggregated, the first
 * server name entry taken, lower-cased), except that Netty could refuse a ClientHello split over several records
 * depending on where the reads ended, while this one waits for the rest.
 */
public final class ClientHelloSni {
    /** A ClientHello longer than this is not waited for (real ones, post-quantum key shares included, are ~2 KiB). */
    public static final int MAX_CLIENT_HELLO_BYTES = 16 * 1024;

    private static final int TLS_HANDSHAKE = 22;
    private static final int TLS_MAJOR_VERSION = 3;
    private static final int RECORD_HEADER = 5;
    private static final int CLIENT_HELLO = 1;
    private static final int EXTENSION_SERVER_NAME = 0;
    /** encrypted_client_hello (RFC 9849 and the drafts it grew from, 0xfe0d since draft 13). */
    private static final int EXTENSION_ECH = 0xfe0d;
    /** encrypted_server_name, the ECH's predecessor (ESNI drafts). */
    private static final int EXTENSION_ESNI = 0xffce;

    /** What the first bytes say. */
    public sealed interface Result {
    }

    /** The ClientHello is not complete yet. */
    public record NeedMore() implements Result {
    }

    /** The bytes are no TLS handshake. */
    public record NotTls() implements Result {
    }

    /**
     * A complete ClientHello; {@code serverName} is null when it names none (or is not well-formed), and
     * {@code encryptedClientHello} says it offers ECH, whose inner, real server name the proxy cannot see.
     */
    public record Hello(String serverName, boolean encryptedClientHello) implements Result {
        Hello(String serverName) {
            this(serverName, false);
        }
    }

    private static final Result NEED_MORE = new NeedMore();

    private final byte[] header = new byte[RECORD_HEADER];
    private int headerFill;
    private int records;
    private int recordLength;
    private int recordFill;
    /** The first record's content until its handshake header is known; then the ClientHello body. */
    private byte[] handshake;
    private int handshakeFill;
    private int handshakeLength = -1;
    private int seen;
    private long examined;
    private Result verdict;

    /** Inspects everything a client sent so far, from its first byte, at once. */
    public static Result inspect(byte[] firstBytes) {
        return new ClientHelloSni().feed(Buffer.buffer(firstBytes));
    }

    /** Reads the next bytes the client sent; the verdict once there is one, and the same verdict ever after. */
    public Result feed(Buffer data) {
        int i = 0;
        int end = data.length();
        while (verdict == null && i < end) {
            i = step(data, i, end);
        }
        seen += i;
        if (verdict != null) {
            return verdict;
        }
        return seen >= MAX_CLIENT_HELLO_BYTES ? decide(new NotTls()) : NEED_MORE;
    }

    /** How many bytes this reader has looked at, for a test that it is linear. */
    long examined() {
        return examined;
    }

    /** Consumes from {@code data[i..end)} up to the end of a record header or record; returns the next index. */
    private int step(Buffer data, int i, int end) {
        if (headerFill < RECORD_HEADER) {
            int b = data.getByte(i) & 0xff;
            examined++;
            header[headerFill++] = (byte) b;
            if (records == 0 && headerFill == 1 && b != TLS_HANDSHAKE
                    || records == 0 && headerFill == 2 && b != TLS_MAJOR_VERSION) {
                decide(new NotTls());
            } else if (headerFill == RECORD_HEADER) {
                recordHeaderRead();
            }
            return i + 1;
        }
        int take = Math.min(end - i, recordLength - recordFill);
        examined += take;
        appendToHandshake(data, i, take);
        recordFill += take;
        if (recordFill == recordLength) {
            recordRead();
        }
        return i + take;
    }

    private void recordHeaderRead() {
        int type = header[0] & 0xff;
        int major = header[1] & 0xff;
        recordLength = (header[3] & 0xff) << 8 | header[4] & 0xff;
        recordFill = 0;
        if (type != TLS_HANDSHAKE || major != TLS_MAJOR_VERSION || recordLength == 0) {
            // a later record of another kind, or an empty one: no ClientHello that can be read
            decide(new Hello(null));
        } else if (records == 0) {
            handshake = new byte[Math.min(recordLength, MAX_CLIENT_HELLO_BYTES)];
        }
    }

    private void appendToHandshake(Buffer data, int from, int length) {
        int room = handshake.length - handshakeFill;
        int copied = Math.min(room, length);
        data.getBytes(from, from + copied, handshake, handshakeFill);
        handshakeFill += copied;
    }

    /** A whole record is in: the first one says how long the ClientHello is; then wait for all of it. */
    private void recordRead() {
        records++;
        headerFill = 0;
        if (handshakeLength < 0) {
            if (recordLength < 4 || (handshake[0] & 0xff) != CLIENT_HELLO) {
                decide(new Hello(null));
                return;
            }
            handshakeLength = (handshake[1] & 0xff) << 16 | (handshake[2] & 0xff) << 8 | handshake[3] & 0xff;
            if (handshakeLength > MAX_CLIENT_HELLO_BYTES) {
                decide(new NotTls());
                return;
            }
            byte[] body = new byte[handshakeLength];
            int have = Math.min(handshakeFill - 4, handshakeLength);
            System.arraycopy(handshake, 4, body, 0, have);
            handshake = body;
            handshakeFill = have;
        }
        if (handshakeFill >= handshakeLength) {
            decide(parse(handshake, handshakeLength));
        }
    }

    private Result decide(Result result) {
        verdict = result;
        handshake = null;
        return result;
    }

    /** The first server name and the ECH offer of a ClientHello body, read as Netty's AbstractSniHandler reads it. */
    static Hello parse(byte[] body, int length) {
        int offset = 34;  // client version (2) and random (32)
        if (length - offset < 6) {
            return new Hello(null);
        }
        offset += (body[offset] & 0xff) + 1;  // session id
        if (offset + 2 > length) {
            return new Hello(null);
        }
        offset += unsignedShort(body, offset) + 2;  // cipher suites
        if (offset + 1 > length) {
            return new Hello(null);
        }
        offset += (body[offset] & 0xff) + 1;  // compression methods
        if (offset + 2 > length) {
            return new Hello(null);
        }
        int extensionsStart = offset + 2;
        int limit = extensionsStart + unsignedShort(body, offset);
        if (limit > length) {
            return new Hello(null);
        }
        return new Hello(serverName(body, extensionsStart, limit), offersEch(body, extensionsStart, limit));
    }

    private static String serverName(byte[] body, int offset, int limit) {
        while (limit - offset >= 4) {
            int type = unsignedShort(body, offset);
            int extensionLength = unsignedShort(body, offset + 2);
            offset += 4;
            if (limit - offset < extensionLength) {
                return null;
            }
            if (type == EXTENSION_SERVER_NAME) {
                offset += 2;  // the server name list's length
                if (limit - offset < 3 || (body[offset] & 0xff) != 0) {
                    return null;  // too short, or a name type other than host_name
                }
                int nameLength = unsignedShort(body, offset + 1);
                offset += 3;
                if (limit - offset < nameLength) {
                    return null;
                }
                return new String(body, offset, nameLength, StandardCharsets.ISO_8859_1).toLowerCase(Locale.US);
            }
            offset += extensionLength;
        }
        return null;
    }

    private static boolean offersEch(byte[] body, int offset, int limit) {
        while (limit - offset >= 4) {
            int type = unsignedShort(body, offset);
            int extensionLength = unsignedShort(body, offset + 2);
            if (type == EXTENSION_ECH || type == EXTENSION_ESNI) {
                return true;
            }
            offset += 4 + extensionLength;
        }
        return false;
    }

    private static int unsignedShort(byte[] bytes, int offset) {
        return (bytes[offset] & 0xff) << 8 | bytes[offset + 1] & 0xff;
    }
}
