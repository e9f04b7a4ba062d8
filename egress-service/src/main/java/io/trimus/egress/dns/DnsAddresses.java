package io.trimus.egress.dns;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Reads the {@code host:port} settings of the resolver and the system's first nameserver. */
public final class DnsAddresses {
    /** The DNS port, when a setting names only a host. */
    public static final int DNS_PORT = 53;

    private DnsAddresses() {
    }

    /**
     * {@code host:port}, {@code [v6]:port}, or a bare host (port 53), unresolved.
     *
     * @throws IllegalArgumentException naming {@code setting} when the value is not of that form
     */
    public static InetSocketAddress parse(String setting, String value) {
        String text = value == null ? "" : value.strip();
        String host;
        String port = null;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw invalid(setting, value);
            }
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw invalid(setting, value);
                }
                port = rest.substring(1);
            }
        } else if (text.indexOf(':') != text.lastIndexOf(':')) {
            host = text; // a bare IPv6 address
        } else {
            int colon = text.indexOf(':');
            host = colon < 0 ? text : text.substring(0, colon);
            port = colon < 0 ? null : text.substring(colon + 1);
        }
        if (host.isEmpty()) {
            throw invalid(setting, value);
        }
        int number = DNS_PORT;
        if (port != null) {
            try {
                number = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                throw invalid(setting, value);
            }
            if (number < 0 || number > 65535) {
                throw invalid(setting, value);
            }
        }
        return InetSocketAddress.createUnresolved(host, number);
    }

    /** The first {@code nameserver} of a resolv.conf file, port 53. */
    public static Optional<InetSocketAddress> firstNameserver(Path resolvConf) {
        try {
            for (String line : Files.readAllLines(resolvConf)) {
                String[] words = line.strip().split("\\s+");
                if (words.length >= 2 && words[0].equals("nameserver")) {
                    return Optional.of(InetSocketAddress.createUnresolved(words[1], DNS_PORT));
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static IllegalArgumentException invalid(String setting, String value) {
        return new IllegalArgumentException(setting + " must be host:port (e.g. 172.30.0.1:53), not '" + value + "'");
    }
}
