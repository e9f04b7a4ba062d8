package io.trimus.testing.access;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLSession;

/**
 * Calls every endpoint of a service with every kind of caller and compares how access control answered with what
 * docs/access.md promises. Path parameters are filled from a map (the company the walk's callers are "right" or
 * "other" to is {@code company_id}); company-level endpoints without {@code company_id} in the path get it as a query
 * parameter. Bodies are {@code {}}: the endpoint may refuse them, which still shows access control let the call through.
 */
public final class AccessWalk {
    private static final Pattern PARAM = Pattern.compile("\\{([a-z_]+)}");
    private static final List<String> COMPANY_LEVELS = List.of("viewer", "member", "admin", "a2a");

    private final String baseUrl;
    private final Map<String, String> params;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public AccessWalk(String baseUrl, Map<String, String> params) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.params = params;
    }

    /** Every mismatch, as one readable line each; empty when the service keeps the table. */
    public List<String> mismatches(List<Endpoint> endpoints, List<Caller> callers) throws InterruptedException {
        List<String> mismatches = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            for (Caller caller : callers) {
                Outcome expected = caller.expectedOn(endpoint.who());
                HttpResponse<String> response = call(endpoint, caller);
                Outcome actual = Outcome.of(response, params.get("company_id"));
                if (actual != expected) {
                    mismatches.add(endpoint.route() + " as " + caller.label() + ": expected " + expected + ", got "
                            + response.statusCode() + " " + abbreviated(response.body()));
                }
            }
        }
        return mismatches;
    }

    /** One call of the endpoint as the caller. */
    public HttpResponse<String> call(Endpoint endpoint, Caller caller) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + concrete(endpoint)))
                .timeout(Duration.ofSeconds(20))
                .method(endpoint.method(), endpoint.method().equals("GET") || endpoint.method().equals("DELETE")
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{}"));
        if (!endpoint.method().equals("GET") && !endpoint.method().equals("DELETE")) {
            request.header("Content-Type", "application/json");
        }
        if (caller.authorization() != null) {
            request.header("Authorization", caller.authorization());
        }
        try {
            // Streams (SSE) never end: read the head, and a body only when it is short by nature (not 200)
            HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                String text = response.statusCode() == 200 ? "" : new String(body.readNBytes(8192),
                        StandardCharsets.UTF_8);
                return new Read(response, text);
            }
        } catch (IOException e) {
            throw new IllegalStateException(endpoint.route() + " as " + caller.label() + ": " + e, e);
        }
    }

    private String concrete(Endpoint endpoint) {
        Matcher matcher = PARAM.matcher(endpoint.path());
        StringBuilder path = new StringBuilder();
        while (matcher.find()) {
            String value = params.get(matcher.group(1));
            if (value == null) {
                throw new IllegalStateException("no value for {" + matcher.group(1) + "} of " + endpoint.route());
            }
            matcher.appendReplacement(path, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(path);
        if (COMPANY_LEVELS.contains(endpoint.who()) && !endpoint.path().contains("{company_id}")) {
            path.append("?company_id=").append(params.get("company_id"));
        }
        return path.toString();
    }

    private static String abbreviated(String body) {
        return body.length() > 200 ? body.substring(0, 200) + "…" : body;
    }

    /** A response whose body was read as far as the walk needs. */
    private record Read(HttpResponse<InputStream> head, String body) implements HttpResponse<String> {
        @Override
        public int statusCode() {
            return head.statusCode();
        }

        @Override
        public HttpRequest request() {
            return head.request();
        }

        @Override
        public Optional<HttpResponse<String>> previousResponse() {
            return Optional.empty();
        }

        @Override
        public HttpHeaders headers() {
            return head.headers();
        }

        @Override
        public Optional<SSLSession> sslSession() {
            return head.sslSession();
        }

        @Override
        public URI uri() {
            return head.uri();
        }

        @Override
        public HttpClient.Version version() {
            return head.version();
        }
    }
}
