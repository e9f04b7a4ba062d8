package io.trimus.adapter.egress;

import io.trimus.adapter.net.Cidr;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.SandboxRegistration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * egress-service's sandbox registry ({@code PUT|DELETE /internal/sandboxes/{ip}}), called synchronously from a
 * docker run's worker thread: the registration must be in place before the sandbox can send its first packet.
 */
@ApplicationScoped
public class EgressServiceClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;

    /** Thrown when egress-service did not confirm; the message says why in words a person can act on. */
    public static final class RegistrationFailed extends Exception {
        RegistrationFailed(String reason) {
            super(reason, null, false, false);
        }
    }

    @Inject
    public EgressServiceClient(TrimusConfig config) {
        this(config.egress().serviceUrl(), config.egress().registrationTimeout());
    }

    public EgressServiceClient(URI serviceUrl, Duration timeout) {
        String scheme = serviceUrl.getScheme() == null ? "" : serviceUrl.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || serviceUrl.getHost() == null) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_SERVICE_URL must be an http(s) URL such as"
                    + " http://127.0.0.1:8083, got '" + serviceUrl + "'");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_REGISTRATION_TIMEOUT must be positive, got " + timeout);
        }
        String text = serviceUrl.toString();
        this.baseUrl = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Tells egress-service that {@code ip} is this sandbox; returns once it answered 2xx. */
    public void register(String ip, SandboxRegistration registration) throws RegistrationFailed, InterruptedException {
        String body;
        try {
            body = JSON.writeValueAsString(registration);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        send(HttpRequest.newBuilder(sandbox(ip))
                .PUT(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .header("Content-Type", "application/json"), false);
    }

    /** Removes the registration of {@code ip}; one that egress-service does not know (404) is already gone. */
    public void deregister(String ip) throws RegistrationFailed, InterruptedException {
        send(HttpRequest.newBuilder(sandbox(ip)).DELETE(), true);
    }

    private URI sandbox(String ip) {
        return URI.create(baseUrl + "/internal/sandboxes/" + Cidr.text(Cidr.address(ip)));
    }

    private void send(HttpRequest.Builder request, boolean notFoundIsFine)
            throws RegistrationFailed, InterruptedException {
        HttpResponse<String> response;
        try {
            response = http.send(request.timeout(timeout).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException e) {
            throw new RegistrationFailed(baseUrl + " did not accept a connection within " + seconds());
        } catch (HttpTimeoutException e) {
            throw new RegistrationFailed(baseUrl + " did not answer within " + seconds());
        } catch (ConnectException e) {
            throw new RegistrationFailed(baseUrl + " unreachable: connection refused");
        } catch (IOException e) {
            throw new RegistrationFailed(baseUrl + " unreachable: "
                    + (e.getMessage() == null ? "the connection failed" : e.getMessage()));
        }
        int status = response.statusCode();
        if (status / 100 == 2 || (notFoundIsFine && status == 404)) {
            return;
        }
        String detail = problemDetail(response.body());
        throw new RegistrationFailed(baseUrl + " answered HTTP " + status + (detail == null ? "" : ": " + detail));
    }

    /** The {@code detail} (else {@code title}) of a problem+json answer, kept short. */
    private static String problemDetail(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonNode problem = JSON.readTree(body);
            JsonNode text = problem.hasNonNull("detail") ? problem.get("detail") : problem.get("title");
            if (text == null || !text.isTextual() || text.asText().isBlank()) {
                return null;
            }
            String detail = text.asText().strip();
            return detail.length() > 200 ? detail.substring(0, 200) + "…" : detail;
        } catch (IOException notJson) {
            return null;
        }
    }

    private String seconds() {
        long millis = timeout.toMillis();
        return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
    }
}
