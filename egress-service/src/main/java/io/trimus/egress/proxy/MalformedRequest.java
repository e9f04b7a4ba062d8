package io.trimus.egress.proxy;

/** A request head or body framing the proxy will not read: answered 400 and closed, never guessed at. */
final class MalformedRequest extends Exception {
    MalformedRequest(String message) {
        super(message, null, false, false);
    }
}
