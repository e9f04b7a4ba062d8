package io.trimus.admin.client;

/**
 * A backend call that failed, already put into one sentence a person can act on ("run-service is not reachable
 * right now"); pages show {@link #getMessage()} and never a class name or stack trace.
 */
public class BackendException extends RuntimeException {
    /** What kind of failure it was, so a page can pick its HTTP status. */
    public enum Kind {
        /** The backend did not answer: down, unreachable or too slow. */
        UNREACHABLE,
        /** The backend says the thing does not exist (404). */
        NOT_FOUND,
        /** The caller's credential is unknown, expired or revoked (401): sign in again. */
        UNAUTHENTICATED,
        /** The caller's role does not allow this (403); the message says what it needs. */
        FORBIDDEN,
        /** The backend refused the request as invalid (400); the message is its problem detail. */
        REFUSED,
        /** The backend answered with an error of its own (5xx or unexpected). */
        FAILED
    }

    private final Backend backend;
    private final Kind kind;
    private final String field;

    public BackendException(Backend backend, Kind kind, String sentence, String field, Throwable cause) {
        super(sentence, cause, false, false);
        this.backend = backend;
        this.kind = kind;
        this.field = field;
    }

    public Backend backend() {
        return backend;
    }

    public Kind kind() {
        return kind;
    }

    /** For {@link Kind#REFUSED}: the request field the backend named, or null. */
    public String field() {
        return field;
    }

    /** The HTTP status a page that failed for this reason answers with. */
    public int httpStatus() {
        return switch (kind) {
            case UNAUTHENTICATED -> 401;
            case FORBIDDEN -> 403;
            case NOT_FOUND -> 404;
            case REFUSED -> 400;
            case UNREACHABLE -> 503;
            case FAILED -> 502;
        };
    }
}
