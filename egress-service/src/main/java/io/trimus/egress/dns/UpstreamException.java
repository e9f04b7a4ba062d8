package io.trimus.egress.dns;

/** The upstream did not answer (timeout, refused connection, too many queries in flight); the client gets SERVFAIL. */
public final class UpstreamException extends RuntimeException {

    public UpstreamException(String message) {
        // No stack trace: this is an expected outcome on a hot path, and the message says all there is.
        super(message, null, false, false);
    }
}
