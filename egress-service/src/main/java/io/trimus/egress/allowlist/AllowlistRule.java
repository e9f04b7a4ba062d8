package io.trimus.egress.allowlist;

import io.trimus.commons.problem.ProblemException;

import java.util.Optional;

/**
 * One allowlist entry understood: the host pattern it matches (an exact name or a {@code *.suffix} wildcard, as
 * {@link DomainNames} normalises it) and the one port it names, if any. {@code git.example.com:22} opens port 22 of
 * that name only; {@code api.example.com} opens the proxy's default ports. Either form makes the name resolvable.
 *
 * @param host normalised host pattern
 * @param port the port the entry names, or {@link #ANY_DEFAULT_PORT}
 */
public record AllowlistRule(String host, int port) {
    /** The entry names no port: it opens the proxy's default ports (TRIMUS_EGRESS_PROXY_PORTS). */
    public static final int ANY_DEFAULT_PORT = 0;
    static final int MAX_PORT = 65535;
    private static final String FORMS = "a host name (example.com) or a wildcard over a domain of at least two labels"
            + " (*.example.com), optionally followed by :port (git.example.com:22)";

    /** Whether the host pattern is a {@code *.suffix} wildcard. */
    public boolean wildcard() {
        return host.startsWith("*.");
    }

    /** Whether the entry names a port. */
    public boolean namesPort() {
        return port != ANY_DEFAULT_PORT;
    }

    /** The entry as it is stored and listed: {@code host} or {@code host:port}. */
    public String text() {
        return namesPort() ? host + ":" + port : host;
    }

    /** Whether the host pattern matches the normalised {@code name}; {@code *.example.com} matches sub-names only. */
    public boolean matches(String name) {
        return wildcard() ? name.endsWith(host.substring(1)) : host.equals(name);
    }

    /** A stored entry, already normalised (entries stored before ports existed have no colon). */
    public static AllowlistRule ofNormalised(String entry) {
        int colon = entry.lastIndexOf(':');
        if (colon < 0) {
            return new AllowlistRule(entry, ANY_DEFAULT_PORT);
        }
        return new AllowlistRule(entry.substring(0, colon), Integer.parseInt(entry.substring(colon + 1)));
    }

    /**
     * The normalised rule of an entry as a person typed it; a 400 problem on {@code field} that echoes the entry and
     * says what is wrong with it otherwise: not a host name, a port outside 1–65535 or not a number, a wildcard over
     * a public suffix.
     */
    public static AllowlistRule normalise(String field, String typed) {
        if (typed == null) {
            throw ProblemException.invalid(field, "must be " + FORMS + ", not null");
        }
        String trimmed = typed.strip();
        if (trimmed.contains("://")) {
            throw ProblemException.invalidValue(field, typed, "is a URL; list " + FORMS);
        }
        int colon = trimmed.lastIndexOf(':');
        int port = ANY_DEFAULT_PORT;
        if (colon >= 0) {
            port = port(trimmed.substring(colon + 1));
            if (port == ANY_DEFAULT_PORT) {
                throw ProblemException.invalidValue(field, typed, "must name a port from 1 to " + MAX_PORT
                        + " after the colon (git.example.com:22)");
            }
            trimmed = trimmed.substring(0, colon);
        }
        Optional<String> host = DomainNames.normalizeEntry(trimmed);
        if (host.isEmpty()) {
            throw ProblemException.invalidValue(field, typed, "is not " + FORMS);
        }
        Optional<String> publicSuffix = DomainNames.publicSuffixOpenedBy(host.get());
        if (publicSuffix.isPresent()) {
            throw ProblemException.invalidValue(field, typed, "would allow every name under the public suffix "
                    + publicSuffix.get() + ", which belongs to many unrelated owners; list the domain you need"
                    + " instead (*.example." + publicSuffix.get() + ")");
        }
        return new AllowlistRule(host.get(), port);
    }

    /** The port 1–65535 that {@code text} spells in decimal digits only, else {@link #ANY_DEFAULT_PORT}. */
    private static int port(String text) {
        if (text.isEmpty() || text.length() > 5) {
            return ANY_DEFAULT_PORT;
        }
        int port = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return ANY_DEFAULT_PORT;
            }
            port = port * 10 + (c - '0');
        }
        return port <= MAX_PORT ? port : ANY_DEFAULT_PORT;
    }
}
