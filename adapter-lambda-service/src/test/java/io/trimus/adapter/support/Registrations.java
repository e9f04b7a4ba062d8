package io.trimus.adapter.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.eclipse.microprofile.config.ConfigProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The test's view of the {@link EgressStandIn}: what the adapter registered and deregistered, and how to answer. */
public final class Registrations {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final String url;

    private Registrations(String url) {
        this.url = url;
    }

    /** The stand-in at {@code url}. */
    public static Registrations of(String url) {
        return new Registrations(url);
    }

    /** The stand-in the app under test talks to. */
    public static Registrations ofApp() {
        return new Registrations(ConfigProvider.getConfig().getValue(EgressTestResource.STAND_IN_KEY, String.class));
    }

    /**
     * One request as the stand-in received it.
     *
     * @param containerState what the engine said about the sandbox's container when the request arrived:
     *                       {@code created}, {@code running}, {@code absent}, …, or null before it had one
     * @param runId          the run the request names: in the body of a PUT, in the query of a DELETE
     */
    public record Request(String method, String ip, Instant receivedAt, String contentType, String containerState,
                          JsonNode body, String runId) {

        public String field(String name) {
            JsonNode value = body.get(name);
            return value == null || value.isNull() ? null : value.asText();
        }
    }

    /** Every request so far, in arrival order. */
    public List<Request> all() {
        JsonNode list;
        try {
            list = JSON.readTree(get("/_test/requests"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Request> out = new ArrayList<>();
        for (JsonNode r : list) {
            out.add(new Request(r.get("method").asText(), r.get("ip").asText(),
                    Instant.ofEpochMilli(r.get("received_at_ms").asLong()),
                    r.get("content_type").isNull() ? null : r.get("content_type").asText(),
                    r.get("container_state").isNull() ? null : r.get("container_state").asText(), r.get("body"),
                    r.get("run_id").isNull() ? null : r.get("run_id").asText()));
        }
        return out;
    }

    /** The registrations (PUT) of one run. */
    public List<Request> putsOf(UUID runId) {
        return all().stream().filter(r -> r.method().equals("PUT") && runId.toString().equals(r.field("run_id")))
                .toList();
    }

    /** The deregistrations (DELETE) of one address. */
    public List<Request> deletesOf(String ip) {
        return all().stream().filter(r -> r.method().equals("DELETE") && r.ip().equals(ip)).toList();
    }

    /** Answers this company's registrations with {@code status} (e.g. 500) from now on. */
    public void answer(UUID companyId, int status) {
        put("/_test/answer/" + companyId, String.valueOf(status));
    }

    /** Never answers this company's registrations (the adapter's timeout has to end them). */
    public void hang(UUID companyId) {
        put("/_test/answer/" + companyId, "hang");
    }

    /** Makes a run the adapter does not know hold {@code ip} at the stand-in from now on (its PUTs get 409). */
    public void holdElsewhere(String ip) {
        put("/_test/hold/" + ip, "");
    }

    /** How the resolver stand-in answers the adapter's resolver check from now on: TRIMUS, FOREIGN or SILENT. */
    public void resolver(String mode) {
        put("/_test/resolver", mode);
    }

    /** How the proxy stand-in answers the adapter's proxy check from now on: TRIMUS, FOREIGN or SILENT. */
    public void proxy(String mode) {
        put("/_test/proxy", mode);
    }

    /** Whether the stand-in serves its test CA ({@code true}) or answers 503 as egress-service without a CA key. */
    public void caServed(boolean served) {
        put("/_test/ca", served ? "serve" : "missing");
    }

    /** The CA certificate the stand-in serves, PEM. */
    public String ca() {
        return get(io.trimus.events.EgressCa.PATH);
    }

    private String get(String path) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).GET().build());
    }

    private void put(String path, String body) {
        send(HttpRequest.newBuilder(URI.create(url + path)).PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static String send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(request.uri() + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
