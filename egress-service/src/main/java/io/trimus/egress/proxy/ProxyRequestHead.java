package io.trimus.egress.proxy;


import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One request head a sandbox sent the proxy, parsed strictly: {@code CONNECT host:port HTTP/1.x}, an absolute-form
 * {@code http://} request (what a client configured with HTTP_PROXY sends), or an origin-form {@code /path} request
 * (what a client steered to the transparent port 80 sends; its target is its Host header). Anything else
 * ({@code https://} targets, {@code *}, obsolete line folding, control characters) is malformed: the proxy answers
 * 400 rather than guess what a peer further on would make of it.
 *
 * @param target       where the request goes; for origin-form, the Host header's authority, null without one
 * @param absoluteForm whether the request named its target itself (CONNECT or {@code http://}), as a request to a
 *                     proxy does
 */
public record ProxyRequestHead(String method, ProxyTarget target, String originForm, String version,
                               List<Header> headers, boolean absoluteForm) {

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
     * Parses a head: the bytes up to and including the blank line.
     *
     * @throws MalformedRequest when it is not a request the proxy serves
     */
    static ProxyRequestHead parse(byte[] head) throws MalformedRequest {
        String text = new String(head, StandardCharsets.ISO_8859_1);
        if (!text.endsWith("\r\n\r\n")) {
            throw new MalformedRequest("no blank line ends the head");
        }
        String[] lines = text.substring(0, text.length() - 4).split("\r\n", -1);
        String[] requestLine = lines[0].split(" ", -1);
        if (requestLine.length != 3) {
            throw new MalformedRequest("request line '" + lines[0] + "'");
        }
        String method = requestLine[0];
        String uri = requestLine[1];
        String version = requestLine[2];
        if (!method.chars().allMatch(ProxyRequestHead::isTokenChar) || method.isEmpty()) {
            throw new MalformedRequest("method");
        }
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
            throw new MalformedRequest("version '" + version + "'");
        }
        if (uri.isEmpty() || !uri.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new MalformedRequest("request target");
        }
        List<Header> headers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            headers.add(parseHeader(lines[i]));
        }
        ProxyTarget target;
        String originForm;
        if (method.equals("CONNECT")) {
            target = ProxyTarget.parseAuthority(uri, -1);
            originForm = null;
        } else if (uri.startsWith("/")) {
            if (uri.indexOf('#') >= 0) {
                throw new MalformedRequest("fragment in an origin-form request target");
            }
            return new ProxyRequestHead(method, originTarget(headers), uri, version, List.copyOf(headers), false);
        } else {
            if (!uri.regionMatches(true, 0, "http://", 0, 7)) {
                throw new MalformedRequest("not an absolute-form http:// request target");
            }
            int pathStart = firstOf(uri, 7, "/?#");
            String authority = uri.substring(7, pathStart);
            target = ProxyTarget.parseAuthority(authority, 80);
            String rest = uri.substring(pathStart);
            int fragment = rest.indexOf('#');
            if (fragment >= 0) {
                rest = rest.substring(0, fragment);
            }
            originForm = rest.isEmpty() ? "/" : rest.startsWith("?") ? "/" + rest : rest;
        }
        return new ProxyRequestHead(method, target, originForm, version, List.copyOf(headers), true);
    }

    /** An origin-form request's target: its one Host header, port 80 when it names none; null without a Host. */
    private static ProxyTarget originTarget(List<Header> headers) throws MalformedRequest {
        Header host = null;
        for (Header header : headers) {
            if (header.name().equalsIgnoreCase("Host")) {
                if (host != null) {
                    throw new MalformedRequest("more than one Host header");
                }
                host = header;
            }
        }
        return host == null ? null : ProxyTarget.parseAuthority(host.value(), 80);
    }

    /** The head forwarded upstream: origin-form, hop-by-hop proxy headers dropped, Host present. */
    byte[] forwardedHead() {
        StringBuilder out = new StringBuilder(256);
        out.append(method).append(' ').append(originForm).append(' ').append(version).append("\r\n");
        if (header("Host") == null) {
            out.append("Host: ").append(authority()).append("\r\n");
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
            throw new MalformedRequest("header name '" + name + "'");
        }
        String value = line.substring(colon + 1).strip();
        if (!value.chars().allMatch(c -> c == '\t' || c >= 0x20 && c != 0x7f)) {
            throw new MalformedRequest("control character in header " + name);
        }
        return new Header(name, value);
    }

    private static int firstOf(String text, int from, String chars) {
        for (int i = from; i < text.length(); i++) {
            if (chars.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return text.length();
    }

    private static boolean isTokenChar(int c) {
        return c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }
}
