package io.trimus.adapter.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A lambda endpoint for tests: a real HTTP server on a loopback address, answering each path as the test decides and
 * recording every request that reached it. Only ever bound to 127.0.0.x, so no test sends traffic off the host.
 */
public final class EndpointStandIn implements AutoCloseable {

    /** How one path answers. */
    @FunctionalInterface
    public interface Answer {
        void answer(HttpExchange exchange, EndpointStandIn standIn) throws IOException;
    }

    /**
     * A request as it arrived.
     *
     * @param method  the request method
     * @param uri     path and query
     * @param headers header names in lower case, first value
     * @param body    the body as UTF-8
     */
    public record Request(String method, String uri, Map<String, String> headers, String body) {
    }

    private final HttpServer server;
    private final String host;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lambda-endpoint-stand-in");
        t.setDaemon(true);
        return t;
    });
    private final List<Request> requests = new ArrayList<>();
    private final Map<String, Answer> answers = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicInteger abandoned = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);

    private EndpointStandIn(String host, int port) throws IOException {
        if (!host.startsWith("127.")) {
            throw new IllegalArgumentException("the stand-in listens on loopback only, not " + host);
        }
        this.host = host;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), port), 32);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts a stand-in on a free port of this loopback address, e.g. 127.0.0.1 or 127.0.0.2. */
    public static EndpointStandIn start(String loopbackAddress) {
        return start(loopbackAddress, 0);
    }

    /** Starts a stand-in on this port of this loopback address. */
    public static EndpointStandIn start(String loopbackAddress, int port) {
        try {
            return new EndpointStandIn(loopbackAddress, port);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the lambda endpoint stand-in on " + loopbackAddress, e);
        }
    }

    /** Decides how {@code path} answers from now on. */
    public EndpointStandIn on(String path, Answer answer) {
        answers.put(path, answer);
        return this;
    }

    /** {@code http://HOST:PORT} + path. */
    public String url(String path) {
        return "http://" + host + ":" + port() + path;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The requests that reached {@code path} so far. */
    public List<Request> requests(String path) {
        synchronized (requests) {
            return requests.stream().filter(r -> r.uri().startsWith(path)).toList();
        }
    }

    /** Every request that reached this server. */
    public List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** Answers whose client went away before they were complete (a write failed). */
    public int abandoned() {
        return abandoned.get();
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        threads.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((name, values) ->
                    headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (requests) {
                requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers,
                        body));
            }
            Answer answer = answers.get(exchange.getRequestURI().getPath());
            if (answer == null) {
                json(exchange, 404, "{\"error\":\"no such test path\"}");
                return;
            }
            try {
                answer.answer(exchange, this);
            } catch (IOException clientWentAway) {
                abandoned.incrementAndGet();
            }
        }
    }

    // ---- answers

    /** A JSON answer with this status. */
    public static Answer json(int status, String body) {
        return (exchange, standIn) -> json(exchange, status, body);
    }

    /** Never answers (until the stand-in closes). */
    public static Answer hang() {
        return (exchange, standIn) -> {
            try {
                standIn.closed.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    /** 200 with a chunked body of one byte every 200 ms, for as long as the client reads. */
    public static Answer trickle() {
        return (exchange, standIn) -> {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            out.write('{');
            out.flush();
            try {
                while (!standIn.closed.await(200, TimeUnit.MILLISECONDS)) {
                    out.write(' ');
                    out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    /** 200 with a chunked (undeclared length) body of {@code bytes} bytes. */
    public static Answer chunked(int bytes) {
        return (exchange, standIn) -> {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'x');
            for (int sent = 0; sent < bytes; sent += chunk.length) {
                out.write(chunk, 0, Math.min(chunk.length, bytes - sent));
                out.flush();
            }
        };
    }

    /** A redirect to {@code location}. */
    public static Answer redirect(int status, String location) {
        return (exchange, standIn) -> {
            exchange.getResponseHeaders().set("Location", location);
            exchange.sendResponseHeaders(status, -1);
        };
    }

    /** The answers in turn, the last one for every further request. */
    public static Answer inTurn(Answer... answers) {
        AtomicInteger next = new AtomicInteger();
        return (exchange, standIn) -> answers[Math.min(next.getAndIncrement(), answers.length - 1)]
                .answer(exchange, standIn);
    }

    private static void json(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }
}
