package io.trimus.egress.allowlist;

import io.trimus.commons.problem.ProblemException;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Request paths as a path rule ({@link RuledEntry}) sees them: normalised so that one resource has one spelling, and
 * refused outright where a server further on could read them as another path than the proxy does.
 *
 * <p>Normalising a request target: the query and fragment are cut off; the rest must start with {@code /} and hold
 * only visible ASCII; percent-encodings of unreserved characters (letters, digits, {@code - . _ ~}) are decoded and
 * every other one is upper-cased; {@code //} collapses to {@code /}; the dot-segments {@code .} and {@code ..} are
 * resolved (RFC 3986 5.2.4). A path is refused (no normal form: it matches no prefix) when it holds a backslash, an
 * encoded {@code /} or {@code \} ({@code %2F}, {@code %5C}), an encoded control character, a {@code ..} that climbs
 * above the root, a segment {@code .;…} or {@code ..;…} (read as a dot-segment by servlet containers), or a bad
 * percent-encoding. Paths are compared case-sensitively, as RFC 3986 says.
 */
public final class RequestPaths {
    /** Longest path prefix an entry may list. */
    public static final int MAX_PREFIX_LENGTH = 512;

    private RequestPaths() {
    }

    /** The normal form of a request target's path ({@code /a/b?q}), or null when the path is refused. */
    public static String normalise(String target) {
        if (target == null) {
            return null;
        }
        int end = target.length();
        int query = target.indexOf('?');
        if (query >= 0) {
            end = query;
        }
        int fragment = target.indexOf('#');
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        String path = target.substring(0, end);
        if (path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        String decoded = decodeUnreserved(path);
        return decoded == null ? null : removeDotSegments(decoded);
    }

    /**
     * Whether the normal-form {@code path} lies under {@code prefix}: a prefix ending in {@code /} matches every path
     * that starts with it; any other matches itself and the paths below it ({@code /user} matches {@code /user} and
     * {@code /user/emails}, not {@code /users}).
     */
    public static boolean under(String prefix, String path) {
        if (path == null) {
            return false;
        }
        if (prefix.endsWith("/")) {
            return path.startsWith(prefix);
        }
        return path.equals(prefix) || path.startsWith(prefix) && path.charAt(prefix.length()) == '/';
    }

    /**
     * A path prefix as a person typed it, checked: a string starting with {@code /}, at most
     * {@value #MAX_PREFIX_LENGTH} characters, without query or fragment, already in normal form; a 400 problem on
     * {@code field} otherwise (naming the normal form when there is one).
     */
    public static String prefix(String field, String typed) {
        if (typed.isEmpty() || typed.charAt(0) != '/') {
            throw ProblemException.invalidValue(field, shorten(typed), "must be a path prefix starting with /"
                    + " (/repos/acme/)");
        }
        if (typed.length() > MAX_PREFIX_LENGTH) {
            throw ProblemException.invalid(field, "must be at most " + MAX_PREFIX_LENGTH + " characters, not "
                    + typed.length());
        }
        if (typed.indexOf('?') >= 0 || typed.indexOf('#') >= 0) {
            throw ProblemException.invalidValue(field, typed, "must be a path without query or fragment");
        }
        String normal = normalise(typed);
        if (normal == null) {
            throw ProblemException.invalidValue(field, typed, "is not a path a request can match: only visible ASCII,"
                    + " no backslash, no encoded / or \\, no .. above the root");
        }
        if (!normal.equals(typed)) {
            throw ProblemException.invalidValue(field, typed, "must be in normal form: " + normal);
        }
        return typed;
    }

    private static String shorten(String typed) {
        return typed.length() <= 80 ? typed : typed.substring(0, 80) + "…";
    }

    /** Decodes percent-encoded unreserved characters; null for a character or an encoding that is refused. */
    private static String decodeUnreserved(String path) {
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x21 || c > 0x7e || c == '\\') {
                return null;
            }
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (i + 2 >= path.length()) {
                return null;
            }
            int high = Character.digit(path.charAt(i + 1), 16);
            int low = Character.digit(path.charAt(i + 2), 16);
            if (high < 0 || low < 0) {
                return null;
            }
            int value = high * 16 + low;
            i += 2;
            if (unreserved(value)) {
                out.append((char) value);
            } else if (value == '/' || value == '\\' || value < 0x20 || value == 0x7f) {
                return null;
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(high, 16)))
                        .append(Character.toUpperCase(Character.forDigit(low, 16)));
            }
        }
        return out.toString();
    }

    private static boolean unreserved(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    /** Collapses empty segments and resolves dot-segments; null when {@code ..} climbs above the root. */
    private static String removeDotSegments(String path) {
        Deque<String> segments = new ArrayDeque<>();
        String[] parts = path.substring(1).split("/", -1);
        boolean trailingSlash = false;
        for (int i = 0; i < parts.length; i++) {
            String segment = parts[i];
            boolean last = i == parts.length - 1;
            if (segment.startsWith(".;") || segment.startsWith("..;")) {
                return null;
            }
            if (segment.isEmpty() || segment.equals(".")) {
                trailingSlash = last;
                continue;
            }
            if (segment.equals("..")) {
                if (segments.isEmpty()) {
                    return null;
                }
                segments.removeLast();
                trailingSlash = last;
                continue;
            }
            segments.addLast(segment);
            trailingSlash = false;
        }
        if (segments.isEmpty()) {
            return "/";
        }
        StringBuilder out = new StringBuilder(path.length());
        for (String segment : segments) {
            out.append('/').append(segment);
        }
        if (trailingSlash) {
            out.append('/');
        }
        return out.toString();
    }
}
