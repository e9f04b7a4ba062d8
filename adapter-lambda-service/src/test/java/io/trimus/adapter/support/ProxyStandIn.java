package io.trimus.adapter.support;

import io.trimus.events.ProxyCheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real TCP server on 127.0.0.1 standing in for the Trimus egress proxy's side of the adapter's proxy check: answers
 * the {@link ProxyCheck} request as the contract says (204 with {@code X-Trimus-Proxy: ok}), as another HTTP server
 * would (200 without the header), or reads the request and never answers.
 */
public final class ProxyStandIn implements AutoCloseable {
    /** How the stand-in answers. */
    public enum Mode { TRIMUS, FOREIGN, SILENT }

    private final ServerSocket server;
    private final Thread loop;
    private final AtomicInteger checks = new AtomicInteger();
    private volatile Mode mode = Mode.TRIMUS;
    /** As a proxy ({@link #onGateway}): the one host CONNECT admits; null answers only the check. */
    private final String admitted;
    private final java.util.List<String> requestLines = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ProxyStandIn(int port) throws IOException {
        this(InetAddress.getLoopbackAddress(), port, null);
    }

    private ProxyStandIn(InetAddress address, int port, String admitted) throws IOException {
        this.admitted = admitted;
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(address, port), 16);
        loop = new Thread(this::serve, "proxy-stand-in");
        loop.setDaemon(true);
        loop.start();
    }

    /** Starts the stand-in on a free loopback port. */
    public static ProxyStandIn start() {
        return start(0);
    }

    /** Starts the stand-in on {@code port} of 127.0.0.1 (0: any free one). */
    public static ProxyStandIn start(int port) {
        try {
            return new ProxyStandIn(port);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the proxy stand-in", e);
        }
    }

    /**
     * The stand-in as the egress proxy a sandbox talks to, on {@code address:port} (the egress network's gateway):
     * {@code CONNECT admitted} is answered 200 and held open, every other request (CONNECT or absolute-form GET) 403
     * as the Trimus proxy refuses it.
     */
    public static ProxyStandIn onGateway(String address, int port, String admitted) {
        try {
            return new ProxyStandIn(InetAddress.getByName(address), port, admitted);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the proxy stand-in on " + address + ":" + port, e);
        }
    }

    /** The request lines that arrived, in order (as a proxy). */
    public java.util.List<String> requestLines() {
        return java.util.List.copyOf(requestLines);
    }

    /** {@code 127.0.0.1:PORT}, the value of TRIMUS_EGRESS_PROXY_CHECK_ADDR. */
    public String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Changes how later checks are answered. */
    public void mode(Mode mode) {
        this.mode = mode;
    }

    /** How many proxy checks arrived. */
    public int checks() {
        return checks.get();
    }

    private void serve() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread answer = new Thread(() -> answer(socket), "proxy-stand-in-answer");
                answer.setDaemon(true);
                answer.start();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private void answer(Socket socket) {
        try (socket) {
            socket.setSoTimeout(10_000);
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            int b;
            while (head.indexOf("\r\n\r\n") < 0 && head.length() < 8192 && (b = in.read()) >= 0) {
                head.append((char) b);
            }
            if (admitted != null) {
                proxy(socket, head.toString());
                return;
            }
            if (!head.toString().startsWith("GET " + ProxyCheck.PATH + " HTTP/1.1\r\n")) {
                socket.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                return;
            }
            checks.incrementAndGet();
            switch (mode) {
                case TRIMUS -> socket.getOutputStream().write(("HTTP/1.1 204 No Content\r\n" + ProxyCheck.HEADER
                        + ": ok\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                case FOREIGN -> socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
                        + "Connection: close\r\n\r\nok").getBytes(StandardCharsets.US_ASCII));
                case SILENT -> {
                    // says nothing until the prober hangs up (its own timeout), at most 30 s
                    socket.setSoTimeout(30_000);
                    while (in.read() >= 0) {
                        // discard
                    }
                }
            }
        } catch (IOException e) {
            // the prober gave up: nothing to answer
        }
    }

    private void proxy(Socket socket, String head) throws IOException {
        String line = head.lines().findFirst().orElse("");
        requestLines.add(line);
        if (line.equals("CONNECT " + admitted + " HTTP/1.1")) {
            socket.getOutputStream().write("HTTP/1.1 200 Connection established\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            socket.setSoTimeout(10_000);
            while (socket.getInputStream().read() >= 0) {
                // a tunnel to nowhere: held until the client hangs up
            }
            return;
        }
        socket.getOutputStream().write(("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
