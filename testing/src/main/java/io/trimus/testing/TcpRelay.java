package io.trimus.testing;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP forwarder in front of a real backend that a test can break in the two ways a network breaks:
 * <ul>
 *   <li>{@link #down()}: its port refuses connections and open ones are cut, what a client sees when the backend
 *       process is gone; {@link #up()} listens again on the same port;</li>
 *   <li>{@link #cut()}: it keeps listening but closes open connections and every new one as soon as it is accepted,
 *       what a client sees when the network between it and a backend that stays up fails;
 *       {@link #restore()} forwards again.</li>
 * </ul>
 * It binds port 0 when made (the system picks a free port at the bind), so its address can be handed to a client
 * before the backend behind it has started and announced its own port ({@link #target(int)}); until then a
 * connection is closed at once, as a backend still starting refuses it.
 */
public final class TcpRelay implements AutoCloseable {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final String name;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile int targetPort;
    private volatile boolean cut;
    private ServerSocket server;

    /** Listening at once on a port of its own; forwards nothing until {@link #target(int)} names the backend. */
    public TcpRelay(String name) {
        this.name = name;
        this.port = listen(0);
    }

    /** Listening at once, forwarding to {@code 127.0.0.1:targetPort}. */
    public TcpRelay(String name, int targetPort) {
        this(name);
        target(targetPort);
    }

    /** The backend's loopback port, from now on. */
    public TcpRelay target(int targetPort) {
        this.targetPort = targetPort;
        return this;
    }

    /** The loopback port clients connect to; the same after {@link #down()} and {@link #up()}. */
    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Refuses connections from now on and cuts the open ones. */
    public synchronized void down() {
        if (server == null) {
            return;
        }
        closeQuietly(server);
        server = null;
        closeOpen();
    }

    /** Listens again on its port after {@link #down()}. */
    public synchronized void up() {
        if (server == null) {
            listen(port);
        }
    }

    /** Cuts every open connection and closes new ones as soon as they are accepted, until {@link #restore()}. */
    public void cut() {
        cut = true;
        closeOpen();
    }

    /** Forwards new connections again after {@link #cut()}. */
    public void restore() {
        cut = false;
    }

    @Override
    public void close() {
        cut();
        down();
    }

    private synchronized int listen(int at) {
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(LOOPBACK, at));
            server = socket;
            Thread accept = new Thread(() -> accept(socket), "relay-" + name);
            accept.setDaemon(true);
            accept.start();
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on 127.0.0.1:" + at + " for " + name, e);
        }
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                return; // down or closed
            }
            if (cut || targetPort == 0) {
                closeQuietly(client); // cut, or no backend yet
                continue;
            }
            Socket backend;
            try {
                backend = new Socket(LOOPBACK, targetPort);
            } catch (IOException e) {
                closeQuietly(client);
                continue;
            }
            open.add(client);
            open.add(backend);
            if (cut) { // cut while this one was connecting: it must not outlive the cut
                closeOpen();
                continue;
            }
            pump(client, backend);
            pump(backend, client);
        }
    }

    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // the other side closed, or the relay was cut
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "relay-" + name + "-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private void closeOpen() {
        open.forEach(TcpRelay::closeQuietly);
        open.clear();
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
