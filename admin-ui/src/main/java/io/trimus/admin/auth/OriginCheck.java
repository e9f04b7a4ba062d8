package io.trimus.admin.auth;

import io.trimus.admin.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses a state-changing request that another site's page made a browser send: its {@code Origin} (else its
 * {@code Referer}), when present, must be the dashboard's own origin: TRIMUS_DASHBOARD_URL when configured, else the
 * request's {@code Host}. Requests without either header (scripts) pass; they carry no cookie of a victim's browser
 * and still need a credential and, with a cookie, the CSRF token.
 */
@ApplicationScoped
public class OriginCheck {
    static final Set<String> STATE_CHANGING = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final TrimusConfig config;

    OriginCheck(TrimusConfig config) {
        this.config = config;
    }

    /** Whether the request may go on. */
    boolean allows(String method, String origin, String referer, String host) {
        if (!STATE_CHANGING.contains(method.toUpperCase(Locale.ROOT))) {
            return true;
        }
        String claimed = origin != null ? origin : referer;
        if (claimed == null || claimed.isBlank()) {
            return true;
        }
        Optional<URI> from = parse(claimed.strip());
        if (from.isEmpty()) {
            return false; // "null" (a sandboxed frame, a data: page) or garbage: never our own page
        }
        Optional<URI> own = config.dashboard().url();
        if (own.isPresent()) {
            return sameOrigin(from.get(), own.get());
        }
        return host != null && authority(from.get()).equalsIgnoreCase(host.strip());
    }

    private static boolean sameOrigin(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme()) && authority(a).equalsIgnoreCase(authority(b));
    }

    /** host[:port] as a Host header writes it: the default port of the scheme left out. */
    private static String authority(URI uri) {
        int port = uri.getPort();
        boolean defaultPort = port == -1 || ("http".equalsIgnoreCase(uri.getScheme()) && port == 80)
                || ("https".equalsIgnoreCase(uri.getScheme()) && port == 443);
        return uri.getHost() + (defaultPort ? "" : ":" + port);
    }

    private static Optional<URI> parse(String value) {
        try {
            URI uri = URI.create(value);
            return uri.getScheme() != null && uri.getHost() != null
                    && ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    ? Optional.of(uri) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
