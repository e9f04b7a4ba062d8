package io.trimus.egress.proxy.admission;


import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One request head a sandbox sent the proxy, parsed strictly (RFC 9112 without its leniencies): {@code CONNECT
 * host:port HTTP/1.x}, an absolute-form {@code http://} or {@code https://} request (what a client configured with
 * HTTP_PROXY sends; {@code https://} only makes sense inside TLS the proxy terminates), or an origin-form
 * {@code /path} request (a steered client's; its target is its Host header). Every line ends with CR LF; a bare LF
 * or CR, obsolete line folding, a space before a header's colon, control characters, two Host headers, the
 * asterisk-form, fragments and any version but HTTP/1.0 and 1.1 are malformed: the proxy answers 400 rather than
 * guess what a peer further on would make of them.
 *
 * @param target       where the request goes; for origin-form, the Host header's authority, null without one
 * @param absoluteForm whether the request named its target itself (CONNECT, {@code http://}, {@code https://}), as
 *                     a request to a proxy does
 * @param scheme       {@code http} or {@code https} for an absolute-form request, else null
 */
public record ProxyRequestHead(String method, ProxyTarget target, String originForm, String version,
                               List<Header> headers, boolean absoluteForm, String scheme) {

    /** One header line as sent. */
    public record Header(String name, String value) {
    }

    /** Whether this is a CONNECT (a tunnel), else a plain HTTP request to forward. */
    public boolean isConnect() {
        return method.equals("CONNECT");
    }

    /** The value of the first header named {@code name} (any case), or null. */
    public String header(String name) {
        for (Header header : headers) {
            if (header.name().equalsIgnoreCase(name)) {
                return header.value();
            }
        }
        return null;
    }

    /** How many headers named {@code name} (any case) there are. */
    int count(String name) {
        return (int) headers.stream().filter(header -> header.name().equalsIgnoreCase(name)).count();
    }

    /**
     * Parses a head: the bytes up to and including the blank line (empty lines before the request line, which a
     * server should ignore, are skipped).
     *
     * @throws MalformedRequest when it is not a request the proxy reads unambiguously
     */
    static ProxyRequestHead parse(byte[] head) throws MalformedRequest {
        String text = new String(head, StandardCharsets.ISO_8859_1);
        int from = 0;
        while (text.startsWith("\r\n", from)) {
            from += 2;
        }
        if (!text.endsWith("\r\n\r\n") || text.length() - from < 4) {
            throw new MalformedRequest("no blank line ends the head");
        }
        String[] lines = text.substring(from, text.length() - 4).split("\r\n", -1);
        for (String line : lines) {
            if (line.indexOf('\r') >= 0 || line.indexOf('\n') >= 0) {
                throw new MalformedRequest("a line ends with a bare CR or LF");
            }
        }
        String[] requestLine = lines[0].split(" ", -1);
        if (requestLine.length != 3) {
            throw new MalformedRequest("request line");
        }
        String method = requestLine[0];
        String uri = requestLine[1];
        String version = requestLine[2];
        if (method.isEmpty() || !method.chars().allMatch(ProxyRequestHead::isTokenChar)) {
            throw new MalformedRequest("method");
        }
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
            throw new MalformedRequest("version");
        }
        if (uri.isEmpty() || !uri.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new MalformedRequest("request target");
        }
        List<Header> headers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            headers.add(parseHeader(lines[i]));
        }
        Header host = oneHost(headers);
        if (method.equals("CONNECT")) {
            return new ProxyRequestHead(method, ProxyTarget.parseAuthority(uri, -1), null, version,
                    List.copyOf(headers), true, null);
        }
        if (uri.startsWith("/")) {
            if (uri.indexOf('#') >= 0) {
                throw new MalformedRequest("fragment in an origin-form request target");
            }
            ProxyTarget target = host == null ? null : ProxyTarget.parseAuthority(host.value(), 80);
            return new ProxyRequestHead(method, target, uri, version, List.copyOf(headers), false, null);
        }
        String scheme = uri.regionMatches(true, 0, "http://", 0, 7) ? "http"
                : uri.regionMatches(true, 0, "https://", 0, 8) ? "https" : null;
        if (scheme == null) {
            throw new MalformedRequest("not an origin-form or absolute-form http(s):// request target");
        }
        int authorityStart = scheme.length() + 3;
        int pathStart = firstOf(uri, authorityStart, "/?#");
        ProxyTarget target = ProxyTarget.parseAuthority(uri.substring(authorityStart, pathStart),
                scheme.equals("http") ? 80 : 443);
        String rest = uri.substring(pathStart);
        if (rest.indexOf('#') >= 0) {
            throw new MalformedRequest("fragment in an absolute-form request target");
        }
        String originForm = rest.isEmpty() ? "/" : rest.startsWith("?") ? "/" + rest : rest;
        return new ProxyRequestHead(method, target, originForm, version, List.copyOf(headers), true, scheme);
    }

    /** The one Host header, or null; two are malformed (which one would a peer further on believe?). */
    private static Header oneHost(List<Header> headers) throws MalformedRequest {
        Header host = null;
        for (Header header : headers) {
            if (header.name().equalsIgnoreCase("Host")) {
                if (host != null) {
                    throw new MalformedRequest("more than one Host header");
                }
                host = header;
            }
        }
        return host;
    }

    /** The head forwarded upstream: origin-form, the proxy's own headers dropped, Host present. */
    public byte[] forwardedHead() {
        return forwardedHead(authority());
    }

    /**
     * The head forwarded upstream: origin-form, {@code Proxy-Connection} and {@code Proxy-Authorization} dropped, a
     * Host header {@code hostIfMissing} added when the request had none.
     */
    public byte[] forwardedHead(String hostIfMissing) {
        StringBuilder out = new StringBuilder(256);
        out.append(method).append(' ').append(originForm).append(' ').append(version).append("\r\n");
        if (header("Host") == null) {
            out.append("Host: ").append(hostIfMissing).append("\r\n");
        }
        for (Header header : headers) {
            String name = header.name().toLowerCase(Locale.ROOT);
            if (!name.equals("proxy-connection") && !name.equals("proxy-authorization")) {
                out.append(header.name()).append(": ").append(header.value()).append("\r\n");
            }
        }
        return out.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private String authority() {
        String host = target.host().indexOf(':') >= 0 ? "[" + target.host() + "]" : target.host();
        return target.port() == 80 ? host : host + ":" + target.port();
    }

    private static Header parseHeader(String line) throws MalformedRequest {
        int colon = line.indexOf(':');
        if (colon <= 0) {
            throw new MalformedRequest("header line without a name");
        }
        String name = line.substring(0, colon);
        if (!name.chars().allMatch(ProxyRequestHead::isTokenChar)) {
            // also refuses obsolete line folding (a line starting with a space) and "Name : value"
            throw new MalformedRequest("header name");
        }
        String value = trimOptionalWhitespace(line.substring(colon + 1));
        if (!value.chars().allMatch(c -> c == '\t' || c >= 0x20 && c != 0x7f)) {
            throw new MalformedRequest("control character in header " + name);
        }
        return new Header(name, value);
    }

    /** Without leading and trailing spaces and tabs (and nothing else: a control byte stays, to be refused). */
    private static String trimOptionalWhitespace(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return value.substring(start, end);
    }

    private static int firstOf(String text, int from, String chars) {
        for (int i = from; i < text.length(); i++) {
            if (chars.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return text.length();
    }

    static boolean isTokenChar(int c) {
        return c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }
}
