package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The {@code adapter_config} of a {@code lambda} agent: one HTTP call per run to an endpoint that executes it (an AWS
 * Lambda function URL, Cloud Run, a self-hosted inference server). Validated strictly on write (run-service) and again
 * before the call (adapter service). Which addresses the endpoint may resolve to is not decided here but by the
 * adapter service's address policy (TRIMUS_LAMBDA_ALLOW_PRIVATE), since only that service dials it.
 *
 * @param endpointUrl the endpoint, http or https, without credentials or fragment
 * @param method      POST (default) or PUT
 * @param headers     extra request headers; never hop-by-hop, framing or Trimus-set ones, never credentials
 * @param authHeader  the header whose value is a company secret, or null for none
 * @param timeoutMs   wall-clock limit of the whole run, retries included
 * @param retries     further attempts after a 5xx answer or a connect error (0 by default)
 * @param backoffMs   wait before the first retry, doubled for each further one
 */
public record LambdaAdapterConfig(URI endpointUrl, String method, Map<String, String> headers, AuthHeader authHeader,
                                  int timeoutMs, int retries, int backoffMs) implements AdapterConfig {

    /**
     * Key of the auth header's value in {@code run.requested}'s sealed secrets. Keyed by the role the value plays, as
     * the CLI adapters key their provider key by the variable it becomes, so the adapter needs no secret names.
     */
    public static final String AUTH_HEADER_SECRET = "AUTH_HEADER";
    public static final int DEFAULT_TIMEOUT_MS = 30_000;
    public static final int MIN_TIMEOUT_MS = 1_000;
    public static final int MAX_TIMEOUT_MS = 900_000;
    public static final int MAX_RETRIES = 5;
    public static final int DEFAULT_BACKOFF_MS = 1_000;
    public static final int MIN_BACKOFF_MS = 10;
    public static final int MAX_BACKOFF_MS = 60_000;
    public static final int MAX_HEADERS = 32;
    private static final int MAX_URL_LENGTH = 2048;
    private static final int MAX_HEADER_VALUE = 4096;
    private static final Set<String> FIELDS = Set.of("endpoint_url", "method", "headers", "auth_header", "timeout_ms",
            "retries", "backoff_ms");
    private static final Set<String> METHODS = Set.of("POST", "PUT");
    /** RFC 9110 token characters. */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    /** Visible ASCII, spaces and tabs: no CR, LF or NUL, so no header can be smuggled in. */
    private static final Pattern HEADER_VALUE = Pattern.compile("[\\t\\x20-\\x7E]*");
    /** Hop-by-hop and framing headers the HTTP client owns, and those Trimus sets on every call. */
    private static final Set<String> RESERVED = Set.of("host", "content-length", "transfer-encoding", "connection",
            "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "expect", "content-type", "idempotency-key");
    /** Credentials belong in auth_header, whose value is a secret; headers are stored and shown as written. */
    private static final Set<String> CREDENTIALS = Set.of("authorization", "proxy-authorization");
    private static final String PREFIX = ConfigFields.PREFIX;

    public LambdaAdapterConfig {
        headers = Map.copyOf(headers);
    }

    /**
     * A header whose value is a company secret.
     *
     * @param name   the header, e.g. {@code Authorization} or {@code X-Api-Key}
     * @param secret the company secret holding its whole value (e.g. {@code Bearer …})
     */
    public record AuthHeader(String name, String secret) {
        private static final Set<String> FIELDS = Set.of("name", "secret");
    }

    /**
     * Reads and validates a lambda adapter_config.
     *
     * @throws AdapterConfigException naming the first field that breaks the contract
     */
    public static LambdaAdapterConfig parse(JsonNode config) {
        ConfigFields.requireObjectOf(config, FIELDS, "lambda");
        AuthHeader auth = authHeader(config.get("auth_header"), PREFIX + "auth_header");
        return new LambdaAdapterConfig(endpointUrl(config.get("endpoint_url"), PREFIX + "endpoint_url"),
                method(config.get("method")),
                headers(config.get("headers"), auth), auth,
                bounded(config.get("timeout_ms"), "timeout_ms", MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS),
                bounded(config.get("retries"), "retries", 0, MAX_RETRIES, 0),
                bounded(config.get("backoff_ms"), "backoff_ms", MIN_BACKOFF_MS, MAX_BACKOFF_MS, DEFAULT_BACKOFF_MS));
    }

    /** The auth header's value when the agent names one, sealed as {@link #AUTH_HEADER_SECRET}; always required. */
    @Override
    public List<SecretNeed> secretNeeds() {
        return authHeader == null ? List.of() : List.of(new SecretNeed(authHeader.secret(),
                AUTH_HEADER_SECRET, true, "the value of its " + authHeader.name() + " header"));
    }

    /** The URL's port, or the scheme's default. */
    public int port() {
        return endpointUrl.getPort() != -1 ? endpointUrl.getPort() : https() ? 443 : 80;
    }

    /** Whether the call is made over TLS. */
    public boolean https() {
        return endpointUrl.getScheme().equalsIgnoreCase("https");
    }

    /** Path and query as sent in the request line ({@code /} when the URL has no path). */
    public String requestUri() {
        String path = endpointUrl.getRawPath() == null || endpointUrl.getRawPath().isEmpty()
                ? "/" : endpointUrl.getRawPath();
        return endpointUrl.getRawQuery() == null ? path : path + "?" + endpointUrl.getRawQuery();
    }

    /** The host as written in the URL, without the brackets of an IPv6 literal. */
    public String host() {
        String host = endpointUrl.getHost();
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** An http or https URL without credentials or fragment, as {@code field} of a config (also an A2A peer's). */
    static URI endpointUrl(JsonNode node, String field) {
        if (ConfigFields.absent(node)) {
            throw new AdapterConfigException(field, "is required");
        }
        String text = node.isTextual() ? node.asText() : "";
        if (text.isEmpty() || text.length() > MAX_URL_LENGTH) {
            throw new AdapterConfigException(field, "must be an http or https URL of at most " + MAX_URL_LENGTH
                    + " characters, such as https://agent.example.com/run");
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new AdapterConfigException(field, "is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new AdapterConfigException(field, "must use http or https");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new AdapterConfigException(field, "must name a host, such as https://agent.example.com/run");
        }
        if (uri.getRawUserInfo() != null) {
            throw new AdapterConfigException(field, "must not carry credentials: put them in auth_header, whose value"
                    + " is a company secret");
        }
        if (uri.getRawFragment() != null) {
            throw new AdapterConfigException(field, "must not have a fragment (#…): it is never sent");
        }
        if (uri.getPort() == 0 || uri.getPort() > 65_535) {
            throw new AdapterConfigException(field, "has a port outside 1..65535");
        }
        return uri;
    }

    private static String method(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return "POST";
        }
        if (!node.isTextual() || !METHODS.contains(node.asText())) {
            throw new AdapterConfigException(PREFIX + "method", "must be POST or PUT");
        }
        return node.asText();
    }

    /** A header whose value is a company secret, as {@code field} of a config (also an A2A peer's); null if absent. */
    static AuthHeader authHeader(JsonNode node, String field) {
        if (ConfigFields.absent(node)) {
            return null;
        }
        if (!node.isObject()) {
            throw new AdapterConfigException(field, "must be an object {\"name\": header, \"secret\": company secret}");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!AuthHeader.FIELDS.contains(name)) {
                throw new AdapterConfigException(field + "." + ConfigFields.key(name), "is not an auth_header setting (allowed: name,"
                        + " secret)");
            }
        }
        JsonNode name = node.get("name");
        if (ConfigFields.absent(name)) {
            throw new AdapterConfigException(field + ".name", "is required");
        }
        String headerName = headerName(name.isTextual() ? name.asText() : null, field + ".name");
        JsonNode secret = node.get("secret");
        if (ConfigFields.absent(secret)) {
            throw new AdapterConfigException(field + ".secret", "is required: the company secret holding the"
                    + " header's value");
        }
        if (!secret.isTextual() || !CliAdapterConfig.SECRET_NAME.matcher(secret.asText()).matches()) {
            throw new AdapterConfigException(field + ".secret",
                    "must be the name of a company secret (letters, digits and _, not starting with a digit)");
        }
        return new AuthHeader(headerName, secret.asText());
    }

    private static Map<String, String> headers(JsonNode node, AuthHeader auth) {
        if (ConfigFields.absent(node)) {
            return Map.of();
        }
        String field = PREFIX + "headers";
        if (!node.isObject() || node.size() > MAX_HEADERS) {
            throw new AdapterConfigException(field, "must be an object of at most " + MAX_HEADERS
                    + " header names to string values");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, String> seen = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            String headerField = field + "." + ConfigFields.key(name);
            headerName(e.getKey(), headerField);
            if (CREDENTIALS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new AdapterConfigException(headerField, "carries credentials: set auth_header instead, so the"
                        + " value is a company secret and never stored in the agent");
            }
            if (auth != null && auth.name().equalsIgnoreCase(name)) {
                throw new AdapterConfigException(headerField, "is the auth_header; its value comes from the secret "
                        + auth.secret());
            }
            if (seen.put(name, name) != null) {
                throw new AdapterConfigException(headerField, "is given twice (header names ignore case)");
            }
            if (!e.getValue().isTextual() || e.getValue().asText().length() > MAX_HEADER_VALUE
                    || !HEADER_VALUE.matcher(e.getValue().asText()).matches()) {
                throw new AdapterConfigException(headerField, "must be a string of at most " + MAX_HEADER_VALUE
                        + " printable ASCII characters (no line breaks)");
            }
            headers.put(name, e.getValue().asText());
        }
        return headers;
    }

    private static String headerName(String name, String field) {
        if (name == null || !HEADER_NAME.matcher(name).matches()) {
            throw new AdapterConfigException(field, "is not a valid header name");
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            throw new AdapterConfigException(field, "is set by Trimus or the HTTP client itself (reserved: "
                    + String.join(", ", new TreeSet<>(RESERVED)) + ")");
        }
        return name;
    }

    private static int bounded(JsonNode node, String name, int min, int max, int absent) {
        return ConfigFields.wholeNumberWithin(node, PREFIX + name, min, max, absent);
    }
}
