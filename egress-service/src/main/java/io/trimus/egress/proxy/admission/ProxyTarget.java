package io.trimus.egress.proxy.admission;

/**
 * Where a sandbox asks the proxy to connect: the host as the client wrote it (lower case, IPv6 without brackets) and
 * the port.
 */
public record ProxyTarget(String host, int port) {

    /** Parses {@code host:port} or {@code [v6]:port}; {@code defaultPort} when the port is absent, -1 to require it. */
    static ProxyTarget parseAuthority(String authority, int defaultPort) throws MalformedRequest {
        if (authority.isEmpty() || authority.indexOf('@') >= 0) {
            throw new MalformedRequest("authority '" + authority + "'");
        }
        String host;
        String port;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new MalformedRequest("authority '" + authority + "'");
            }
            host = authority.substring(1, close);
            String rest = authority.substring(close + 1);
            if (!rest.isEmpty() && !rest.startsWith(":")) {
                throw new MalformedRequest("authority '" + authority + "'");
            }
            port = rest.isEmpty() ? null : rest.substring(1);
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
            if (host.indexOf(':') >= 0) {
                throw new MalformedRequest("authority '" + authority + "'");
            }
        }
        if (host.isEmpty()) {
            throw new MalformedRequest("authority '" + authority + "' names no host");
        }
        int number;
        if (port == null) {
            if (defaultPort < 0) {
                throw new MalformedRequest("authority '" + authority + "' names no port");
            }
            number = defaultPort;
        } else {
            if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new MalformedRequest("port '" + port + "'");
            }
            number = Integer.parseInt(port);
            if (number < 1 || number > 65535) {
                throw new MalformedRequest("port " + number);
            }
        }
        return new ProxyTarget(host.toLowerCase(java.util.Locale.ROOT), number);
    }
}
