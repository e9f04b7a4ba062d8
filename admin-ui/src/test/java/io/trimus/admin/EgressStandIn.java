package io.trimus.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback HTTP front of the real egress-service that answers, by itself, only the issue-14 endpoints egress-service
 * does not serve yet on this branch — a run's egress record, the hourly figures, the company policy — with the shapes
 * agreed for them, and forwards every other request (allowlists, anomalies …) to the real service unchanged. Tests
 * set the answers with {@code PUT /_stand-in/<path>} (the JSON to answer a GET of {@code <path>} with). Remove it once
 * egress-service serves these endpoints itself.
 */
final class EgressStandIn implements AutoCloseable {
    static final String CONTROL = "/_stand-in";
    private static final Pattern RUN_EGRESS = Pattern.compile("^/api/companies/[^/]+/runs/([^/]+)/egress$");
    private static final Pattern HOURLY = Pattern.compile("^/api/(companies/[^/]+/)?egress/hourly$");
    private static final Pattern POLICY = Pattern.compile("^/api/companies/[^/]+/egress/policy$");
    private static final Pattern MODE = Pattern.compile("\"mode\"\\s*:\\s*\"([^\"]*)\"");

    private final URI egressService;
    private final HttpServer server;
    private final ExecutorService workers = Executors.newFixedThreadPool(8);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, String> answers = new ConcurrentHashMap<>();

    EgressStandIn(URI egressService) {
        this.egressService = egressService;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the egress-service stand-in", e);
        }
        server.setExecutor(workers);
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.startsWith(CONTROL + "/")) {
                answers.put(path.substring(CONTROL.length()), body(exchange.getRequestBody()));
                exchange.sendResponseHeaders(204, -1);
                return;
            }
            Matcher run = RUN_EGRESS.matcher(path);
            if (method.equals("GET") && run.matches()) {
                json(exchange, 200, answers.getOrDefault(path, """
                        {"run_id":"%s","summary":{"connections":0,"allowed":0,"refused":0,"bytes_out":0,"bytes_in":0,\
                        "hosts":[]},"connections":[]}""".formatted(run.group(1))));
            } else if (method.equals("GET") && HOURLY.matcher(path).matches()) {
                Instant now = Instant.now();
                json(exchange, 200, answers.getOrDefault(path, """
                        {"from":"%s","to":"%s","hours":[]}""".formatted(now.minus(Duration.ofHours(24)), now)));
            } else if (method.equals("GET") && POLICY.matcher(path).matches()) {
                json(exchange, 200, answers.getOrDefault(path, "{\"mode\":\"enforce\",\"updated_at\":null}"));
            } else if (method.equals("PUT") && POLICY.matcher(path).matches()) {
                Matcher mode = MODE.matcher(body(exchange.getRequestBody()));
                if (mode.find() && List.of("enforce", "report").contains(mode.group(1))) {
                    String stored = "{\"mode\":\"" + mode.group(1) + "\",\"updated_at\":\"" + Instant.now() + "\"}";
                    answers.put(path, stored);
                    json(exchange, 200, stored);
                } else {
                    exchange.getResponseHeaders().set("Content-Type", "application/problem+json");
                    send(exchange, 400, """
                            {"type":"about:blank","title":"Bad Request","status":400,\
                            "detail":"mode must be enforce or report","field":"mode"}""");
                }
            } else {
                forward(exchange);
            }
        }
    }

    private void forward(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        HttpRequest.Builder request = HttpRequest.newBuilder(egressService.resolve(exchange.getRequestURI().getRawPath()
                        + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery())))
                .timeout(Duration.ofSeconds(10))
                .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        for (String header : List.of("Content-Type", "Accept")) {
            String value = exchange.getRequestHeaders().getFirst(header);
            if (value != null) {
                request.header(header, value);
            }
        }
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().firstValue("Content-Type")
                    .ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(502, -1);
        } catch (IOException e) {
            exchange.sendResponseHeaders(502, -1);
        }
    }

    private static void json(HttpExchange exchange, int status, String body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        send(exchange, status, body);
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static String body(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
}
