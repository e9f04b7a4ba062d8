package io.trimus.commons.problem;

/**
 * A failure the client can act on, raised by a service's rules and rendered by {@link ProblemMapper} as problem+json
 * with its status, title, detail and the field (and refused value) at fault.
 */
public class ProblemException extends RuntimeException {
    private static final int MAX_ECHOED_CHARS = 100;

    private final int status;
    private final String title;
    private final String field;
    private final String value;

    public ProblemException(int status, String title, String detail, String field) {
        this(status, title, detail, field, null);
    }

    public ProblemException(int status, String title, String detail, String field, String value) {
        super(detail);
        this.status = status;
        this.title = title;
        this.field = field;
        this.value = value;
    }

    /** 400: {@code field} breaks the contract. */
    public static ProblemException invalid(String field, String detail) {
        return new ProblemException(400, "Invalid request", field + " " + detail, field, null);
    }

    /** 400: {@code field} holds a refused {@code value}; the value is echoed back, shortened when long. */
    public static ProblemException invalidValue(String field, String value, String detail) {
        String echoed = value.length() > MAX_ECHOED_CHARS ? value.substring(0, MAX_ECHOED_CHARS) + "…" : value;
        return new ProblemException(400, "Invalid request", field + " \"" + echoed + "\" " + detail, field, echoed);
    }

    /** 404: no such {@code kind} (in this company). */
    public static ProblemException notFound(String kind, Object id) {
        return new ProblemException(404, "Not found", kind + " " + id + " does not exist", null, null);
    }

    /** 409: the resource's state forbids the action. */
    public static ProblemException conflict(String detail) {
        return new ProblemException(409, "Conflict", detail, null, null);
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

    /** The refused value as echoed to the client, or null. */
    public String value() {
        return value;
    }

    /** The body this failure is shown as. */
    public Problem problem() {
        return Problem.of(status, title, getMessage(), field, value);
    }
}
