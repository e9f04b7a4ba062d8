package io.trimus.admin.auth;

import java.util.regex.Pattern;

/**
 * Where to go after signing in: a path of this dashboard only ({@code /companies/…}), never an absolute or
 * protocol-relative URL another site could hand a victim ({@code https://evil}, {@code //evil}, {@code /\evil}), nor
 * a sign-in page (after a provider's sign-in, {@code /sign-in/oidc/complete} would start the next one).
 */
public final class SafeNext {
    private static final Pattern PATH = Pattern.compile("/(?![/\\\\])[A-Za-z0-9/_.~%?&=+\\-]*");
    private static final int MAX_LENGTH = 1000;

    private SafeNext() {
    }

    /** {@code next} when it is a safe same-site path, else {@code /}. */
    public static String of(String next) {
        return next != null && next.length() <= MAX_LENGTH && PATH.matcher(next).matches()
                && !next.startsWith("/login") && !next.startsWith("/sign-in") ? next : "/";
    }
}
