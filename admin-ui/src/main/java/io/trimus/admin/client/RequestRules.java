package io.trimus.admin.client;

import io.trimus.admin.client.AllowlistEntries.Parts;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How one allowlist judges a request through the egress proxy, read the way egress-service's proxy reads it (docs/
 * egress.md, "Request rules"), so a denial can show the entries that refused it and "Add this path" can widen the list
 * that refused it: for the request's host and port, a list lets the request through when an entry without request
 * rules opens them (a plain tunnel), or when one of its entries with rules for them allows both the method and the
 * path. A list where no entry opens the host and port refuses it too. The proxy's default ports are taken to be 443
 * and 80 (its default setting); the path of a {@code proxy_request_denied} is already in normal form, as the rules
 * match it.
 */
public final class RequestRules {
    /** The ports an entry without ports opens: the proxy's default ports. */
    public static final Set<Integer> DEFAULT_PORTS = Set.of(443, 80);

    private RequestRules() {
    }

    /** A request to {@code host} (normalised) on {@code port}: its method and its normalised path. */
    public record Request(String host, int port, String method, String path) {
        /**
         * The request of a {@code proxy_request_denied}: the host and port from its {@code qname} ({@code :port}
         * appended when neither 443 nor 80), else 80 for a plain-HTTP request ({@code qtype} HTTP) and 443 otherwise.
         */
        public static Request of(String qname, String qtype, String method, String path) {
            String name = qname == null ? "" : qname.strip();
            int port = "HTTP".equals(qtype) ? 80 : 443;
            int colon = name.lastIndexOf(':');
            if (colon > 0 && name.substring(colon + 1).matches("\\d{1,5}")) {
                port = Integer.parseInt(name.substring(colon + 1));
                name = name.substring(0, colon);
            }
            return new Request(AllowlistEntries.parts(name).host(), port, method, path);
        }

        /** Whether a rule can allow it: a method rules may list, and a path that can be a prefix (starts with /). */
        public boolean allowable() {
            return method != null && AllowlistEntries.METHODS.contains(method) && path != null
                    && path.startsWith("/") && path.length() <= AllowlistEntries.MAX_PATH && !host.isEmpty();
        }
    }

    /**
     * Empty when {@code entries} let {@code request} through; else the entries with request rules for its host and
     * port that refused it (an empty list: no entry opens the host and port at all).
     */
    public static Optional<List<Parts>> refusal(List<String> entries, Request request) {
        List<Parts> ruled = new ArrayList<>();
        for (String text : entries) {
            Parts entry = AllowlistEntries.parts(text);
            if (!matches(entry.host(), request.host()) || !opens(entry, request.port())) {
                continue;
            }
            if (!entry.ruled() || allows(entry, request.method(), request.path())) {
                return Optional.empty();
            }
            ruled.add(entry);
        }
        return Optional.of(List.copyOf(ruled));
    }

    /**
     * {@code entries} widened so that they let {@code request} through, changing as little as they can: an object entry
     * for exactly the request's host and port that lists the method gets the path; else one whose paths cover the path
     * gets the method; else the first such entry gets both; without one (or when its list is full at
     * {@value AllowlistEntries#MAX_ITEMS}) the list gets a new entry {@code {"host", "methods": [method], "paths":
     * [path]}} ({@code ports} only for a port other than 443 and 80). The widened entry replaces the old one.
     */
    public static List<String> widened(List<String> entries, Request request) {
        List<Parts> candidates = new ArrayList<>();
        for (String text : entries) {
            Parts entry = AllowlistEntries.parts(text);
            if (entry.object() && entry.ruled() && entry.host().equals(request.host())
                    && opens(entry, request.port())) {
                candidates.add(entry);
            }
        }
        String method = request.method();
        String path = request.path();
        for (Parts c : candidates) {
            if ((c.methods().isEmpty() || c.methods().contains(method))
                    && c.paths().size() < AllowlistEntries.MAX_ITEMS) {
                return replaced(entries, c, AllowlistEntries.withRequest(c, null, path));
            }
        }
        for (Parts c : candidates) {
            if (coversPath(c, path) && c.methods().size() < AllowlistEntries.MAX_ITEMS) {
                return replaced(entries, c, AllowlistEntries.withRequest(c, method, null));
            }
        }
        for (Parts c : candidates) {
            if (c.methods().size() < AllowlistEntries.MAX_ITEMS && c.paths().size() < AllowlistEntries.MAX_ITEMS) {
                return replaced(entries, c, AllowlistEntries.withRequest(c, method, path));
            }
        }
        Parts fresh = new Parts("", true, request.host(),
                DEFAULT_PORTS.contains(request.port()) ? List.of() : List.of(request.port()), List.of(), List.of());
        List<String> more = new ArrayList<>(entries);
        more.add(AllowlistEntries.withRequest(fresh, method, path));
        return more;
    }

    /**
     * Whether {@code path} lies under {@code prefix}: a prefix ending in / covers what starts with it; another covers
     * itself and what lies below it ({@code /user} covers {@code /user} and {@code /user/emails}, not {@code /users}).
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

    /** Whether the host pattern ({@code *.example.com} covers every name below example.com) matches {@code name}. */
    static boolean matches(String pattern, String name) {
        return pattern.startsWith("*.") ? name.endsWith(pattern.substring(1)) : pattern.equals(name);
    }

    private static boolean opens(Parts entry, int port) {
        return entry.ports().isEmpty() ? DEFAULT_PORTS.contains(port) : entry.ports().contains(port);
    }

    private static boolean allows(Parts entry, String method, String path) {
        return (entry.methods().isEmpty() || entry.methods().contains(method)) && coversPath(entry, path);
    }

    private static boolean coversPath(Parts entry, String path) {
        return entry.paths().isEmpty() || entry.paths().stream().anyMatch(prefix -> under(prefix, path));
    }

    private static List<String> replaced(List<String> entries, Parts old, String entry) {
        List<String> out = new ArrayList<>(entries.size());
        for (String text : entries) {
            out.add(text.equals(old.text()) ? entry : text);
        }
        return out;
    }
}
