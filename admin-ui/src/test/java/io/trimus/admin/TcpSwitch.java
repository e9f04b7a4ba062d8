package io.trimus.admin;

import io.trimus.testing.Ports;

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
 * connections and open ones are cut, exactly what the dashboard sees when a backend process is gone.
 */
final class TcpSwitch implements AutoCloseable {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final String name;
    private final int targetPort;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private ServerSocket server;

    TcpSwitch(String name, int targetPort) {
        this.name = name;
        this.targetPort = targetPort;
        this.port = Ports.free();
        up();
    }

    int port() {
        return port;
    }

    synchronized void up() {
        if (server != null) {
            return;
        }
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(LOOPBACK, port));
            server = socket;
            Thread accept = new Thread(() -> accept(socket), "switch-" + name);
            accept.setDaemon(true);
            accept.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on 127.0.0.1:" + port + " for " + name, e);
        }
    }

    synchronized void down() {
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
