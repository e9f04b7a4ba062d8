package io.trimus.egress.canary;

import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.events.CanaryRequested;
import jakarta.enterprise.context.ApplicationScoped;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What a company's canary tries, decided from the allowlist the resolver and the proxy hold right now: a fresh name
 * the company does not allow, the operator's address literal, one host it does allow (an exact entry before a
 * wildcard's {@value #WILDCARD_LABEL} name) and a port the proxy must refuse for it.
 */
@ApplicationScoped
public class CanaryTargets {
    /** The suffix of every canary's unlisted name; {@code .invalid} never resolves anywhere (RFC 6761). */
    static final String UNLISTED_SUFFIX = ".canary.trimus.invalid";
    static final String WILDCARD_LABEL = "trimus-canary";
    /** Ports the unlisted-port check tries, the first the company does not open for the host. */
    static final List<Integer> UNLISTED_PORTS = List.of(25, 2525, 6667, 31337);
    private static final Pattern PLAIN_ENTRY = Pattern.compile("(\\*\\.)?[a-z0-9.-]+(:[0-9]{1,5})?");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final AllowlistCache allowlists;
    private final Set<Integer> defaultPorts;
    private final String ipLiteral;

    @jakarta.inject.Inject
    CanaryTargets(AllowlistCache allowlists, TrimusConfig config) {
        this(allowlists, Set.copyOf(config.egress().proxy().ports()), config.egress().canary().ipLiteral());
    }

    CanaryTargets(AllowlistCache allowlists, Set<Integer> defaultPorts, String ipLiteral) {
        this.allowlists = allowlists;
        this.defaultPorts = defaultPorts;
        this.ipLiteral = ipLiteral;
    }

    /** The request for canary {@code canaryId} of the company. */
    public CanaryRequested request(UUID canaryId, UUID companyId) {
        String unlisted = unlistedName(companyId);
        Optional<String> allowed = allowedHost(companyId);
        String portHost = allowed.map(CanaryTargets::hostOf).orElse(unlisted);
        int port = UNLISTED_PORTS.stream()
                .filter(p -> !allowlists.allowsPort(companyId, portHost, p, defaultPorts))
                .findFirst().orElse(UNLISTED_PORTS.get(UNLISTED_PORTS.size() - 1));
        return new CanaryRequested(UUID.randomUUID(), canaryId, companyId, unlisted, ipLiteral, allowed.orElse(null),
                port, Instant.now());
    }

    /** A fresh random name under {@value #UNLISTED_SUFFIX} that the company does not allow. */
    String unlistedName(UUID companyId) {
        for (int i = 0; i < 8; i++) {
            byte[] bytes = new byte[5];
            RANDOM.nextBytes(bytes);
            String name = "c" + HexFormat.of().formatHex(bytes) + UNLISTED_SUFFIX;
            if (!allowlists.allows(companyId, name)) {
                return name;
            }
        }
        // the company allow-listed *.canary.trimus.invalid or a parent: its canaries say so (unlisted_name breached)
        return "c0" + UNLISTED_SUFFIX;
    }

    /** {@code host:port} of an allow-listed host the proxy must admit, or empty when the list names none. */
    Optional<String> allowedHost(UUID companyId) {
        List<String> entries = allowlists.entries(companyId).orElse(List.of()).stream()
                .filter(e -> PLAIN_ENTRY.matcher(e).matches())
                .toList();
        Optional<String> exact = entries.stream().filter(e -> !e.startsWith("*.")).findFirst();
        Optional<String> chosen = exact.or(() -> entries.stream().findFirst());
        return chosen.map(this::target);
    }

    private String target(String entry) {
        String host = hostOf(entry);
        if (host.startsWith("*.")) {
            host = WILDCARD_LABEL + host.substring(1);
        }
        int colon = entry.lastIndexOf(':');
        int port = colon > 0 ? Integer.parseInt(entry.substring(colon + 1))
                : defaultPorts.contains(443) ? 443 : defaultPorts.iterator().next();
        return host + ":" + port;
    }

    private static String hostOf(String entryOrTarget) {
        int colon = entryOrTarget.lastIndexOf(':');
        return colon > 0 ? entryOrTarget.substring(0, colon) : entryOrTarget;
    }
}
