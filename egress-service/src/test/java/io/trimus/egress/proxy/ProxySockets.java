package io.trimus.egress.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** What the proxy tests do with a raw client socket: write a request, read one response or up to a marker. */
final class ProxySockets {
    private ProxySockets() {
    }

    /** Sends a request and reads one response (head, then the body its Content-Length announces). */
    static String send(Socket socket, String request) throws IOException {
        write(socket, request);
        return readResponse(socket);
    }

    static void write(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    static String readResponse(Socket socket) throws IOException {
        String head = readUntil(socket, "\r\n\r\n");
        int length = 0;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return head + new String(socket.getInputStream().readNBytes(length), StandardCharsets.ISO_8859_1);
    }

    /** Reads until {@code marker} has arrived or the stream ends (a chunked body is read as raw bytes). */
    static String readUntil(Socket socket, String marker) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (!read.toString(StandardCharsets.ISO_8859_1).endsWith(marker)) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            read.write(b);
        }
        return read.toString(StandardCharsets.ISO_8859_1);
    }
}
