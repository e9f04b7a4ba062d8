package io.trimus.egress.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An "outside" front end that serves several names on one address, routing each request by its Host header (name-based
 * virtual hosts, as a CDN or a shared ingress does), and that reads HTTP/1.1 as leniently as many real servers: a line
 * may end with a bare LF, and a chunked body ends at its last chunk's empty line however that line ends. Every request
 * on a kept-alive connection is served in turn; each answer says which virtual host served it. What the proxy must
 * never let through to it is a request for a name the sandbox's allowlist does not hold.
 */
final class LenientVirtualHosts implements AutoCloseable {
    private final ServerSocket server;
    private final ExecutorService connections = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "lenient-vhosts");
        thread.setDaemon(true);
        return thread;
    });
    /** Every request served, as {@code <host> <target>}. */
    final List<String> served = new CopyOnWriteArrayList<>();

    /** Serves on {@code address:port} until closed. */
    LenientVirtualHosts(String address, int port) throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getByName(address), port));
        connections.execute(this::accept);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.execute(() -> serve(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            while (true) {
                String requestLine = line(in);
                while (requestLine != null && requestLine.isEmpty()) {
                    requestLine = line(in);
                }
                if (requestLine == null) {
                    return;
                }
                String host = "";
                long length = 0;
                boolean chunked = false;
                for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
                    int colon = header.indexOf(':');
                    String name = colon < 0 ? header : header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                    String value = colon < 0 ? "" : header.substring(colon + 1).trim();
                    switch (name) {
                        case "host" -> host = value.replaceFirst(":\\d+$", "");
                        case "content-length" -> length = Long.parseLong(value);
                        case "transfer-encoding" -> chunked = value.equalsIgnoreCase("chunked");
                        default -> { }
                    }
                }
                if (chunked) {
                    skipChunked(in);
                } else {
                    in.skipNBytes(length);
                }
                String[] parts = requestLine.split(" ");
                String target = parts.length > 1 ? parts[1] : "";
                served.add(host + " " + target);
                byte[] body = ("vhost=" + host + " path=" + target + "\n").getBytes(StandardCharsets.ISO_8859_1);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
                        + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
            }
        } catch (IOException | RuntimeException gone) {
            // the client left, or sent what even this server cannot read
        }
    }

    /** A chunked body, read as leniently as its lines: up to the empty line after the last chunk's trailers. */
    private static void skipChunked(InputStream in) throws IOException {
        while (true) {
            String size = line(in);
            if (size == null) {
                throw new IOException("the body ended early");
            }
            int extension = size.indexOf(';');
            long bytes = Long.parseLong((extension < 0 ? size : size.substring(0, extension)).trim(), 16);
            if (bytes == 0) {
                for (String trailer = line(in); trailer != null && !trailer.isEmpty(); trailer = line(in)) {
                    // trailers are ignored
                }
                return;
            }
            in.skipNBytes(bytes);
            line(in);
        }
    }

    /** One line, ended by LF with or without a CR before it; null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        String text = line.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }

    @Override
    public void close() throws IOException {
        server.close();
        connections.shutdownNow();
    }
}
