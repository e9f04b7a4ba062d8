package io.trimus.run.service;

/** A failure the client can act on; rendered as problem+json with its status, title and detail. */
public class ProblemException extends RuntimeException {
    private final int status;
    private final String title;
    private final String field;

    public ProblemException(int status, String title, String detail, String field) {
        super(detail);
        this.status = status;
        this.title = title;
        this.field = field;
    }

    /** 400: {@code field} breaks the contract. */
    public static ProblemException invalid(String field, String detail) {
        return new ProblemException(400, "Invalid request", field + " " + detail, field);
    }

    /** 404: no such {@code kind} (in this company). */
    public static ProblemException notFound(String kind, Object id) {
        return new ProblemException(404, "Not found", kind + " " + id + " does not exist", null);
    }

    /** 409: the resource's state forbids the action. */
    public static ProblemException conflict(String detail) {
        return new ProblemException(409, "Conflict", detail, null);
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The request field at fault, or null. */
    public String field() {
        return field;
    }
}
