package io.trimus.run.service.secret;

import io.trimus.commons.problem.ProblemException;
import io.trimus.events.MaskScope;
import io.trimus.events.adapter.AdapterType;
import com.google.common.net.InternetDomainName;
import io.trimus.events.secrets.MaskHosts;

import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of masked secrets in run-service: what a PUT may say about a secret's mask (hosts, headers, a value a
 * surrogate can be made of) and which adapters may take a masked secret into a run.
 */
public final class MaskedSecrets {
    /** Shortest and longest masked value, in characters: a surrogate of its shape must be guessable by no one. */
    public static final int MIN_VALUE_CHARS = 16;
    public static final int MAX_VALUE_CHARS = 4096;
    /** Longest header name. */
    public static final int MAX_HEADER_CHARS = 128;
    /** RFC 9110 token characters: what an HTTP header name is made of. */
    private static final Pattern HEADER = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1," + MAX_HEADER_CHARS + "}");
    /**
     * Adapters whose runs never hand a masked secret's real value to code the agent runs: the sandboxed ones get a
     * surrogate, lambda sends the value itself. A host process or a remote worker would hold the real value.
     */
    private static final Set<AdapterType> MAY_USE = EnumSet.of(AdapterType.DOCKER, AdapterType.CLAUDE_SANDBOX,
            AdapterType.CODEX_SANDBOX, AdapterType.LAMBDA);

    private MaskedSecrets() {
    }

    /**
     * The scope a PUT gives secret {@code name}, hosts and headers normalised; null when the secret is plain. A 400
     * naming the field when {@code masked} is true without hosts, hosts or headers come without it, an entry is
     * invalid, or a masked value could not be stood in for by a surrogate.
     */
    static MaskScope scope(String name, Boolean masked, List<String> hosts, List<String> headers, String value) {
        if (!Boolean.TRUE.equals(masked)) {
            if (hosts != null) {
                throw ProblemException.invalid("hosts", "only apply to a masked secret: add \"masked\": true, or"
                        + " leave hosts out");
            }
            if (headers != null) {
                throw ProblemException.invalid("headers", "only apply to a masked secret: add \"masked\": true, or"
                        + " leave headers out");
            }
            return null;
        }
        List<String> scopedHosts = hosts(hosts);
        List<String> scopedHeaders = headers == null ? MaskScope.DEFAULT_HEADERS : headers(headers);
        checkValue(value);
        return new MaskScope(name, scopedHosts, scopedHeaders);
    }

    /** Whether a run executed by {@code runsAs} (a remote agent's run is {@code remote}) may take a masked secret. */
    public static boolean mayUse(AdapterType runsAs) {
        return MAY_USE.contains(runsAs);
    }

    private static List<String> hosts(List<String> hosts) {
        if (hosts == null || hosts.isEmpty()) {
            throw ProblemException.invalid("hosts", "must name at least one host for a masked secret: the hosts its"
                    + " real value may be sent to, e.g. [\"api.anthropic.com\"] or [\"*.github.com\"]");
        }
        if (hosts.size() > MaskScope.MAX_HOSTS) {
            throw ProblemException.invalid("hosts", "must name at most " + MaskScope.MAX_HOSTS + " hosts, not "
                    + hosts.size());
        }
        Set<String> normalised = new LinkedHashSet<>();
        for (int i = 0; i < hosts.size(); i++) {
            String field = "hosts[" + i + "]";
            String host;
            try {
                host = MaskHosts.normalize(hosts.get(i));
            } catch (MaskHosts.InvalidHost e) {
                throw hosts.get(i) == null ? ProblemException.invalid(field, e.getMessage())
                        : ProblemException.invalidValue(field, hosts.get(i), e.getMessage());
            }
            if (host.startsWith("*.") && isPublicSuffix(host.substring(2))) {
                throw ProblemException.invalidValue(field, hosts.get(i), "is a wildcard over the public suffix "
                        + host.substring(2) + ", which would send the secret to every site registered under it;"
                        + " name the provider's own domain");
            }
            normalised.add(host);
        }
        return List.copyOf(normalised);
    }

    /** Whether {@code domain} is on the public suffix list (co.uk, github.io…), as the egress allowlist checks. */
    private static boolean isPublicSuffix(String domain) {
        try {
            return InternetDomainName.from(domain).isPublicSuffix();
        } catch (IllegalArgumentException notParsed) {
            return false;
        }
    }

    private static List<String> headers(List<String> headers) {
        if (headers.isEmpty()) {
            throw ProblemException.invalid("headers", "must name at least one header; leave it out for "
                    + String.join(" and ", MaskScope.DEFAULT_HEADERS));
        }
        if (headers.size() > MaskScope.MAX_HEADERS) {
            throw ProblemException.invalid("headers", "must name at most " + MaskScope.MAX_HEADERS + " headers, not "
                    + headers.size());
        }
        Set<String> normalised = new LinkedHashSet<>();
        for (int i = 0; i < headers.size(); i++) {
            String header = headers.get(i);
            String field = "headers[" + i + "]";
            if (header == null) {
                throw ProblemException.invalid(field, "must be an HTTP header name, not null");
            }
            if (!HEADER.matcher(header).matches()) {
                throw ProblemException.invalidValue(field, header, "is not an HTTP header name (1 to "
                        + MAX_HEADER_CHARS + " letters, digits and !#$%&'*+-.^_`|~, e.g. authorization)");
            }
            String lower = header.toLowerCase(Locale.ROOT);
            if (MaskScope.EXCLUDED_HEADERS.contains(lower)) {
                throw ProblemException.invalidValue(field, header, "is meant for the egress proxy and never"
                        + " forwarded: a masked secret cannot ride in it");
            }
            normalised.add(lower);
        }
        return List.copyOf(normalised);
    }

    /** A masked value is a header credential: the 400 never echoes it. */
    private static void checkValue(String value) {
        int chars = value.codePointCount(0, value.length());
        if (chars < MIN_VALUE_CHARS || chars > MAX_VALUE_CHARS) {
            throw ProblemException.invalid("value", "of a masked secret must be " + MIN_VALUE_CHARS + " to "
                    + MAX_VALUE_CHARS + " characters: it must be a credential an HTTP header can"
                    + " carry");
        }
        if (value.codePoints().anyMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c)
                || Character.isISOControl(c))) {
            throw ProblemException.invalid("value", "of a masked secret must hold no whitespace or control"
                    + " characters: it must be a credential an HTTP header can carry");
        }
    }
}
