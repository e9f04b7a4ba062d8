package io.trimus.egress.dns;

import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TextParseException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A DNS client for tests that controls every byte it sends and the loopback address it sends from, so a test can
 * be a registered sandbox (127.0.0.1) or an unknown source (127.0.0.2).
 */
public final class DnsTestClient {
    /** A registered sandbox's address in the tests. */
    public static final InetAddress SANDBOX = address("127.0.0.1");
    /** An address no sandbox is registered at. */
    public static final InetAddress UNKNOWN = address("127.0.0.2");

    private final int port;
    private final Duration timeout;

    public DnsTestClient(int port, Duration timeout) {
        this.port = port;
        this.timeout = timeout;
    }

    /** A recursive query for one question, without EDNS. */
    public static Message query(String name, int type) {
        Message query = new Message(ThreadLocalRandom.current().nextInt(0x10000));
        query.getHeader().setFlag(Flags.RD);
        query.addRecord(Record.newRecord(name(name), type, DClass.IN), Section.QUESTION);
        return query;
    }

    /** A recursive query for one question, with EDNS and a 1232-byte payload. */
    public static Message ednsQuery(String name, int type) {
        Message query = query(name, type);
        query.addRecord(new OPTRecord(1232, 0, 0), Section.ADDITIONAL);
        return query;
    }

    /** Sends over UDP from {@code from}; the parsed answer, or null when none came within the timeout. */
    public Message udp(InetAddress from, Message query) {
        byte[] answer = udpRaw(from, query.toWire());
        return answer == null ? null : parse(answer);
    }

    /** Sends raw bytes over UDP from {@code from}; the raw answer, or null when none came within the timeout. */
    public byte[] udpRaw(InetAddress from, byte[] packet) {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(from, 0))) {
            socket.setSoTimeout((int) timeout.toMillis());
            socket.send(new DatagramPacket(packet, packet.length, address("127.0.0.1"), port));
            byte[] buffer = new byte[65535];
            DatagramPacket answer = new DatagramPacket(buffer, buffer.length);
            socket.receive(answer);
            return Arrays.copyOf(answer.getData(), answer.getLength());
        } catch (SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends over a new TCP connection from {@code from}; the parsed answer. */
    public Message tcp(InetAddress from, Message query) {
        try (Socket socket = connect(from)) {
            return parse(exchange(socket, query.toWire()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A TCP connection from {@code from}, with the client's timeout on reads. */
    public Socket connect(InetAddress from) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(from, 0));
        socket.connect(new InetSocketAddress(address("127.0.0.1"), port), (int) timeout.toMillis());
        socket.setSoTimeout((int) timeout.toMillis());
        return socket;
    }

    /** Writes one length-framed message and reads one back. */
    public static byte[] exchange(Socket socket, byte[] message) throws IOException {
        write(socket, message);
        return read(socket);
    }

    /** Writes one length-framed message. */
    public static void write(Socket socket, byte[] message) throws IOException {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeShort(message.length);
        out.write(message);
        out.flush();
    }

    /** Reads one length-framed message. */
    public static byte[] read(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] message = new byte[in.readUnsignedShort()];
        in.readFully(message);
        return message;
    }

    /** Parses a DNS message, failing the test when it does not parse. */
    public static Message parse(byte[] wire) {
        try {
            return new Message(wire);
        } catch (IOException e) {
            throw new AssertionError("the resolver sent a message that does not parse", e);
        }
    }

    static Name name(String text) {
        try {
            return Name.fromString(text, Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (IOException e) {
            throw new IllegalArgumentException(ip, e);
        }
    }
}
