package io.trimus.adapter.egress.registry;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.EgressCa;
import io.trimus.events.SandboxRegistration;
import io.trimus.events.auth.ServiceCredential;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The adapter's side of egress-service's sandbox registry, against a real HTTP server on loopback. A Quarkus test
 * because the REST client is built by the running application.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class EgressServiceClientTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final List<String> received = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;
    private volatile int status = 204;
    private volatile String answer = "";
    private volatile boolean hang;

    private EgressServiceClient client() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            try (exchange) {
                authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
                received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                        + exchange.getRequestHeaders().getFirst("Content-Type") + " "
                        + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                if (hang) {
                    release.await(10, TimeUnit.SECONDS);
                    return;
                }
                byte[] body = answer.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
                if (body.length > 0) {
                    exchange.getResponseBody().write(body);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        return Wiring.egressService(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), TIMEOUT);
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aRegistrationIsAPutOfSnakeCaseJsonToTheSandboxAddress() throws Exception {
        EgressServiceClient client = client();
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        UUID run = UUID.randomUUID();

        client.register("172.30.0.7", new SandboxRegistration(company, agent, run, "c0ffee"));
        client.deregister("172.30.0.7", run);

        assertThat(received).containsExactly(
                "PUT /internal/sandboxes/172.30.0.7 application/json {\"company_id\":\"" + company
                        + "\",\"agent_id\":\"" + agent + "\",\"run_id\":\"" + run + "\",\"container_id\":\"c0ffee\",\"masks\":null,\"ca\":null}",
                "DELETE /internal/sandboxes/172.30.0.7?run_id=" + run + " null ");
    }

    @Test
    void registrationsPresentTheServiceCredentialOfTheEncryptionKeyOrTheConfiguredOne() throws Exception {
        String key = "0ZYiVA65jN0PbtPYMjzQi2YZYakhmiYwPNuWoLT8Hlo=";
        ServiceCredential derived = EgressServiceClient.credential(Optional.of(key), Optional.empty()).orElseThrow();
        client();
        EgressServiceClient client = Wiring.egressService(URI.create("http://127.0.0.1:"
                + server.getAddress().getPort()), TIMEOUT, key);
        UUID run = UUID.randomUUID();
        client.register("172.30.0.7", new SandboxRegistration(UUID.randomUUID(), UUID.randomUUID(), run, "c0ffee"));
        client.deregister("172.30.0.7", run);
        assertThat(authorizations).containsExactly(derived.header(), derived.header());

        String worker = "svc_58VZSnTxUIAKtFHd0EeMBuAQShmALhXIC5OZveEgNnQ";
        assertThat(EgressServiceClient.credential(Optional.empty(), Optional.of(worker)).orElseThrow().header())
                .isEqualTo(derived.header());
        assertThat(EgressServiceClient.credential(Optional.of(key), Optional.of(worker))).isPresent();
        assertThatThrownBy(() -> EgressServiceClient.credential(Optional.of(key),
                Optional.of("svc_" + "A".repeat(43)))).hasMessageContaining("TRIMUS_EGRESS_SERVICE_CREDENTIAL");
        assertThat(EgressServiceClient.credential(Optional.empty(), Optional.empty())).isEmpty();
    }

    @Test
    void anErrorAnswerFailsWithItsStatusAndProblemDetail() throws Exception {
        EgressServiceClient client = client();
        status = 503;
        answer = "{\"title\":\"Unavailable\",\"status\":503,\"detail\":\"registry is starting\"}";
        String url = "http://127.0.0.1:" + server.getAddress().getPort();

        assertThatThrownBy(() -> client.register("172.30.0.7", registration()))
                .isInstanceOf(EgressServiceClient.RegistrationFailed.class)
                .hasMessage(url + " answered HTTP 503: registry is starting");
    }

    @Test
    void theCaIsAGetOfThePemAndA503SaysWhy() throws Exception {
        EgressServiceClient client = client();
        status = 200;
        answer = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        String url = "http://127.0.0.1:" + server.getAddress().getPort();

        assertThat(client.ca()).isEqualTo(answer);
        assertThat(received).containsExactly("GET " + EgressCa.PATH + " null ");

        status = 503;
        answer = "{\"title\":\"Service Unavailable\",\"status\":503,\"detail\":\"no CA key yet\"}";
        assertThatThrownBy(client::ca).isInstanceOf(EgressServiceClient.RegistrationFailed.class)
                .hasMessage(url + " answered HTTP 503: no CA key yet");
    }

    @Test
    void aRunsNotesAreAGetWithTheCredentialAndAnythingElseIsNoNotes() throws Exception {
        String key = "0ZYiVA65jN0PbtPYMjzQi2YZYakhmiYwPNuWoLT8Hlo=";
        client();
        EgressServiceClient client = Wiring.egressService(URI.create("http://127.0.0.1:"
                + server.getAddress().getPort()), TIMEOUT, key);
        UUID run = UUID.randomUUID();
        status = 200;
        answer = "{\"notes\":[\"suspected tunnelling: names under *.t.example scored 0.93\", 7, \" \"]}";

        assertThat(client.notes("172.30.0.7", run)).containsExactly("suspected tunnelling: names under *.t.example scored 0.93");
        assertThat(received).containsExactly("GET /internal/sandboxes/172.30.0.7/notes?run_id=" + run + " null ");
        assertThat(authorizations).containsExactly(EgressServiceClient.credential(Optional.of(key), Optional.empty())
                .orElseThrow().header());

        answer = "{\"notes\":[" + String.join(",", java.util.Collections.nCopies(10, "\"" + "x".repeat(900) + "\"")) + "]}";
        assertThat(client.notes("172.30.0.7", run)).hasSize(EgressServiceClient.MAX_NOTES)
                .allSatisfy(note -> assertThat(note).hasSize(EgressServiceClient.MAX_NOTE_CHARS + 1));
        answer = "{\"notes\":[\"" + "x".repeat(EgressServiceClient.MAX_NOTES_BYTES) + "\"]}";
        assertThat(client.notes("172.30.0.7", run)).as("larger than the limit").isEmpty();
        answer = "not json";
        assertThat(client.notes("172.30.0.7", run)).isEmpty();
        status = 404;
        answer = "";
        assertThat(client.notes("172.30.0.7", run)).isEmpty();
        status = 200;
        hang = true;
        long start = System.nanoTime();
        assertThat(client.notes("172.30.0.7", run)).as("no answer within the notes' timeout").isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void deregisteringAnAddressEgressServiceDoesNotKnowIsFine() throws Exception {
        EgressServiceClient client = client();
        status = 404;

        client.deregister("172.30.0.7", UUID.randomUUID());

        assertThatThrownBy(() -> client.register("172.30.0.7", registration()))
                .hasMessageEndingWith("answered HTTP 404");
    }

    @Test
    void anAddressHeldByAnotherRunIsToldApartFromAFailure() throws Exception {
        EgressServiceClient client = client();
        status = 409;
        answer = "{\"title\":\"Conflict\",\"status\":409,\"detail\":\"held by another run\"}";

        assertThatThrownBy(() -> client.register("172.30.0.7", registration()))
                .isInstanceOf(EgressServiceClient.AddressHeld.class)
                .hasMessage("172.30.0.7 is held by another run (held by another run)");
        assertThatThrownBy(() -> client.deregister("172.30.0.7", UUID.randomUUID()))
                .isInstanceOf(EgressServiceClient.RegistrationFailed.class)
                .hasMessageEndingWith("answered HTTP 409: held by another run");
    }

    @Test
    void aKeptAliveConnectionTheServerClosedIsRetriedOnceOnANewOne() throws Exception {
        // answers the first request of each connection and keeps it open; a second request on the same connection is
        // read and the connection closed unanswered, as a server that idled it out or restarted does
        List<String> seen = new CopyOnWriteArrayList<>();
        try (ServerSocket raw = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!raw.isClosed()) {
                    try {
                        Socket socket = raw.accept();
                        Thread connection = new Thread(() -> serveOnce(socket, seen));
                        connection.setDaemon(true);
                        connection.start();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            EgressServiceClient client = Wiring.egressService(URI.create("http://127.0.0.1:" + raw.getLocalPort()),
                    Duration.ofSeconds(5));
            UUID company = UUID.randomUUID();

            try {
                client.register("172.30.0.5", new SandboxRegistration(company, UUID.randomUUID(), UUID.randomUUID(),
                        "c"));
                client.register("172.30.0.6", new SandboxRegistration(company, UUID.randomUUID(), UUID.randomUUID(),
                        "c"));
            } catch (EgressServiceClient.RegistrationFailed e) {
                throw new AssertionError(e.getMessage() + " after " + seen);
            }

            assertThat(seen).containsExactly("answered PUT /internal/sandboxes/172.30.0.5",
                    "closed PUT /internal/sandboxes/172.30.0.6", "answered PUT /internal/sandboxes/172.30.0.6");
        }
    }

    private static void serveOnce(Socket socket, List<String> seen) {
        try (socket) {
            for (int request = 0; ; request++) {
                String line = head(socket.getInputStream());
                if (line == null) {
                    return;
                }
                String what = line.substring(0, line.lastIndexOf(' '));
                if (request > 0) {
                    seen.add("closed " + what);
                    return;
                }
                seen.add("answered " + what);
                socket.getOutputStream().write("HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
            }
        } catch (IOException gone) {
            // the client went away
        }
    }

    /** The request line of the next request (its head and body read), or null at the end of the stream. */
    private static String head(java.io.InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            if (head.toString().endsWith("\r\n\r\n")) {
                String text = head.toString();
                int length = 0;
                boolean chunked = false;
                for (String header : text.split("\r\n")) {
                    String lower = header.toLowerCase(java.util.Locale.ROOT);
                    if (lower.startsWith("content-length:")) {
                        length = Integer.parseInt(header.substring(15).trim());
                    }
                    chunked |= lower.startsWith("transfer-encoding:") && lower.contains("chunked");
                }
                if (chunked) {
                    StringBuilder body = new StringBuilder();
                    while (!body.toString().endsWith("0\r\n\r\n") && (b = in.read()) >= 0) {
                        body.append((char) b);
                    }
                } else {
                    in.readNBytes(length);
                }
                return text.substring(0, text.indexOf("\r\n"));
            }
        }
        return null;
    }

    @Test
    void aServerThatDoesNotAnswerFailsAfterTheTimeout() throws Exception {
        EgressServiceClient client = client();
        hang = true;
        long start = System.nanoTime();

        assertThatThrownBy(() -> client.register("172.30.0.7", registration()))
                .hasMessageEndingWith(" did not answer within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void nothingListeningFailsAsUnreachable() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        EgressServiceClient client = Wiring.egressService(URI.create("http://127.0.0.1:" + port), TIMEOUT);

        assertThatThrownBy(() -> client.register("172.30.0.7", registration()))
                .hasMessage("http://127.0.0.1:" + port + " unreachable: connection refused");
    }

    @Test
    void aUrlThatIsNotHttpStopsTheService() {
        assertThatThrownBy(() -> Wiring.egressService(URI.create("ftp://egress:21"), TIMEOUT))
                .hasMessageContaining("TRIMUS_EGRESS_SERVICE_URL");
        assertThatThrownBy(() -> Wiring.egressService(URI.create("http://127.0.0.1:8083"), Duration.ZERO))
                .hasMessageContaining("TRIMUS_EGRESS_REGISTRATION_TIMEOUT");
    }

    private static SandboxRegistration registration() {
        return new SandboxRegistration(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "c0ffee");
    }
}
