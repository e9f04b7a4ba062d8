package io.trimus.testing.access;

/**
 * A kind of caller the access walk tries on every endpoint, with its {@code Authorization} header (null: none sent).
 * {@code role} is the company role for {@link Kind#RIGHT_COMPANY} and {@link Kind#OTHER_COMPANY} callers.
 */
public record Caller(String label, Kind kind, String role, String authorization) {
    /** What the caller is to the company the walk's requests name. */
    public enum Kind { INVALID, SERVICE, OPERATOR, RIGHT_COMPANY, OTHER_COMPANY }

    private static final java.util.List<String> ROLES = java.util.List.of("admin", "member", "viewer");

    /** The outcome the access table promises this caller on an endpoint open to {@code who}. */
    public Outcome expectedOn(String level) {
        // a2a: a published agent's A2A endpoint, for members (and A2A-only tokens, which the walk does not make)
        String who = level.equals("a2a") ? "member" : level;
        if (who.equals("anyone")) {
            return Outcome.PASSES;
        }
        if (kind == Kind.INVALID) {
            return Outcome.UNAUTHENTICATED;
        }
        if (kind == Kind.SERVICE) {
            return who.equals("service") ? Outcome.PASSES : Outcome.FORBIDDEN;
        }
        if (who.equals("service")) {
            return Outcome.FORBIDDEN;
        }
        if (who.equals("signed-in") || kind == Kind.OPERATOR) {
            return Outcome.PASSES;
        }
        if (who.equals("operator")) {
            return Outcome.FORBIDDEN;
        }
        if (kind == Kind.OTHER_COMPANY) {
            return Outcome.HIDDEN;
        }
        return ROLES.indexOf(role) <= ROLES.indexOf(who) ? Outcome.PASSES : Outcome.FORBIDDEN;
    }
}
