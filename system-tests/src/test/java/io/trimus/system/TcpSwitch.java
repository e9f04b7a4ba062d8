package io.trimus.system;

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
 * A loopback TCP forwarder in front of a real backend that a test can switch off: while down, its port refuses
 * connections and open ones are cut, exactly what the dashboard sees when a backend process is gone. It binds port 0
 * when made (the system picks a free port at the bind), so its address can be handed to a service before the backend
 * behind it has started and announced its own port ({@link #target(int)}); until then a connection is closed at once,
 * as a backend still starting refuses it. Switched up again, it binds the same port it was given.
 */
public final class TcpSwitch implements AutoCloseable {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final String name;
    private volatile int targetPort;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private ServerSocket server;

    /** Listening at once on a port of its own; forwards nothing until {@link #target(int)} names the backend. */
    public TcpSwitch(String name) {
        this.name = name;
        this.port = listen(0);
    }

    /** Listening at once, forwarding to {@code targetPort}. */
    public TcpSwitch(String name, int targetPort) {
        this(name);
        target(targetPort);
    }

    /** The backend's loopback port, from now on. */
    public TcpSwitch target(int targetPort) {
        this.targetPort = targetPort;
        return this;
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Listens again on its port after {@link #down()}. */
    public synchronized void up() {
        if (server == null) {
            listen(port);
        }
    }

    private synchronized int listen(int at) {
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(LOOPBACK, at));
            server = socket;
            Thread accept = new Thread(() -> accept(socket), "switch-" + name);
            accept.setDaemon(true);
            accept.start();
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on 127.0.0.1:" + at + " for " + name, e);
        }
    }

    /** Refuses connections from now on and cuts the open ones. */
    public synchronized void down() {
        if (server == null) {
            return;
        }
        closeQuietly(server);
        server = null;
        open.forEach(TcpSwitch::closeQuietly);
        open.clear();
    }

    @Override
    public void close() {
        down();
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Socket backend;
                try {
                    if (targetPort == 0) {
                        throw new IOException("no backend yet");
                    }
                    backend = new Socket(LOOPBACK, targetPort);
                } catch (IOException e) {
                    closeQuietly(client);
                    continue;
                }
                open.add(client);
                open.add(backend);
                pump(client, backend);
                pump(backend, client);
            } catch (IOException e) {
                return; // switched off
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // the other side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "switch-" + name + "-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
