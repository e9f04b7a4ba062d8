package io.trimus.egress.proxy.admission;

/**
 * A request head or body framing the proxy will not read: answered 400 (431 when the head is only too long) and
 * closed, never guessed at.
 */
final class MalformedRequest extends Exception {
    private final boolean tooLarge;

    MalformedRequest(String message) {
        this(message, false);
    }

    private MalformedRequest(String message, boolean tooLarge) {
        super(message, null, false, false);
        this.tooLarge = tooLarge;
    }

    /** A head longer than TRIMUS_EGRESS_PROXY_MAX_HEAD_BYTES: refused, but no sign of an attack. */
    static MalformedRequest headTooLarge() {
        return new MalformedRequest("request head too large", true);
    }

    /** Whether the head was only too long, not malformed. */
    boolean tooLarge() {
        return tooLarge;
    }
}
