package io.trimus.adapter.canary;

import io.trimus.events.CanaryRequested;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What one canary's probe tries, checked before anything starts: the request's names, address and ports, the
 * sandbox's resolver and proxy, and the host addresses of the bridge route. The probe script gets them as
 * {@code CANARY_*} variables, the checks get them as their targets; nothing from the request reaches the script
 * unchecked.
 *
 * @param unlistedName the name the resolver and proxy must refuse
 * @param ipHost       the public address literal, without brackets
 * @param ipPort       its port
 * @param allowedHost  {@code host:port} the proxy must admit, or null
 * @param unlistedPort the port the proxy must refuse
 * @param resolver     the sandbox's resolver address
 * @param proxy        {@code host:port} of the sandbox's explicit proxy
 * @param gateway      the egress network's gateway (the host's side of the bridge)
 */
record ProbeTargets(String unlistedName, String ipHost, int ipPort, String allowedHost, int unlistedPort,
                    String resolver, String proxy, String gateway) {

    /** The host's address on Docker's default bridge, docker0, which a sandbox must not reach either. */
    static final String DOCKER0 = "172.17.0.1";
    /**
     * How long the probe waits for the proxy's answer to one request: longer than the proxy's own dial timeout
     * (TRIMUS_EGRESS_PROXY_CONNECT_TIMEOUT, 10 s), so an admitted target's 502 arrives rather than nothing.
     */
    static final int PROXY_WAIT_SECONDS = 15;
    /** A port Trimus never opens on the host: an answer there means the host let the packet in. */
    static final int BRIDGE_PORT = 22;

    private static final Pattern NAME = Pattern.compile("(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})"
            + "(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\\.?");
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    /** A request that cannot be probed, with the field that was wrong. */
    static final class Invalid extends Exception {
        Invalid(String why) {
            super(why, null, false, false);
        }
    }

    /**
     * The targets of {@code request} for a sandbox resolving through {@code resolver} and proxied by
     * {@code resolver:proxyPort}.
     *
     * @throws Invalid naming the field of the request that cannot be used
     */
    static ProbeTargets of(CanaryRequested request, String resolver, int proxyPort, String gateway) throws Invalid {
        String name = request.unlistedName();
        if (name == null || !NAME.matcher(name).matches()) {
            throw new Invalid("unlisted_name is not a DNS name");
        }
        HostPort ip = HostPort.parse(request.ipLiteral())
                .filter(hp -> isAddress(hp.host()))
                .orElseThrow(() -> new Invalid("ip_literal is not address:port"));
        String allowed = null;
        if (request.allowedHost() != null) {
            HostPort host = HostPort.parse(request.allowedHost())
                    .filter(hp -> NAME.matcher(hp.host()).matches() || isAddress(hp.host()))
                    .orElseThrow(() -> new Invalid("allowed_host is not host:port"));
            allowed = host.text();
        }
        if (request.unlistedPort() < 1 || request.unlistedPort() > 65535) {
            throw new Invalid("unlisted_port is not a port");
        }
        return new ProbeTargets(name, ip.host(), ip.port(), allowed, request.unlistedPort(), resolver,
                resolver + ":" + proxyPort, gateway);
    }

    /** The probe's parameters, as the script reads them. */
    Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CANARY_UNLISTED_NAME", unlistedName);
        env.put("CANARY_IP_HOST", ipHost);
        env.put("CANARY_IP_PORT", String.valueOf(ipPort));
        env.put("CANARY_IP_LITERAL", ipLiteral());
        env.put("CANARY_METADATA", CanaryRequested.METADATA_ADDRESS);
        env.put("CANARY_PORT_TARGET", portTarget());
        env.put("CANARY_GATEWAY", gateway);
        env.put("CANARY_DOCKER0", DOCKER0);
        env.put("CANARY_ALLOWED_HOST", allowedHost == null ? "" : allowedHost);
        env.put("CANARY_PROXY_HOST", proxy.substring(0, proxy.lastIndexOf(':')));
        env.put("CANARY_PROXY_PORT", proxy.substring(proxy.lastIndexOf(':') + 1));
        env.put("CANARY_PROXY_WAIT", String.valueOf(PROXY_WAIT_SECONDS));
        return env;
    }

    /** The address literal as a CONNECT target. */
    String ipLiteral() {
        return (ipHost.contains(":") ? "[" + ipHost + "]" : ipHost) + ":" + ipPort;
    }

    /** What the unlisted port is tried on: the allowed host, else the unlisted name. */
    String portTarget() {
        String host = allowedHost == null ? unlistedName : allowedHost.substring(0, allowedHost.lastIndexOf(':'));
        return host + ":" + unlistedPort;
    }

    /** A CONNECT of {@code target} through the sandbox's proxy, as a check's target. */
    String viaProxy(String request) {
        return request + " via " + proxy;
    }

    private static boolean isAddress(String host) {
        var v4 = IPV4.matcher(host);
        if (v4.matches()) {
            for (int i = 1; i <= 4; i++) {
                if (Integer.parseInt(v4.group(i)) > 255) {
                    return false;
                }
            }
            return true;
        }
        return host.contains(":") && IPV6.matcher(host).matches();
    }

    /** {@code host:port}, an IPv6 host in brackets. */
    record HostPort(String host, int port) {
        static Optional<HostPort> parse(String text) {
            if (text == null) {
                return Optional.empty();
            }
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                return Optional.empty();
            }
            String host = text.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            } else if (host.contains(":")) {
                return Optional.empty();
            }
            try {
                int port = Integer.parseInt(text.substring(colon + 1));
                return port < 1 || port > 65535 || host.isEmpty() ? Optional.empty() : Optional.of(new HostPort(host, port));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }

        String text() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }
}
