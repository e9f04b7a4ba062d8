package io.trimus.run.service.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.trimus.events.AllowlistEntryText;
import io.trimus.events.auth.BearerCredentials;
import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A company's egress allowlist as egress-service holds it ({@code GET /api/companies/{id}/egress/allowlist}, answered
 * {@code {"company_id", "entries": [...]}}, each entry a string or an object with request rules, read as
 * {@link AllowlistEntryText}), over HTTP: run-service shares no code or table with egress-service. Every
 * failure is one sentence; the answer is read no further than {@link #MAX_BYTES}.
 */
@ApplicationScoped
public class EgressAllowlists {
    static final int MAX_BYTES = 1 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;

    /** The failure of a Uni whose allowlist could not be read; the message says why. */
    public static final class Unavailable extends RuntimeException {
        Unavailable(String reason) {
            super(reason, null, false, false);
        }
    }

    public EgressAllowlists(TrimusConfig config) {
        URI serviceUrl = config.egress().serviceUrl();
        Duration timeout = config.egress().allowlistTimeout();
        String scheme = serviceUrl.getScheme() == null ? "" : serviceUrl.getScheme();
        if (!(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https")) || serviceUrl.getHost() == null) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_SERVICE_URL must be an http(s) URL such as"
                    + " http://127.0.0.1:8083, got '" + serviceUrl + "'");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_ALLOWLIST_TIMEOUT must be positive, got " + timeout);
        }
        String text = serviceUrl.toString();
        this.baseUrl = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * The company's entries, asked with the caller's {@code Authorization} header; fails with {@link Unavailable}. The call is asynchronous; the body is read on the HTTP
     * client's thread once the answer's head arrived, never on the event loop.
     */
    public Uni<List<String>> entries(UUID companyId, String authorization) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + "/api/companies/" + companyId
                        + "/egress/allowlist"))
                .timeout(timeout).header("Accept", "application/json").GET();
        if (authorization != null) {
            builder.header(BearerCredentials.HEADER, authorization);
        }
        HttpRequest request = builder.build();
        return Uni.createFrom().completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()))
                .onFailure().transform(this::unavailable)
                .map(this::read);
    }

    private List<String> read(HttpResponse<InputStream> response) {
        try (InputStream body = response.body()) {
            byte[] bytes = body.readNBytes(MAX_BYTES + 1);
            if (response.statusCode() != 200) {
                throw new Unavailable(baseUrl + " answered HTTP " + response.statusCode());
            }
            if (bytes.length > MAX_BYTES) {
                throw new Unavailable(baseUrl + " answered more than " + MAX_BYTES + " bytes");
            }
            JsonNode entries = JSON.readTree(bytes).get("entries");
            if (entries == null || !entries.isArray()) {
                throw new Unavailable(baseUrl + " answered without an entries list");
            }
            List<String> list = new ArrayList<>();
            // a string entry as it is, an object entry (request rules) as its JSON text, whose host and ports
            // ProviderHost reads
            entries.forEach(entry -> list.add(AllowlistEntryText.of(entry)));
            return List.copyOf(list);
        } catch (IOException e) {
            throw new Unavailable(baseUrl + " answered something that is not an allowlist");
        }
    }

    private Throwable unavailable(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && !(cause instanceof IOException)) {
            cause = cause.getCause();
        }
        if (cause instanceof HttpTimeoutException) {
            return new Unavailable(baseUrl + " did not answer within " + seconds());
        }
        if (cause instanceof ConnectException) {
            return new Unavailable(baseUrl + " unreachable: connection refused");
        }
        return new Unavailable(baseUrl + " unreachable: "
                + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()));
    }

    private String seconds() {
        long millis = timeout.toMillis();
        return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
    }
}
