package io.trimus.adapter.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.trimus.events.EgressCa;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on 127.0.0.1 standing in for egress-service's sandbox registry: answers
 * {@code PUT|DELETE /internal/sandboxes/{ip}} as egress-service does (a PUT for an address another run holds is 409,
 * a DELETE removes only the registration of the run it names, 404 when none, 409 for another run's) and records every
 * request with the time it arrived and the state the engine reported for the sandbox's container at that moment (so
 * a test can prove the container had not started). {@code PUT /_test/hold/{ip}} makes a foreign run hold an address.
 *
 * <p>Controlled over its own HTTP, because a Quarkus test may see this class through another classloader than the
 * test resource that started it: {@code GET /_test/requests} lists what arrived; {@code PUT /_test/answer/{company_id}}
 * with {@code 500} (any status) or {@code hang} decides how that company's registrations are answered; it also runs a
 * {@link ResolverStandIn} for the resolver check, whose answers {@code PUT /_test/resolver} (TRIMUS, FOREIGN, SILENT)
 * decides, and a {@link ProxyStandIn} for the proxy check, whose answers {@code PUT /_test/proxy} decides.
 * {@code GET /api/egress/ca} answers a test CA certificate made with {@code openssl} at start (no key leaves the
 * temporary directory), or 503 as egress-service without a CA key after {@code PUT /_test/ca} with {@code missing}
 * ({@code serve} again after {@code serve}).
 */
public final class EgressStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SANDBOXES = "/internal/sandboxes/";

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "egress-stand-in");
        t.setDaemon(true);
        return t;
    });
    private final DockerClient docker;
    private final List<ObjectNode> requests = new ArrayList<>();
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    /** The container last registered for each address, to report its state when the address is deregistered. */
    private final Map<String, String> containerOf = new ConcurrentHashMap<>();
    /** The run holding each address. */
    private final Map<String, String> holders = new ConcurrentHashMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final ResolverStandIn resolver = ResolverStandIn.start();
    private final ProxyStandIn proxy = ProxyStandIn.start();
    private final byte[] caPem;
    private volatile boolean caMissing;

    private EgressStandIn(DockerClient docker) throws IOException {
        this.docker = docker;
        this.caPem = testCa();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(threads);
        server.createContext(SANDBOXES, this::sandbox);
        server.createContext("/_test/requests", this::listRequests);
        server.createContext("/_test/answer/", this::setAnswer);
        server.createContext("/_test/resolver", this::setResolverMode);
        server.createContext("/_test/proxy", this::setProxyMode);
        server.createContext("/_test/hold/", this::hold);
        server.createContext(EgressCa.PATH, this::ca);
        server.createContext("/_test/ca", this::setCaMode);
        server.start();
    }

    /** Starts the stand-in on a free loopback port. */
    public static EgressStandIn start(DockerClient docker) {
        try {
            return new EgressStandIn(docker);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the egress-service stand-in", e);
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The SHA-256 fingerprint (lower-case hex) of the test CA, as the adapter labels its CA volume. */
    public String caFingerprint() {
        try {
            var certificate = java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(new java.io.ByteArrayInputStream(caPem));
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(certificate.getEncoded()));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The proxy stand-in's {@code 127.0.0.1:PORT}. */
    public String proxyAddress() {
        return proxy.address();
    }

    /** The resolver stand-in's {@code 127.0.0.1:PORT}. */
    public String resolverAddress() {
        return resolver.address();
    }

    @Override
    public void close() {
        resolver.close();
        proxy.close();
        closed.countDown();
        server.stop(0);
        threads.shutdownNow();
    }

    private void sandbox(HttpExchange exchange) throws IOException {
        try (exchange) {
            long receivedAt = System.currentTimeMillis();
            String ip = exchange.getRequestURI().getPath().substring(SANDBOXES.length());
            String method = exchange.getRequestMethod();
            JsonNode body = JSON.createObjectNode();
            byte[] raw = exchange.getRequestBody().readAllBytes();
            if (raw.length > 0) {
                body = JSON.readTree(raw);
            }
            String containerId = method.equals("PUT") ? text(body, "container_id") : containerOf.get(ip);
            if (method.equals("PUT") && containerId != null) {
                containerOf.put(ip, containerId);
            }
            String query = exchange.getRequestURI().getQuery();
            String runId = method.equals("PUT") ? text(body, "run_id")
                    : query != null && query.startsWith("run_id=") ? query.substring("run_id=".length()) : null;
            ObjectNode record = JSON.createObjectNode()
                    .put("method", method)
                    .put("run_id", runId)
                    .put("ip", ip)
                    .put("received_at_ms", receivedAt)
                    .put("content_type", exchange.getRequestHeaders().getFirst("Content-Type"))
                    .put("container_state", containerId == null ? null : containerState(containerId));
            record.set("body", body);
            synchronized (requests) {
                requests.add(record);
            }
            String answer = method.equals("PUT") ? answers.getOrDefault(String.valueOf(text(body, "company_id")), "204")
                    : "204";
            if (answer.equals("204")) {
                answer = hold(method, ip, runId);
            }
            if (answer.equals("hang")) {
                closed.await(60, TimeUnit.SECONDS);
                return;
            }
            int status = Integer.parseInt(answer);
            if (status == 204) {
                exchange.sendResponseHeaders(204, -1);
            } else {
                byte[] problem = ("{\"type\":\"about:blank\",\"title\":\"Unavailable\",\"status\":" + status
                        + ",\"detail\":\"" + (status == 409 ? "held by another run"
                        : status == 404 ? "no sandbox at " + ip : "the sandbox registry is unavailable")
                        + "\"}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/problem+json");
                exchange.sendResponseHeaders(status, problem.length);
                exchange.getResponseBody().write(problem);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What egress-service answers, given who holds {@code ip}; updates the holder. */
    private synchronized String hold(String method, String ip, String runId) {
        String holder = holders.get(ip);
        if (method.equals("PUT")) {
            if (holder != null && !holder.equals(runId)) {
                return "409";
            }
            holders.put(ip, runId);
            return "204";
        }
        if (holder == null) {
            return "404";
        }
        if (!holder.equals(runId)) {
            return "409";
        }
        holders.remove(ip);
        return "204";
    }

    /** {@code PUT /_test/hold/{ip}}: a run the adapter does not know holds the address from now on. */
    private void hold(HttpExchange exchange) throws IOException {
        try (exchange) {
            holders.put(exchange.getRequestURI().getPath().substring("/_test/hold/".length()),
                    "foreign-" + System.nanoTime());
            exchange.sendResponseHeaders(204, -1);
        }
    }

    private void listRequests(HttpExchange exchange) throws IOException {
        try (exchange) {
            ArrayNode list = JSON.createArrayNode();
            synchronized (requests) {
                list.addAll(requests);
            }
            byte[] out = JSON.writeValueAsBytes(list);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, out.length);
            exchange.getResponseBody().write(out);
        }
    }

    private void setAnswer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String company = exchange.getRequestURI().getPath().substring("/_test/answer/".length());
            String answer = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).trim();
            answers.put(company, answer);
            exchange.sendResponseHeaders(204, -1);
        }
    }

    /** {@code PUT /_test/resolver} with TRIMUS, FOREIGN or SILENT. */
    private void setResolverMode(HttpExchange exchange) throws IOException {
        try (exchange) {
            String mode = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).trim();
            resolver.mode(ResolverStandIn.Mode.valueOf(mode));
            exchange.sendResponseHeaders(204, -1);
        }
    }

    private void setProxyMode(HttpExchange exchange) throws IOException {
        try (exchange) {
            String mode = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).trim();
            proxy.mode(ProxyStandIn.Mode.valueOf(mode));
            exchange.sendResponseHeaders(204, -1);
        }
    }

    private void ca(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (caMissing) {
                byte[] problem = ("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
                        + "\"detail\":\"egress-service has no CA key yet\"}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/problem+json");
                exchange.sendResponseHeaders(503, problem.length);
                exchange.getResponseBody().write(problem);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "application/x-pem-file");
            exchange.sendResponseHeaders(200, caPem.length);
            exchange.getResponseBody().write(caPem);
        }
    }

    /** {@code PUT /_test/ca} with {@code serve} or {@code missing}. */
    private void setCaMode(HttpExchange exchange) throws IOException {
        try (exchange) {
            String mode = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).trim();
            caMissing = mode.equals("missing");
            exchange.sendResponseHeaders(204, -1);
        }
    }

    /** A self-signed CA certificate (PEM) made by {@code openssl}; its key is deleted with the directory. */
    private static byte[] testCa() throws IOException {
        Path dir = Files.createTempDirectory("trimus-test-egress-ca");
        try {
            Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", dir.resolve("key.pem").toString(), "-out",
                    dir.resolve("ca.pem").toString(), "-days", "2", "-subj", "/CN=Trimus test egress CA",
                    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
                    .redirectErrorStream(true).start();
            String out = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (openssl.waitFor() != 0) {
                throw new IOException("openssl could not make the test CA: " + out);
            }
            return Files.readAllBytes(dir.resolve("ca.pem"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the test CA", e);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private String containerState(String containerId) {
        try {
            return docker.inspectContainerCmd(containerId).exec().getState().getStatus();
        } catch (NotFoundException gone) {
            return "absent";
        } catch (RuntimeException e) {
            return "unknown: " + e.getMessage();
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
