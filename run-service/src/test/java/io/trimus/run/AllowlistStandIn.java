package io.trimus.run;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on 127.0.0.1 standing in for egress-service's allowlist API as run-service calls it: {@code GET
 * /api/companies/{id}/egress/allowlist} answers {@code {"company_id", "entries"}} as egress-service's
 * AllowlistResource does. Controlled over its own HTTP (the test may see this class through another classloader):
 * {@code PUT /_test/allowlist/{id}} with a JSON array of entries, {@code 500} or {@code hang}; {@code GET
 * /_test/calls} counts the allowlist calls. A global test resource (ProviderWarningTest declares it), so every test
 * class's run-service asks it and no class needs a Quarkus restart of its own.
 */
public class AllowlistStandIn implements QuarkusTestResourceLifecycleManager {
    /** The config key whose value is this stand-in's URL. */
    public static final String URL_KEY = "trimus.egress.service-url";
    private static final String API = "/api/companies/";

    private HttpServer server;
    private ExecutorService threads;
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    private final AtomicInteger calls = new AtomicInteger();
    /** Released when the stand-in stops: a "hang" answer holds its request until then. */
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);

    @Override
    public Map<String, String> start() {
        try {
            threads = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "allowlist-stand-in");
                t.setDaemon(true);
                return t;
            });
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            server.setExecutor(threads);
            server.createContext(API, this::allowlist);
            server.createContext("/_test/allowlist/", this::setAnswer);
            server.createContext("/_test/calls", this::countCalls);
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the allowlist stand-in", e);
        }
        return Map.of(URL_KEY, "http://127.0.0.1:" + server.getAddress().getPort(),
                "trimus.egress.allowlist-timeout", "1s");
    }

    @Override
    public void stop() {
        stopped.countDown();
        server.stop(0);
        threads.shutdownNow();
    }

    private void allowlist(HttpExchange exchange) throws IOException {
        try (exchange) {
            calls.incrementAndGet();
            String path = exchange.getRequestURI().getPath();
            if (!exchange.getRequestMethod().equals("GET") || !path.endsWith("/egress/allowlist")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            String company = path.substring(API.length(), path.length() - "/egress/allowlist".length());
            String answer = answers.getOrDefault(company, "[]");
            if (answer.equals("hang")) {
                // no answer until the stand-in stops (the caller's own timeout is what is under test)
                stopped.await(30, java.util.concurrent.TimeUnit.SECONDS);
                return;
            }
            if (answer.equals("500")) {
                exchange.sendResponseHeaders(500, -1);
                return;
            }
            byte[] body = ("{\"company_id\":\"" + company + "\",\"entries\":" + answer + "}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void setAnswer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String company = exchange.getRequestURI().getPath().substring("/_test/allowlist/".length());
            answers.put(company, new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).trim());
            exchange.sendResponseHeaders(204, -1);
        }
    }

    private void countCalls(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = String.valueOf(calls.get()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }
}
