package io.trimus.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Loopback ports: free random ones for tests, and a clear refusal when a fixed dev port is taken.
 * <p>
 * A port chosen free here is released before its server binds it, and anything may take it in between: use
 * {@link #free()} only for a server that cannot bind port 0 and report the port it got, i.e. the embedded Kafka
 * (its controller quorum names its own address) and PostgreSQL, which tests also restart at the same address. A
 * service child binds {@code quarkus.http.port=0} ({@link ServiceProcess}); an in-JVM server binds port 0 itself.
 */
public final class Ports {
    private Ports() {
    }

    /** One free port on 127.0.0.1. */
    public static int free() {
        return free(1).get(0);
    }

    /** {@code count} distinct free ports on 127.0.0.1 (all held open while choosing, so none repeats). */
    public static List<Integer> free(int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        } finally {
            held.forEach(Ports::closeQuietly);
        }
    }

    /** Fails with a message naming the port, its purpose and the knob to change it, if something already listens. */
    public static void requireFree(int port, String purpose, String knob) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " for " + purpose + " on 127.0.0.1 is in use: stop what"
                    + " holds it (ss -ltnp 'sport = :" + port + "') or choose another port with " + knob);
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do: the port is released either way
        }
    }
}
