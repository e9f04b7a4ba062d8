package io.trimus.adapter.support;

import io.trimus.events.ResolverCheck;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Section;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;

/**
 * A real UDP DNS server on 127.0.0.1 standing in for the Trimus resolver's side of the adapter's resolver check:
 * answers {@link ResolverCheck#NAME} NOERROR (as the Trimus resolver does), every other name NXDOMAIN, or stays silent
 * when told to, so a test can prove a sandbox never starts behind a resolver that does not answer.
 */
public final class ResolverStandIn implements AutoCloseable {
    /** How the stand-in answers: as Trimus, as a foreign resolver (NXDOMAIN for the check), or not at all. */
    public enum Mode { TRIMUS, FOREIGN, SILENT }

    private static final Name CHECK = Name.fromConstantString(ResolverCheck.NAME);

    private final DatagramSocket socket;
    private final Thread loop;
    private volatile Mode mode = Mode.TRIMUS;

    private ResolverStandIn() throws SocketException {
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        loop = new Thread(this::serve, "resolver-stand-in");
        loop.setDaemon(true);
        loop.start();
    }

    /** Starts the stand-in on a free loopback port. */
    public static ResolverStandIn start() {
        try {
            return new ResolverStandIn();
        } catch (SocketException e) {
            throw new UncheckedIOException("could not start the resolver stand-in", e);
        }
    }

    /** {@code 127.0.0.1:PORT}, the value of TRIMUS_EGRESS_RESOLVER_CHECK_ADDR. */
    public String address() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    /** Changes how later queries are answered. */
    public void mode(Mode mode) {
        this.mode = mode;
    }

    private void serve() {
        byte[] buffer = new byte[512];
        while (!socket.isClosed()) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
                if (mode == Mode.SILENT) {
                    continue;
                }
                Message query = new Message(java.util.Arrays.copyOf(packet.getData(), packet.getLength()));
                Message answer = new Message(query.getHeader().getID());
                answer.getHeader().setFlag(org.xbill.DNS.Flags.QR);
                answer.addRecord(query.getQuestion(), Section.QUESTION);
                boolean check = query.getQuestion().getName().equals(CHECK);
                answer.getHeader().setRcode(check && mode == Mode.TRIMUS ? Rcode.NOERROR : Rcode.NXDOMAIN);
                byte[] wire = answer.toWire();
                socket.send(new DatagramPacket(wire, wire.length, packet.getSocketAddress()));
            } catch (IOException e) {
                if (socket.isClosed()) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
