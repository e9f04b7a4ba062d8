package io.trimus.egress.proxy.admission;

import io.vertx.core.buffer.Buffer;

/**
 * Where a plain-HTTP request's body ends, so the proxy knows where the next request head on a kept-alive connection
 * begins and can check it: by Content-Length, or by walking the chunked encoding (the bytes are forwarded as they
 * are, never decoded). Request smuggling lives in the cases two parsers read differently, so every one of them is
 * malformed here: Transfer-Encoding with Content-Length, on HTTP/1.0, twice, or with another coding; several or
 * non-decimal lengths; a chunk-size line, chunk terminator or trailer line ending in a bare LF or CR; control bytes in
 * a chunk extension or trailer; a folded trailer line.
 */
final class RequestBodyFraming {
    private static final int MAX_LINE = 8192;

    private enum State {
        SIZE, EXTENSION, SIZE_LF, DATA, DATA_CR, DATA_LF, TRAILER_START, TRAILER_NAME, TRAILER_VALUE, TRAILER_LF,
        LAST_LF, DONE
    }

    private final boolean chunked;
    private long remaining;
    private State state;
    private int lineLength;
    private int sizeDigits;

    private RequestBodyFraming(boolean chunked, long length) {
        this.chunked = chunked;
        this.remaining = length;
        this.state = chunked ? State.SIZE : length == 0 ? State.DONE : State.DATA;
    }

    /** The body framing a request head announces (a CONNECT has none: what follows it is the tunnel). */
    static RequestBodyFraming of(ProxyRequestHead head) throws MalformedRequest {
        if (head.isConnect()) {
            return new RequestBodyFraming(false, 0);
        }
        int codings = head.count("Transfer-Encoding");
        int lengths = head.count("Content-Length");
        if (codings > 0) {
            if (head.version().equals("HTTP/1.0")) {
                throw new MalformedRequest("Transfer-Encoding in an HTTP/1.0 request");
            }
            if (lengths > 0 || codings > 1 || !head.header("Transfer-Encoding").equalsIgnoreCase("chunked")) {
                throw new MalformedRequest("ambiguous or unsupported body framing");
            }
            return new RequestBodyFraming(true, 0);
        }
        if (lengths == 0) {
            return new RequestBodyFraming(false, 0);
        }
        String length = head.header("Content-Length");
        if (lengths > 1 || length.isEmpty() || length.length() > 18
                || !length.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new MalformedRequest("Content-Length");
        }
        return new RequestBodyFraming(false, Long.parseLong(length));
    }

    /** Whether the body has ended. */
    boolean done() {
        return state == State.DONE;
    }

    /**
     * How many bytes of {@code data}, from {@code offset}, still belong to this body; what follows them is the next
     * request head.
     */
    int consume(Buffer data, int offset) throws MalformedRequest {
        int i = offset;
        int end = data.length();
        while (i < end && state != State.DONE) {
            if (state == State.DATA) {
                int take = (int) Math.min(remaining, end - i);
                i += take;
                remaining -= take;
                if (remaining == 0) {
                    state = chunked ? State.DATA_CR : State.DONE;
                }
                continue;
            }
            int b = data.getByte(i++) & 0xff;
            if (++lineLength > MAX_LINE) {
                throw new MalformedRequest("chunk line too long");
            }
            state = next(b);
        }
        return i - offset;
    }

    private State next(int b) throws MalformedRequest {
        switch (state) {
            case SIZE -> {
                int digit = Character.digit(b, 16);
                if (digit >= 0 && sizeDigits < 15) {
                    remaining = remaining * 16 + digit;
                    sizeDigits++;
                    return State.SIZE;
                }
                if (sizeDigits > 0 && (b == ';' || b == ' ' || b == '\t')) {
                    return State.EXTENSION;
                }
                if (sizeDigits > 0 && b == '\r') {
                    return State.SIZE_LF;
                }
                throw new MalformedRequest("chunk size");
            }
            case EXTENSION -> {
                if (b == '\r') {
                    return State.SIZE_LF;
                }
                if (!isFieldByte(b)) {
                    throw new MalformedRequest("control byte or bare LF in a chunk extension");
                }
                return State.EXTENSION;
            }
            case SIZE_LF -> {
                expect(b, '\n');
                lineLength = 0;
                sizeDigits = 0;
                return remaining == 0 ? State.TRAILER_START : State.DATA;
            }
            case DATA_CR -> {
                expect(b, '\r');
                return State.DATA_LF;
            }
            case DATA_LF -> {
                expect(b, '\n');
                lineLength = 0;
                return State.SIZE;
            }
            case TRAILER_START -> {
                if (b == '\r') {
                    return State.LAST_LF;
                }
                if (!ProxyRequestHead.isTokenChar(b)) {
                    // a bare LF ending the body, a folded line, a control byte: each read otherwise somewhere
                    throw new MalformedRequest("trailer line");
                }
                return State.TRAILER_NAME;
            }
            case TRAILER_NAME -> {
                if (b == ':') {
                    return State.TRAILER_VALUE;
                }
                if (!ProxyRequestHead.isTokenChar(b)) {
                    throw new MalformedRequest("trailer name");
                }
                return State.TRAILER_NAME;
            }
            case TRAILER_VALUE -> {
                if (b == '\r') {
                    return State.TRAILER_LF;
                }
                if (!isFieldByte(b)) {
                    throw new MalformedRequest("control byte or bare LF in a trailer");
                }
                return State.TRAILER_VALUE;
            }
            case TRAILER_LF -> {
                expect(b, '\n');
                lineLength = 0;
                return State.TRAILER_START;
            }
            case LAST_LF -> {
                expect(b, '\n');
                return State.DONE;
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    /** A byte a field value (or chunk extension) may hold: visible characters, obs-text, space and tab. */
    private static boolean isFieldByte(int b) {
        return b == '\t' || b >= 0x20 && b != 0x7f;
    }

    private static void expect(int actual, char wanted) throws MalformedRequest {
        if (actual != wanted) {
            throw new MalformedRequest("chunked encoding: a line must end with CR LF");
        }
    }
}
