package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code a2a} form of a {@code remote} agent's adapter_config: the run is delegated to an Agent2Agent (A2A) peer,
 * another host or Trimus instance that owns the task's execution and isolation. The adapter service reads the peer's
 * agent card, sends the run as an A2A message to {@code url} and follows the task. Which addresses {@code url} may
 * resolve to is the adapter service's address policy (as for lambda), since only that service dials it.
 *
 * @param url        the peer's A2A JSON-RPC endpoint, http or https; its card is read at
 *                   {@code <url>/.well-known/agent-card.json}, else at the host's {@code /.well-known/agent-card.json}
 * @param authHeader the header whose value is a company secret (e.g. {@code Authorization: Bearer …}), or null
 * @param skill      the id of the peer's skill to ask for, or null to let the peer choose
 * @param timeoutMs  wall-clock limit of the whole exchange, from the first call to the peer's final state
 */
public record A2aPeerConfig(URI url, LambdaAdapterConfig.AuthHeader authHeader, String skill, int timeoutMs) {

    /** Key of the auth header's value in run.requested's sealed secrets, as for lambda. */
    public static final String AUTH_HEADER_SECRET = LambdaAdapterConfig.AUTH_HEADER_SECRET;
    public static final int DEFAULT_TIMEOUT_MS = 600_000;
    public static final int MIN_TIMEOUT_MS = 1_000;
    public static final int MAX_TIMEOUT_MS = 3_600_000;
    /** Skill ids as agent cards write them: letters, digits and {@code . _ - : /}, at most 128. */
    public static final Pattern SKILL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}");
    private static final Set<String> FIELDS = Set.of("url", "auth_header", "skill", "timeout_ms");
    private static final String FIELD = ConfigFields.PREFIX + "a2a";

    /**
     * Reads and validates the {@code a2a} object.
     *
     * @throws AdapterConfigException naming the first field under {@code adapter_config.a2a.} that breaks the contract
     */
    public static A2aPeerConfig parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new AdapterConfigException(FIELD, "must be an object {\"url\": the peer's A2A endpoint,"
                    + " \"auth_header\"?: {\"name\", \"secret\"}, \"skill\"?, \"timeout_ms\"?}");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new AdapterConfigException(FIELD + "." + ConfigFields.key(name), "is not an a2a setting"
                        + " (allowed: auth_header, skill, timeout_ms, url)");
            }
        }
        URI url = LambdaAdapterConfig.endpointUrl(node.get("url"), FIELD + ".url");
        LambdaAdapterConfig.AuthHeader auth = LambdaAdapterConfig.authHeader(node.get("auth_header"),
                FIELD + ".auth_header");
        return new A2aPeerConfig(url, auth, skill(node.get("skill")), ConfigFields.wholeNumberWithin(
                node.get("timeout_ms"), FIELD + ".timeout_ms", MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS));
    }

    /** The auth header's value when the peer needs one, sealed as {@link #AUTH_HEADER_SECRET}; always required. */
    public List<SecretNeed> secretNeeds() {
        return authHeader == null ? List.of() : List.of(new SecretNeed(authHeader.secret(), AUTH_HEADER_SECRET, true,
                "the value of its " + authHeader.name() + " header to the A2A peer"));
    }

    /** The URL's port, or the scheme's default. */
    public int port() {
        return url.getPort() != -1 ? url.getPort() : https() ? 443 : 80;
    }

    /** Whether the peer is called over TLS. */
    public boolean https() {
        return url.getScheme().equalsIgnoreCase("https");
    }

    /** The host as written in the URL, without the brackets of an IPv6 literal. */
    public String host() {
        String host = url.getHost();
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static String skill(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return null;
        }
        if (!node.isTextual() || !SKILL.matcher(node.asText()).matches()) {
            throw new AdapterConfigException(FIELD + ".skill", "must be the id of one of the peer's skills: 1 to 128"
                    + " letters, digits, '.', '_', ':', '/' or '-', starting with a letter or digit");
        }
        return node.asText();
    }
}
