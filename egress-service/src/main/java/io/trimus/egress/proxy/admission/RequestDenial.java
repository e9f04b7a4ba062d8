package io.trimus.egress.proxy.admission;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trimus.egress.allowlist.RequestPaths;
import io.trimus.egress.allowlist.RuledEntry;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A request the request rules of its host refused ({@link #check}), and the answer an agent can act on: {@code 403}
 * with {@code {"error": "egress_denied", "host", "method", "path", "reason", "rule_hint"}}, where {@code rule_hint}
 * is the allowlist entry that would let this request through (null when none can: a path without normal form).
 *
 * @param host     the normalised host the connection was admitted for
 * @param method   the request's method as sent
 * @param path     the request's path: its normal form, or as sent (without the query, at most 512 characters) when it
 *                 has none
 * @param reason   {@value #METHOD_NOT_ALLOWED}, {@value #PATH_NOT_ALLOWED} or {@value #PATH_REFUSED}
 * @param ruleHint the entry that would allow the request, or null
 */
public record RequestDenial(String host, String method, String path, String reason, ObjectNode ruleHint) {
    /** No entry for the host lists the request's method. */
    public static final String METHOD_NOT_ALLOWED = "method_not_allowed";
    /** An entry lists the method, but none of the path prefixes of the entries that do covers the path. */
    public static final String PATH_NOT_ALLOWED = "path_not_allowed";
    /** The path has no normal form (an encoded / or \, a .. above the root, …): it matches no prefix. */
    public static final String PATH_REFUSED = "path_refused";
    /** The anomaly reason of a refused request (and of one report mode let through). */
    public static final String ANOMALY_REASON = "proxy_request_denied";
    /** Longest method a denial names (the anomaly's column). */
    static final int MAX_METHOD_LENGTH = 64;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Checks a request against the request rules of every list that has some for its host and port
     * ({@link ProxyPolicy#requestRules}: the company's, then the agent's own): it passes when it passes each list's;
     * the denial is the first list's that refuses it, its {@code rule_hint} an entry that list would need.
     *
     * @param lists  per list, the entries of which the request must pass one; empty: no rules
     * @param target the request target as sent in origin-form ({@code /path?query})
     * @return null when the request may go on
     */
    public static RequestDenial checkAll(List<List<RuledEntry>> lists, String host, int port, String method,
                                         String target) {
        for (List<RuledEntry> rules : lists) {
            RequestDenial denial = check(rules, host, port, method, target);
            if (denial != null) {
                return denial;
            }
        }
        return null;
    }

    /**
     * Checks a request against the entries with request rules of one list that opened its host and port: it passes
     * when one of them allows its method and normalised path.
     *
     * @param rules  the entries ({@link io.trimus.egress.allowlist.AllowlistCache#requestRules}); empty: no rules
     * @param target the request target as sent in origin-form ({@code /path?query})
     * @return null when the request may go on
     */
    public static RequestDenial check(List<RuledEntry> rules, String host, int port, String method, String target) {
        if (rules.isEmpty()) {
            return null;
        }
        String shownMethod = method.length() <= MAX_METHOD_LENGTH ? method : method.substring(0, MAX_METHOD_LENGTH);
        String path = RequestPaths.normalise(target);
        boolean methodListed = false;
        for (RuledEntry entry : rules) {
            if (entry.allowsRequest(method, path)) {
                return null;
            }
            methodListed |= entry.methods().isEmpty() || entry.methods().contains(method);
        }
        String shown = cut(path != null ? path : asSent(target));
        if (path == null) {
            return new RequestDenial(host, shownMethod, shown, PATH_REFUSED, null);
        }
        return new RequestDenial(host, shownMethod, shown, methodListed ? PATH_NOT_ALLOWED : METHOD_NOT_ALLOWED,
                hint(host, port, method, path));
    }

    /** The entry that would allow this one request: its host, its port when not 443 or 80, method and path. */
    private static ObjectNode hint(String host, int port, String method, String path) {
        if (path.length() > RequestPaths.MAX_PREFIX_LENGTH) {
            return null;
        }
        ObjectNode hint = JSON.createObjectNode();
        hint.put("host", host);
        if (port != 443 && port != 80) {
            hint.putArray("ports").add(port);
        }
        if (RuledEntry.METHODS.contains(method)) {
            hint.putArray("methods").add(method);
        }
        hint.putArray("paths").add(path);
        return hint;
    }

    private static String asSent(String target) {
        String path = target == null ? "" : target;
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        return path;
    }

    private static String cut(String path) {
        return path.length() <= RequestPaths.MAX_PREFIX_LENGTH ? path
                : path.substring(0, RequestPaths.MAX_PREFIX_LENGTH);
    }

    /** The JSON body of the answer. */
    public String body() {
        ObjectNode body = JSON.createObjectNode();
        body.put("error", "egress_denied");
        body.put("host", host);
        body.put("method", method);
        body.put("path", path);
        body.put("reason", reason);
        body.set("rule_hint", ruleHint);
        return body.toString();
    }

    /** The whole answer, {@code Connection: close} when the connection ends after it. */
    public byte[] response(boolean close) {
        byte[] body = body().getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                + "\r\nCache-Control: no-store\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n";
        byte[] bytes = new byte[head.length() + body.length];
        System.arraycopy(head.getBytes(StandardCharsets.ISO_8859_1), 0, bytes, 0, head.length());
        System.arraycopy(body, 0, bytes, head.length(), body.length);
        return bytes;
    }
}
