package io.trimus.adapter.egress.probe;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.ProxyCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Sends the Trimus egress proxy the {@link ProxyCheck} request before a sandbox starts: a sandbox whose proxy does not
 * answer, or whose proxy is not Trimus's, never starts (fail-secure). A good answer is trusted for
 * TRIMUS_EGRESS_PROXY_CHECK_TRUST, so a burst of runs costs one round trip. The exchange is bounded in time and bytes.
 * Blocking; called on run worker threads.
 */
@ApplicationScoped
public class ProxyProbe {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** The answer's head must fit: the proxy's is a status line and a few headers. */
    static final int MAX_HEAD_BYTES = 8192;

    private final int port;
    private final long trustNanos;
    private final Optional<String> configured;
    private volatile String lastGoodAddress;
    private volatile long lastGoodAt;

    @Inject
    public ProxyProbe(TrimusConfig config) {
        int port = config.egress().proxyPort();
        Optional<String> checkAddr = config.egress().proxyCheckAddr();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_PROXY_PORT must be a port number, got " + port);
        }
        this.port = port;
        this.trustNanos = config.egress().proxyCheckTrust().toNanos();
        this.configured = checkAddr.map(String::trim).filter(s -> !s.isEmpty());
        configured.ifPresent(ProxyProbe::parse);
    }

    /** The port of the explicit proxy that sandboxes are pointed at. */
    public int port() {
        return port;
    }

    /**
     * Checks the proxy a sandbox is given.
     *
     * @param proxyHost the address the sandbox's proxy settings name (its resolver's address)
     * @return null when it answers as Trimus's proxy, else the sentence that says what is wrong
     */
    public String problem(String proxyHost) {
        String address = configured.orElse(proxyHost + ":" + port);
        if (address.equals(lastGoodAddress) && System.nanoTime() - lastGoodAt < trustNanos) {
            return null;
        }
        InetSocketAddress target = parse(address);
        String head;
        try {
            head = exchange(target, address);
        } catch (IOException e) {
            return "the Trimus egress proxy at " + address + " does not answer (" + reason(e) + ")";
        }
        String wrong = wrongAnswer(head);
        if (wrong != null) {
            return "the server at " + address + " is not the Trimus egress proxy (" + wrong + ")";
        }
        lastGoodAddress = address;
        lastGoodAt = System.nanoTime();
        return null;
    }

    /** Sends the check and reads the answer's head, within {@link #TIMEOUT} and {@link #MAX_HEAD_BYTES}. */
    private static String exchange(InetSocketAddress target, String address) throws IOException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try (Socket socket = new Socket()) {
            socket.connect(target, (int) TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + ProxyCheck.PATH + " HTTP/1.1\r\nHost: " + address
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[MAX_HEAD_BYTES];
            int length = 0;
            while (length < buffer.length) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new SocketTimeoutException("no complete answer within " + TIMEOUT.toSeconds() + " s");
                }
                socket.setSoTimeout((int) left);
                int read;
                try {
                    read = in.read(buffer, length, buffer.length - length);
                } catch (SocketTimeoutException e) {
                    throw new SocketTimeoutException("no complete answer within " + TIMEOUT.toSeconds() + " s");
                }
                if (read < 0) {
                    break;
                }
                length += read;
                String text = new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
                int end = text.indexOf("\r\n\r\n");
                if (end >= 0) {
                    return text.substring(0, end);
                }
            }
            if (length == 0) {
                throw new IOException("it closed the connection without an answer");
            }
            return new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
        }
    }

    /** What is wrong with the answer's head, or null when it is the Trimus proxy's: 204 with the marker header. */
    static String wrongAnswer(String head) {
        String[] lines = head.split("\r\n");
        String[] status = lines[0].split(" ", 3);
        if (status.length < 2 || !status[0].startsWith("HTTP/1.")) {
            return "it did not answer HTTP to the proxy check";
        }
        boolean marked = false;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0 && lines[i].substring(0, colon).trim().equalsIgnoreCase(ProxyCheck.HEADER)
                    && lines[i].substring(colon + 1).trim().toLowerCase(Locale.ROOT).equals("ok")) {
                marked = true;
            }
        }
        if (!status[1].equals("204") || !marked) {
            return "it answered HTTP " + printable(status[1]) + (marked ? "" : " without " + ProxyCheck.HEADER + ": ok")
                    + " to the proxy check";
        }
        return null;
    }

    private static String printable(String text) {
        String cut = text.length() > 16 ? text.substring(0, 16) : text;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }

    private static String reason(IOException e) {
        return e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static InetSocketAddress parse(String hostPort) {
        return CheckAddress.parse(hostPort, "TRIMUS_EGRESS_PROXY_CHECK_ADDR", "172.30.0.1:3128");
    }
}
