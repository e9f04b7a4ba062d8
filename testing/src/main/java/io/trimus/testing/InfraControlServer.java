package io.trimus.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A line-based control port on loopback, owned by {@link TrimusInfraResource}: {@code ping}, {@code kafka stop},
 * {@code kafka start}, each answered {@code OK} or {@code ERR <message>} once the action is done. A port rather than
 * a static handle because a Quarkus test may see the resource's classes through another classloader.
 */
public final class InfraControlServer implements AutoCloseable {
    private final Infra infra;
    private final ServerSocket server;

    private InfraControlServer(Infra infra, ServerSocket server) {
        this.infra = infra;
        this.server = server;
    }

    public static InfraControlServer start(Infra infra) {
        try {
            ServerSocket server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
            InfraControlServer control = new InfraControlServer(infra, server);
            daemon("trimus-infra-control", control::acceptLoop).start();
            return control;
        } catch (IOException e) {
            throw new UncheckedIOException("could not open the infra control port", e);
        }
    }

    /** {@code 127.0.0.1:PORT}, the value of {@code trimus-test.infra-control}. */
    public String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // the accept loop ends either way
        }
    }

    String answer(String command) {
        try {
            switch (command.trim()) {
                case "ping" -> { }
                case "kafka stop" -> infra.stopKafka();
                case "kafka start" -> infra.startKafka();
                default -> {
                    return "ERR unknown command '" + command.trim() + "' (ping, kafka stop, kafka start)";
                }
            }
            return "OK";
        } catch (RuntimeException e) {
            return "ERR " + String.valueOf(e.getMessage()).replace('\n', ' ').replace('\r', ' ');
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                daemon("trimus-infra-control-client", () -> serve(client)).start();
            } catch (IOException e) {
                return;   // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client;
             BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.isBlank()) {
                    out.println(answer(line));
                }
            }
        } catch (IOException ignored) {
            // the client went away
        }
    }

    private static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }
}
