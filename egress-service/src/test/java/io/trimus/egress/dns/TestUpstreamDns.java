package io.trimus.egress.dns;

import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.BindException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The test's stand-in for "the internet behind the resolver": a real DNS server on 127.0.0.1 (UDP and TCP on one
 * port, dnsjava for the wire format) serving a tiny zone, and logging every query it receives so a test can prove
 * which names reached the upstream and which never did.
 * <p>
 * Usage: {@code new TestUpstreamDns().a("allowed.example.test", "192.0.2.10").start()}, then {@link #port()},
 * {@link #queriesSeen()} / {@link #namesSeen()}, {@link #close()}. A name may be set to answer truncated (TC, no
 * records) over UDP and fully over TCP ({@link #truncateOverUdp}), or never to answer ({@link #silent}). Names not
 * in the zone get NXDOMAIN; names without records of the asked type get NODATA; both with the zone's SOA, whose
 * minimum is {@link #NEGATIVE_TTL}.
 */
public final class TestUpstreamDns implements AutoCloseable {
    /** Negative-caching TTL of the zone's SOA (RFC 2308). */
    public static final long NEGATIVE_TTL = 60;
    /** TTL of records added without one. */
    public static final long DEFAULT_TTL = 300;
    /** How often a server on reserved sockets checks whether it was closed. */
    private static final int POLL_MILLIS = 100;

    /** One query as the upstream received it. */
    public record SeenQuery(String transport, InetSocketAddress from, Message message) {
        /** The question's name: lower case, no trailing dot. */
        public String name() {
            Record question = message.getQuestion();
            return question == null ? "" : question.getName().toString(true).toLowerCase(Locale.ROOT);
        }

        /** The question's type. */
        public int type() {
            Record question = message.getQuestion();
            return question == null ? -1 : question.getType();
        }
    }

    private final Map<Name, List<Record>> zone = new LinkedHashMap<>();
    private final Set<Name> truncated = new HashSet<>();
    private final Set<Name> silent = new HashSet<>();
    private final List<SeenQuery> seen = new CopyOnWriteArrayList<>();
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final SOARecord soa;
    private final List<Thread> servers = new CopyOnWriteArrayList<>();
    private DatagramSocket udp;
    private ServerSocket tcp;
    private boolean reserved;
    private volatile boolean closed;

    public TestUpstreamDns() {
        Name apex = name("test");
        soa = new SOARecord(apex, DClass.IN, 3600, name("ns.test"), name("hostmaster.test"), 1, 3600, 600, 86400,
                NEGATIVE_TTL);
    }

    /** Adds an A record with {@link #DEFAULT_TTL}. */
    public TestUpstreamDns a(String name, String ip) {
        return a(name, ip, DEFAULT_TTL);
    }

    /** Adds an A record. */
    public TestUpstreamDns a(String name, String ip, long ttl) {
        return add(new ARecord(name(name), DClass.IN, ttl, address(ip)));
    }

    /** Adds an AAAA record. */
    public TestUpstreamDns aaaa(String name, String ip, long ttl) {
        return add(new AAAARecord(name(name), DClass.IN, ttl, address(ip)));
    }

    /** Adds a CNAME record; the server follows it within its zone, as a recursive resolver would. */
    public TestUpstreamDns cname(String name, String target, long ttl) {
        return add(new CNAMERecord(name(name), DClass.IN, ttl, name(target)));
    }

    /** Adds a TXT record (a type the Trimus resolver must never ask for). */
    public TestUpstreamDns txt(String name, String text) {
        return add(new TXTRecord(name(name), DClass.IN, DEFAULT_TTL, text));
    }

    /** Adds any record. */
    public TestUpstreamDns add(Record record) {
        zone.computeIfAbsent(record.getName(), n -> new ArrayList<>()).add(record);
        return this;
    }

    /** Over UDP, answers {@code name} with TC set and no records; over TCP, in full. */
    public TestUpstreamDns truncateOverUdp(String name) {
        truncated.add(name(name));
        return this;
    }

    /** Never answers {@code name} (logs the query all the same). */
    public TestUpstreamDns silent(String name) {
        silent.add(name(name));
        return this;
    }

    /** Starts on 127.0.0.1, UDP and TCP on one free port. */
    public TestUpstreamDns start() {
        Object[] both = bindBoth();
        return start((DatagramSocket) both[0], (ServerSocket) both[1]);
    }

    /**
     * Binds UDP and TCP on one free loopback port now and keeps both sockets for the whole test JVM, for a server
     * whose address must be in a service's configuration before the test class that serves it runs: the port is
     * never released between being chosen and being served, so nothing else can take it. The sockets are kept by
     * {@link Reserved} as loaded by the system class loader (the test resource and the test class may run in
     * different Quarkus class loaders; the sockets are JDK types, so both can use them); each
     * {@link #startReserved()} serves them until its {@link #close()}, which leaves them bound for the next one.
     *
     * @return the reserved port
     */
    public static int reserve() {
        return ((DatagramSocket) reservedSockets(true)[0]).getLocalPort();
    }

    /** Serves the sockets {@link #reserve()} holds; fails when none were reserved. */
    public TestUpstreamDns startReserved() {
        Object[] held = reservedSockets(false);
        if (held == null) {
            throw new IllegalStateException("no upstream DNS port was reserved: call TestUpstreamDns.reserve() in the"
                    + " test resource that configures the service");
        }
        reserved = true;
        try {
            ((DatagramSocket) held[0]).setSoTimeout(POLL_MILLIS);
            ((ServerSocket) held[1]).setSoTimeout(POLL_MILLIS);
        } catch (IOException e) {
            throw new IllegalStateException("cannot use the reserved upstream DNS sockets", e);
        }
        return start((DatagramSocket) held[0], (ServerSocket) held[1]);
    }

    /**
     * The one holder of the reserved sockets in this JVM: always reached through the system class loader's copy of
     * this class, whichever class loader the caller's copy of {@link TestUpstreamDns} came from.
     */
    public static final class Reserved {
        private static Object[] sockets;

        private Reserved() {
        }

        /** The reserved UDP and TCP sockets, bound first when {@code bind} and none are held; else null. */
        public static synchronized Object[] get(boolean bind) {
            if (sockets == null && bind) {
                sockets = bindBoth();
            }
            return sockets;
        }
    }

    private static Object[] reservedSockets(boolean bind) {
        try {
            Class<?> holder = Class.forName(Reserved.class.getName(), true, ClassLoader.getSystemClassLoader());
            return (Object[]) holder.getMethod("get", boolean.class).invoke(null, bind);
        } catch (ClassNotFoundException notOnTheClassPath) {
            return Reserved.get(bind);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the reserved upstream DNS sockets", e);
        }
    }

    private static Object[] bindBoth() {
        for (int attempt = 0; ; attempt++) {
            try {
                DatagramSocket datagrams = new DatagramSocket(new InetSocketAddress(loopback(), 0));
                try {
                    return new Object[] {datagrams, new ServerSocket(datagrams.getLocalPort(), 50, loopback())};
                } catch (BindException taken) {
                    datagrams.close();
                    if (attempt == 20) {
                        throw taken;
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot reserve a port for the test upstream DNS server", e);
            }
        }
    }

    private TestUpstreamDns start(DatagramSocket datagrams, ServerSocket server) {
        udp = datagrams;
        tcp = server;
        servers.add(daemon("test-upstream-dns-udp", this::serveUdp));
        servers.add(daemon("test-upstream-dns-tcp", this::acceptTcp));
        return this;
    }

    /** The port it serves on (UDP and TCP). */
    public int port() {
        return udp.getLocalPort();
    }

    /** {@code 127.0.0.1:port}, the form of TRIMUS_EGRESS_DNS_UPSTREAM. */
    public String address() {
        return "127.0.0.1:" + port();
    }

    /** Every query received so far, in order. */
    public List<SeenQuery> queriesSeen() {
        return List.copyOf(seen);
    }

    /** The question names received so far (lower case, no trailing dot), in order. */
    public List<String> namesSeen() {
        return seen.stream().map(SeenQuery::name).toList();
    }

    /** Forgets the queries seen so far. */
    public void clearQueries() {
        seen.clear();
    }

    @Override
    public void close() {
        closed = true;
        if (reserved) {
            // the sockets stay bound for the next class; wait until this server's threads have let go of them
            for (Thread server : servers) {
                try {
                    server.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        } else {
            if (udp != null) {
                udp.close();
            }
            try {
                if (tcp != null) {
                    tcp.close();
                }
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        for (Socket connection : connections) {
            try {
                connection.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void serveUdp() {
        byte[] buffer = new byte[65535];
        while (!closed) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                udp.receive(packet);
            } catch (java.net.SocketTimeoutException poll) {
                continue;
            } catch (IOException e) {
                return;
            }
            InetSocketAddress from = (InetSocketAddress) packet.getSocketAddress();
            byte[] answer = answer("udp", from, Arrays.copyOf(packet.getData(), packet.getLength()));
            if (answer != null) {
                try {
                    udp.send(new DatagramPacket(answer, answer.length, from));
                } catch (IOException e) {
                    return;
                }
            }
        }
    }

    private void acceptTcp() {
        while (!closed) {
            Socket connection;
            try {
                connection = tcp.accept();
            } catch (java.net.SocketTimeoutException poll) {
                continue;
            } catch (IOException e) {
                return;
            }
            connections.add(connection);
            daemon("test-upstream-dns-tcp-connection", () -> serveTcp(connection));
        }
    }

    private void serveTcp(Socket connection) {
        InetSocketAddress from = (InetSocketAddress) connection.getRemoteSocketAddress();
        try (connection;
             DataInputStream in = new DataInputStream(connection.getInputStream());
             DataOutputStream out = new DataOutputStream(connection.getOutputStream())) {
            while (!closed) {
                byte[] query = new byte[in.readUnsignedShort()];
                in.readFully(query);
                byte[] answer = answer("tcp", from, query);
                if (answer != null) {
                    out.writeShort(answer.length);
                    out.write(answer);
                    out.flush();
                }
            }
        } catch (EOFException | SocketException done) {
            // client closed
        } catch (IOException e) {
            // connection failed; the test sees the missing answer
        } finally {
            connections.remove(connection);
        }
    }

    private byte[] answer(String transport, InetSocketAddress from, byte[] wire) {
        Message query;
        try {
            query = new Message(wire);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        seen.add(new SeenQuery(transport, from, query));
        Record question = query.getQuestion();
        if (question == null || silent.contains(question.getName())) {
            return null;
        }
        Message response = new Message(query.getHeader().getID());
        response.getHeader().setFlag(Flags.QR);
        response.getHeader().setFlag(Flags.AA);
        response.getHeader().setFlag(Flags.RA);
        if (query.getHeader().getFlag(Flags.RD)) {
            response.getHeader().setFlag(Flags.RD);
        }
        response.addRecord(question, Section.QUESTION);
        OPTRecord opt = query.getOPT();
        if (opt != null) {
            response.addRecord(new OPTRecord(DnsCodec.EDNS_UDP_PAYLOAD, 0, 0), Section.ADDITIONAL);
        }
        if (transport.equals("udp") && truncated.contains(question.getName())) {
            response.getHeader().setFlag(Flags.TC);
            return response.toWire();
        }
        resolveInto(response, question.getName(), question.getType(), 0);
        int max = transport.equals("tcp") ? 65535
                : opt == null ? 512 : Math.max(512, opt.getPayloadSize());
        return response.toWire(max);
    }

    private void resolveInto(Message response, Name name, int type, int depth) {
        List<Record> records = zone.get(name);
        if (records == null) {
            response.getHeader().setRcode(depth == 0 ? Rcode.NXDOMAIN : Rcode.NOERROR);
            response.addRecord(soa, Section.AUTHORITY);
            return;
        }
        boolean answered = false;
        for (Record record : records) {
            if (record.getType() == type || type == Type.ANY) {
                response.addRecord(record, Section.ANSWER);
                answered = true;
            }
        }
        if (!answered) {
            for (Record record : records) {
                if (record instanceof CNAMERecord alias && depth < 8) {
                    response.addRecord(record, Section.ANSWER);
                    resolveInto(response, alias.getTarget(), type, depth + 1);
                    return;
                }
            }
            response.addRecord(soa, Section.AUTHORITY);
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static Name name(String text) {
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

    private static InetAddress loopback() {
        return address("127.0.0.1");
    }
}
