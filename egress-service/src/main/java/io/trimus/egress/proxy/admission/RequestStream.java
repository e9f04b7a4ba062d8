package io.trimus.egress.proxy.admission;

import io.vertx.core.buffer.Buffer;

/**
 * A client's plain-HTTP byte stream split into what the proxy forwards: each request head, parsed strictly
 * ({@link ProxyRequestHead}), then its body's bytes as they are, up to where its framing
 * ({@link RequestBodyFraming}) ends it; then the next head. The caller appends what it reads and pulls the parts,
 * so it can stop after a head (to decide where the connection goes) and go on later. A head must end within the
 * head limit, and a bare LF or CR anywhere in it refuses it at once, without waiting for a blank line that a lenient
 * parser further on would have seen earlier. One stream serves the plain proxy and the masking interceptor alike:
 * both read requests the same way.
 */
public final class RequestStream {
    /** What comes next on the stream. */
    sealed interface Part {
    }

    /** A request head; the bytes that follow are its body, if it has one. */
    record Head(ProxyRequestHead head) implements Part {
    }

    /** Bytes of the current request's body, exactly as sent (chunked framing included). */
    record Body(Buffer bytes) implements Part {
    }

    private final int maxHeadBytes;
    private Buffer buffered = Buffer.buffer();
    private int start;
    /** How many bytes of the head being read (from {@link #start}) were checked already. */
    private int scanned;
    private RequestBodyFraming body;

    /** What reads a stream: each head, each body's bytes, or the refusal of a stream that cannot be read on. */
    public interface Reader {
        /** Whether the reader takes more parts now; false stops {@link #drain} (it decides, or it closed). */
        boolean reading();

        /** A request head. */
        void head(ProxyRequestHead head);

        /** Bytes of the current request's body, exactly as sent. */
        void body(Buffer bytes);

        /** The stream cannot be read on: {@link ProxyRefusal#MALFORMED}, or {@link ProxyRefusal#HEAD_TOO_LARGE}. */
        void refused(ProxyRefusal why);
    }

    /** @param maxHeadBytes the longest head read; a longer one is refused as too large */
    public RequestStream(int maxHeadBytes) {
        this.maxHeadBytes = maxHeadBytes;
    }

    /** Takes the next bytes the client sent. */
    public void append(Buffer data) {
        if (start == buffered.length()) {
            buffered = data.copy();
            start = 0;
            return;
        }
        if (start > 0) {
            buffered = buffered.getBuffer(start, buffered.length());
            start = 0;
        }
        buffered.appendBuffer(data);
    }

    /**
     * The next part, or null until more bytes arrive.
     *
     * @throws MalformedRequest for a head or body framing the proxy will not read ({@link MalformedRequest#tooLarge()}
     *                          for a head over the limit); the stream is then unusable
     */
    Part next() throws MalformedRequest {
        if (start == buffered.length()) {
            return null;
        }
        if (body != null && !body.done()) {
            int length = body.consume(buffered, start);
            Buffer bytes = buffered.getBuffer(start, start + length);
            start += length;
            return new Body(bytes);
        }
        int end = headEnd();
        if (end < 0) {
            return null;
        }
        ProxyRequestHead head = ProxyRequestHead.parse(buffered.getBytes(start, end));
        start = end;
        scanned = 0;
        body = RequestBodyFraming.of(head);
        return new Head(head);
    }

    /**
     * Hands {@code reader} the parts read so far, in order, while it is reading and whole parts are there: the one
     * loop the plain proxy and the masking interceptor both read requests with. A stream that cannot be read on is
     * refused once, and then nothing more is handed over.
     */
    public void drain(Reader reader) {
        while (reader.reading()) {
            Part part;
            try {
                part = next();
            } catch (MalformedRequest e) {
                reader.refused(e.tooLarge() ? ProxyRefusal.HEAD_TOO_LARGE : ProxyRefusal.MALFORMED);
                return;
            }
            if (part == null) {
                return;
            }
            if (part instanceof Body body) {
                reader.body(body.bytes());
            } else {
                reader.head(((Head) part).head());
            }
        }
    }

    /** What was read and not taken as a part (after a CONNECT: the first bytes of the tunnel); the stream is empty. */
    public Buffer rest() {
        Buffer rest = buffered.getBuffer(start, buffered.length());
        buffered = Buffer.buffer();
        start = 0;
        scanned = 0;
        return rest;
    }

    /** The index just past the head's blank line, or -1 while it has not all arrived. */
    private int headEnd() throws MalformedRequest {
        int limit = Math.min(buffered.length(), start + maxHeadBytes);
        for (int i = start + scanned; i < limit; i++) {
            byte b = buffered.getByte(i);
            boolean afterCr = i > start && buffered.getByte(i - 1) == '\r';
            if (b == '\n') {
                if (!afterCr) {
                    throw new MalformedRequest("a line of the head ends with a bare LF");
                }
                if (i - start >= 3 && buffered.getByte(i - 2) == '\n' && buffered.getByte(i - 3) == '\r') {
                    scanned = 0;
                    return i + 1;
                }
            } else if (afterCr) {
                throw new MalformedRequest("a bare CR in the head");
            }
        }
        scanned = limit - start;
        if (buffered.length() - start >= maxHeadBytes) {
            throw MalformedRequest.headTooLarge();
        }
        return -1;
    }
}
