package io.trimus.admin.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.trimus.testing.TcpRelay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stand-ins for run-service and egress-service on loopback, for dashboard tests that need their answers but not the
 * services: one small HTTP server that knows its callers by their bearer secret ({@link #ADMIN}, {@link #VIEWER}; a
 * session cookie's value reaches it the same way) and answers the company pages' calls, and a
 * {@link TcpRelay} in front of its egress part that a test switches off. Tests drive it over HTTP on its
 * {@code /_control} paths ({@link StandIn}), since the app and the test may not share a class loader.
 */
public class BackendStandIns implements QuarkusTestResourceLifecycleManager {
    /** Config key of the stand-in's base URL (its {@code /_control} paths) for tests. */
    public static final String CONTROL_KEY = "trimus-test.stand-in";
    /** Secret of a caller who is an admin of every company the stand-in knows. */
    public static final String ADMIN = "admin-secret-0123456789";
    /** Secret of a caller who is a viewer of every company the stand-in knows. */
    public static final String VIEWER = "viewer-secret-0123456789";

    private static final Pattern COMPANY = Pattern.compile("/api/companies/([0-9a-f-]{36})(/.*)?");

    private final Map<String, String> companies = new ConcurrentHashMap<>(); // id -> name
    private final Map<String, String> canaries = new ConcurrentHashMap<>(); // id -> canary JSON
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private TcpRelay egress;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
        String self = "http://127.0.0.1:" + server.getAddress().getPort();
        egress = new TcpRelay("egress-service stand-in", server.getAddress().getPort());
        return Map.of("trimus.run-service-url", self, "trimus.egress-service-url", egress.url(),
                "trimus.backend-timeout", "3s", CONTROL_KEY, self);
    }

    @Override
    public void stop() {
        if (egress != null) {
            egress.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (path.startsWith("/_control/")) {
                control(exchange, method, path, body);
                return;
            }
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            String secret = auth == null ? "" : auth.replaceFirst("(?i)^bearer ", "");
            if (path.contains("/egress/")) {
                String query = exchange.getRequestURI().getRawQuery();
                calls.add(method + " " + path + (query == null ? "" : "?" + query) + " " + auth);
            }
            if (!secret.equals(ADMIN) && !secret.equals(VIEWER)) {
                answer(exchange, 401, "{\"title\":\"Unauthorized\",\"status\":401}");
                return;
            }
            if (path.equals("/api/me")) {
                answer(exchange, 200, me(secret.equals(ADMIN) ? "admin" : "viewer"));
                return;
            }
            if (path.equals("/api/runs/usage")) {
                answer(exchange, 200, "{\"by_agent\":[],\"totals\":{\"runs\":0,\"runs_with_usage\":0}}");
                return;
            }
            if (path.equals("/api/companies")) {
                answer(exchange, 200, companies.entrySet().stream().sorted(Map.Entry.comparingByKey())
                        .map(c -> company(c.getKey(), c.getValue())).reduce((a, b) -> a + "," + b)
                        .map(list -> "[" + list + "]").orElse("[]"));
                return;
            }
            Matcher m = COMPANY.matcher(path);
            if (!m.matches() || !companies.containsKey(m.group(1))) {
                answer(exchange, 404, "{\"title\":\"Not Found\",\"status\":404,\"detail\":\"no such company\"}");
                return;
            }
            String id = m.group(1);
            String rest = m.group(2) == null ? "" : m.group(2);
            switch (method + " " + rest) {
                case "GET " -> answer(exchange, 200, company(id, companies.get(id)));
                case "GET /agents", "GET /runs" -> answer(exchange, 200, "[]");
                case "GET /egress/canary" -> answer(exchange, 200, canaries.getOrDefault(id, Canaries.none(id)));
                case "POST /egress/canary" -> {
                    if (!secret.equals(ADMIN)) {
                        answer(exchange, 403, "{\"title\":\"Forbidden\",\"status\":403,"
                                + "\"detail\":\"this needs the admin role in company " + id + "\"}");
                        return;
                    }
                    String running = Canaries.running(id);
                    canaries.put(id, running);
                    answer(exchange, 202, running);
                }
                default -> answer(exchange, 404, "{\"title\":\"Not Found\",\"status\":404}");
            }
        }
    }

    private void control(HttpExchange exchange, String method, String path, String body) throws IOException {
        String[] parts = path.split("/"); // "", "_control", what, id
        switch (method + " " + parts[2]) {
            case "PUT company" -> companies.put(parts[3], body);
            case "PUT canary" -> canaries.put(parts[3], body);
            case "GET calls" -> {
                answer(exchange, 200, String.join("\n", calls));
                return;
            }
            case "DELETE calls" -> calls.clear();
            case "POST egress-down" -> egress.down();
            case "POST egress-up" -> egress.up();
            default -> {
                answer(exchange, 404, "");
                return;
            }
        }
        exchange.sendResponseHeaders(204, -1);
    }

    private String me(String role) {
        return "{\"kind\":\"user\",\"id\":\"00000000-0000-4000-8000-0000000000" + (role.equals("admin") ? "0a" : "0b")
                + "\",\"name\":\"" + role + "@example.com\",\"operator\":false,\"companies\":["
                + String.join(",", companies.keySet().stream()
                        .map(id -> "{\"company_id\":\"" + id + "\",\"role\":\"" + role + "\"}").toList()) + "]}";
    }

    private static String company(String id, String name) {
        return "{\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"created_at\":\"2026-12-01T09:00:00Z\"}";
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type",
                status >= 400 ? "application/problem+json" : "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
