package io.trimus.egress.proxy;

import io.vertx.core.buffer.Buffer;

/**
 * Where a forwarded plain-HTTP request's body ends, so the proxy knows where the next request head on a kept-alive
 * connection begins and can check its Host: by Content-Length, or by walking the chunked encoding (the bytes are
 * forwarded as they are, never decoded). Ambiguous framing (both headers, several lengths, another transfer coding)
 * is malformed: request smuggling lives in exactly those cases.
 */
final class RequestBodyFraming {
    private static final int MAX_LINE = 8192;

    private enum State { SIZE, EXTENSION, SIZE_LF, DATA, DATA_CR, DATA_LF, TRAILER_START, TRAILER, TRAILER_LF, LAST_LF, DONE }

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

    /** The body framing a request head announces. */
    static RequestBodyFraming of(ProxyRequestHead head) throws MalformedRequest {
        String te = head.header("Transfer-Encoding");
        int lengths = head.count("Content-Length");
        if (te != null) {
            if (lengths > 0 || head.count("Transfer-Encoding") > 1 || !te.equalsIgnoreCase("chunked")) {
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
            byte b = data.getByte(i++);
            if (++lineLength > MAX_LINE) {
                throw new MalformedRequest("chunk line too long");
            }
            switch (state) {
                case SIZE -> {
                    int digit = Character.digit(b, 16);
                    if (digit >= 0 && sizeDigits < 15) {
                        remaining = remaining * 16 + digit;
                        sizeDigits++;
                    } else if (sizeDigits > 0 && (b == ';' || b == ' ' || b == '\t')) {
                        state = State.EXTENSION;
                    } else if (sizeDigits > 0 && b == '\r') {
                        state = State.SIZE_LF;
                    } else {
                        throw new MalformedRequest("chunk size");
                    }
                }
                case EXTENSION -> {
                    if (b == '\r') {
                        state = State.SIZE_LF;
                    }
                }
                case SIZE_LF -> {
                    expect(b, '\n');
                    lineLength = 0;
                    sizeDigits = 0;
                    state = remaining == 0 ? State.TRAILER_START : State.DATA;
                }
                case DATA_CR -> {
                    expect(b, '\r');
                    state = State.DATA_LF;
                }
                case DATA_LF -> {
                    expect(b, '\n');
                    lineLength = 0;
                    state = State.SIZE;
                }
                case TRAILER_START -> state = b == '\r' ? State.LAST_LF : State.TRAILER;
                case TRAILER -> {
                    if (b == '\r') {
                        state = State.TRAILER_LF;
                    }
                }
                case TRAILER_LF -> {
                    expect(b, '\n');
                    lineLength = 0;
                    state = State.TRAILER_START;
                }
                case LAST_LF -> {
                    expect(b, '\n');
                    state = State.DONE;
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
        return i - offset;
    }

    private static void expect(byte actual, char wanted) throws MalformedRequest {
        if (actual != wanted) {
            throw new MalformedRequest("chunked encoding");
        }
    }
}
