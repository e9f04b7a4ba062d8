package io.trimus.egress.api;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP forwarder between one replica and the real database that a test can cut: while cut, open
 * connections are closed and new ones are closed as soon as they are accepted, exactly what a replica sees when the
 * network between it and PostgreSQL fails while the database itself stays up for the other replicas.
 */
final class DatabaseLink implements AutoCloseable {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final int targetPort;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    /** Listens on a port the kernel picks and forwards to {@code 127.0.0.1:targetPort}. */
    DatabaseLink(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, LOOPBACK);
        Thread accept = new Thread(this::accept, "database-link");
        accept.setDaemon(true);
        accept.start();
    }

    /** The port the replica connects to. */
    int port() {
        return server.getLocalPort();
    }

    /** Cuts every connection and refuses new ones until {@link #restore()}. */
    void cut() {
        cut = true;
        open.forEach(DatabaseLink::closeQuietly);
        open.clear();
    }

    /** Forwards new connections again. */
    void restore() {
        cut = false;
    }

    @Override
    public void close() {
        cut();
        closeQuietly(server);
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (cut) {
                closeQuietly(client);
                continue;
            }
            try {
                Socket backend = new Socket(LOOPBACK, targetPort);
                open.add(client);
                open.add(backend);
                pump(client, backend);
                pump(backend, client);
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // the other side closed, or the link was cut
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "database-link-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
