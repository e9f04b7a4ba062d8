package io.trimus.egress.proxy.admission;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Real TLS ClientHellos for the proxy tests, made by the JDK's own TLS client ({@link SSLEngine}), and the edits an
 * attacker would make to one: another extension (Encrypted Client Hello), the handshake re-cut into several records.
 */
public final class ClientHellos {
    /** The encrypted_client_hello extension's code point. */
    public static final int ECH = 0xfe0d;

    private ClientHellos() {
    }

    /** The first flight of a JDK client speaking {@code protocol} that names {@code serverName} (none when null). */
    public static byte[] jdk(String serverName, String protocol) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(true);
        engine.setEnabledProtocols(new String[] {protocol});
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
        engine.setSSLParameters(parameters);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }

    /**
     * The same single-record ClientHello with one more extension at the end of its extensions, every length that
     * encloses it grown to match.
     */
    public static byte[] withExtension(byte[] record, int type, byte[] data) {
        int body = 5 + 4;
        int offset = body + 34;
        offset += (record[offset] & 0xff) + 1;
        offset += unsignedShort(record, offset) + 2;
        offset += (record[offset] & 0xff) + 1;
        int extensionsLength = unsignedShort(record, offset);
        int grown = 4 + data.length;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(record, 0, record.length);
        out.write(type >> 8);
        out.write(type);
        out.write(data.length >> 8);
        out.write(data.length);
        out.write(data, 0, data.length);
        byte[] edited = out.toByteArray();
        putShort(edited, 3, unsignedShort(record, 3) + grown);
        int handshakeLength = (record[6] & 0xff) << 16 | unsignedShort(record, 7);
        edited[6] = (byte) ((handshakeLength + grown) >> 16);
        putShort(edited, 7, (handshakeLength + grown) & 0xffff);
        putShort(edited, offset, extensionsLength + grown);
        return edited;
    }

    /** The handshake of a single-record ClientHello re-cut into records of at most {@code size} bytes each. */
    static byte[] inRecords(byte[] record, int size) {
        byte[] handshake = Arrays.copyOfRange(record, 5, record.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int from = 0; from < handshake.length; from += size) {
            int length = Math.min(size, handshake.length - from);
            out.write(record, 0, 3);
            out.write(length >> 8);
            out.write(length);
            out.write(handshake, from, length);
        }
        return out.toByteArray();
    }

    private static int unsignedShort(byte[] bytes, int offset) {
        return (bytes[offset] & 0xff) << 8 | bytes[offset + 1] & 0xff;
    }

    private static void putShort(byte[] bytes, int offset, int value) {
        bytes[offset] = (byte) (value >> 8);
        bytes[offset + 1] = (byte) value;
    }
}
