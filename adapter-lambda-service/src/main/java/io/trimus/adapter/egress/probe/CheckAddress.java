package io.trimus.adapter.egress.probe;

import java.net.InetSocketAddress;

/** Reads a probe's {@code host:port} setting (TRIMUS_EGRESS_RESOLVER_CHECK_ADDR, TRIMUS_EGRESS_PROXY_CHECK_ADDR). */
final class CheckAddress {
    private CheckAddress() {
    }

    /**
     * The address {@code hostPort} names.
     *
     * @param setting the variable it came from, for the message
     * @param example a well-formed value, for the message
     * @throws IllegalArgumentException naming the setting when it is not {@code host:port} with a port in 1–65535
     */
    static InetSocketAddress parse(String hostPort, String setting, String example) {
        int colon = hostPort.lastIndexOf(':');
        try {
            if (colon <= 0) {
                throw new IllegalArgumentException();
            }
            int port = Integer.parseInt(hostPort.substring(colon + 1));
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException();
            }
            return new InetSocketAddress(hostPort.substring(0, colon), port);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    setting + " must be host:port, e.g. " + example + ", got '" + hostPort + "'");
        }
    }
}
