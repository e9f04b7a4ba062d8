package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Locale;

/**
 * Where a masked secret may be used: the company secret's name, the hosts its real value may be sent to (exact names
 * or {@code *.domain} wildcards, matched like allowlist entries) and the request headers that may carry it (lower
 * case). Nothing here is secret: it travels in clear in {@code run.requested} next to the sealed value.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record MaskScope(String secret, List<String> hosts, List<String> headers) {
    /** The headers a masked secret may ride in when its owner names none. */
    public static final List<String> DEFAULT_HEADERS = List.of("authorization", "x-api-key");
    /** Headers no masked secret may ride in: they are meant for the proxy, never forwarded. */
    public static final List<String> EXCLUDED_HEADERS = List.of("proxy-authorization");
    /** Most hosts and headers one masked secret may name. */
    public static final int MAX_HOSTS = 32;
    public static final int MAX_HEADERS = 8;

    public MaskScope {
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
        headers = headers == null || headers.isEmpty() ? DEFAULT_HEADERS
                : headers.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
    }

    /**
     * Whether {@code host} (a normalised, lower-case name without a trailing dot) is in scope: equal to an exact
     * entry, or a subdomain of a {@code *.domain} entry (not the domain itself), as the egress allowlist matches.
     */
    public boolean covers(String host) {
        for (String pattern : hosts) {
            if (pattern.startsWith("*.")) {
                String domain = pattern.substring(1);
                if (host.endsWith(domain) && host.length() > domain.length()) {
                    return true;
                }
            } else if (pattern.equals(host)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the (case-insensitive) header may carry this secret. */
    public boolean allowsHeader(String header) {
        return headers.contains(header.toLowerCase(Locale.ROOT));
    }
}
