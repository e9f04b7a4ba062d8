package io.trimus.egress.ca;

import io.trimus.egress.allowlist.DomainNames;

import java.util.Optional;

/** Which server names a leaf certificate is issued for: plain DNS host names, never an address or a wildcard. */
final class LeafHostNames {
    private LeafHostNames() {
    }

    /** The lower-case form of {@code serverName} when a leaf may be issued for it. */
    static Optional<String> of(String serverName) {
        if (serverName == null) {
            return Optional.empty();
        }
        String host = DomainNames.plainHostName(serverName);
        if (host == null || looksNumeric(host)) {
            return Optional.empty();
        }
        return Optional.of(host);
    }

    // a last label of digits only makes an address (1.2.3.4), not a name a dNSName may hold
    private static boolean looksNumeric(String host) {
        String last = host.substring(host.lastIndexOf('.') + 1);
        return last.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
