package io.trimus.adapter.egress.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.commons.net.Cidr;
import io.trimus.events.EgressCa;
import io.trimus.events.SandboxRegistration;
import io.trimus.events.auth.BearerCredentials;
import io.trimus.events.auth.ServiceCredential;
import io.trimus.events.secrets.EncryptionKey;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpClosedException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * egress-service's sandbox registry ({@code PUT|DELETE /internal/sandboxes/{ip}}, the {@link SandboxRegistry} REST
 * client), called synchronously from a docker run's worker thread: the registration must be in place before the
 * sandbox can send its first packet. egress-service arbitrates the addresses: a registration of an address another
 * run holds is answered 409 ({@link AddressHeld}). Every failure becomes one sentence; a run whose registration is
 * not confirmed never starts (fail-secure).
 */
@ApplicationScoped
public class EgressServiceClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final Duration timeout;
    private final Optional<ServiceCredential> credential;
    /** Built on first use: the REST client needs the running application, a boot-time check of the knobs does not. */
    private volatile SandboxRegistry registry;
    private volatile HttpClient caClient;

    /** Largest CA answer read: one PEM certificate is a few kilobytes. */
    public static final int MAX_CA_BYTES = 64 * 1024;

    /** Thrown when egress-service did not confirm; the message says why in words a person can act on. */
    public static final class RegistrationFailed extends Exception {
        private final boolean notStored;

        RegistrationFailed(String reason) {
            this(reason, false);
        }

        RegistrationFailed(String reason, boolean notStored) {
            super(reason, null, false, false);
            this.notStored = notStored;
        }

        /**
         * Whether egress-service surely stored nothing: it took no connection, or answered 503 (still starting).
         * Such a failure may pass by waiting; any other may have left a registration behind.
         */
        public boolean notStored() {
            return notStored;
        }
    }

    /** egress-service answered 409: another run holds the address; another address may be free. */
    public static final class AddressHeld extends Exception {
        AddressHeld(String reason) {
            super(reason, null, false, false);
        }
    }

    @Inject
    public EgressServiceClient(TrimusConfig config) {
        URI serviceUrl = config.egress().serviceUrl();
        Duration timeout = config.egress().registrationTimeout();
        Optional<ServiceCredential> credential = credential(config.encryptionKey(), config.egress().serviceCredential());
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
        this.credential = credential;
    }

    /** TRIMUS_EGRESS_SERVICE_CREDENTIAL, else the credential of TRIMUS_ENCRYPTION_KEY; when both are set they agree. */
    static Optional<ServiceCredential> credential(Optional<String> encryptionKey, Optional<String> configured) {
        Optional<ServiceCredential> derived = encryptionKey.filter(k -> !k.isBlank())
                .map(k -> ServiceCredential.of(EncryptionKey.parse(k)));
        Optional<String> given = configured.filter(c -> !c.isBlank());
        if (derived.isPresent() && given.isPresent() && !derived.get().matches(given.get().strip())) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_SERVICE_CREDENTIAL is not the one of this"
                    + " TRIMUS_ENCRYPTION_KEY: set one of them");
        }
        return derived.or(() -> given.map(ServiceCredential::parse));
    }

    /**
     * Tells egress-service that {@code ip} is this sandbox (without a container id: claims the address for the run);
     * returns once it answered 2xx.
     *
     * @throws AddressHeld when another run holds the address
     */
    public void register(String ip, SandboxRegistration registration)
            throws RegistrationFailed, AddressHeld, InterruptedException {
        Answer answer = send(r -> r.register(canonical(ip), registration));
        if (answer.status() == 409) {
            throw new AddressHeld(ip + " is held by another run (" + answer.reason() + ")");
        }
        answer.requireSuccess();
    }

    /**
     * Removes the registration {@code runId} holds at {@code ip}; one that egress-service does not know (404) is
     * already gone.
     */
    public void deregister(String ip, UUID runId) throws RegistrationFailed, InterruptedException {
        Answer answer = send(r -> r.deregister(canonical(ip), runId.toString()));
        if (answer.status() != 404) {
            answer.requireSuccess();
        }
    }

    /**
     * egress-service's current egress CA certificate ({@code GET} {@link EgressCa#PATH}), as PEM text.
     *
     * @throws RegistrationFailed when it is not there: no answer, a non-200 status (503 while egress-service has no CA
     *                            key), or a body larger than {@link #MAX_CA_BYTES}
     */
    public String ca() throws RegistrationFailed, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + EgressCa.PATH)).timeout(timeout)
                .header("Accept", "application/x-pem-file").GET().build();
        HttpResponse<byte[]> response;
        try {
            response = caClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            throw new RegistrationFailed(baseUrl + " did not accept a connection within " + seconds(), true);
        } catch (HttpTimeoutException e) {
            throw new RegistrationFailed(baseUrl + " did not answer within " + seconds());
        } catch (ConnectException e) {
            throw new RegistrationFailed(baseUrl + " unreachable: connection refused", true);
        } catch (IOException e) {
            throw new RegistrationFailed(baseUrl + " unreachable: "
                    + (e.getMessage() == null ? "the connection failed" : e.getMessage()));
        }
        String body = new String(response.body(), StandardCharsets.UTF_8);
        if (response.statusCode() != 200) {
            new Answer(baseUrl, response.statusCode(), body).requireSuccess();
            throw new RegistrationFailed(baseUrl + EgressCa.PATH + " answered HTTP " + response.statusCode()
                    + " without a certificate");
        }
        if (response.body().length > MAX_CA_BYTES) {
            throw new RegistrationFailed(baseUrl + EgressCa.PATH + " answered more than " + MAX_CA_BYTES
                    + " bytes, not a CA certificate");
        }
        return body;
    }

    /** How long the end of a run waits for its notes: they are a courtesy, never a reason to hold the run's end. */
    public static final Duration NOTES_TIMEOUT = Duration.ofSeconds(1);
    /** Largest notes answer read, and how many notes of at most how many characters are kept of it. */
    static final int MAX_NOTES_BYTES = 16 * 1024;
    static final int MAX_NOTES = 8;
    static final int MAX_NOTE_CHARS = 500;

    /**
     * What egress-service has to say about the names run {@code runId} used from {@code ip}
     * ({@code GET /internal/sandboxes/{ip}/notes?run_id=}: one note per base domain suspected of tunnelling), asked
     * once the run ended and before its registration is removed. Best effort within {@link #NOTES_TIMEOUT}: no
     * answer, a non-200 status or a body that is not the expected JSON gives no notes; at most {@link #MAX_NOTES} of
     * at most {@link #MAX_NOTE_CHARS} characters are kept.
     */
    public List<String> notes(String ip, UUID runId) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/internal/sandboxes/"
                + canonical(ip) + "/notes?run_id=" + runId)).timeout(NOTES_TIMEOUT)
                .header("Accept", "application/json").GET();
        credential.ifPresent(c -> request.header(BearerCredentials.HEADER, c.header()));
        try {
            HttpResponse<byte[]> response = caClient().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200 || response.body().length > MAX_NOTES_BYTES) {
                return List.of();
            }
            List<String> notes = new ArrayList<>();
            for (JsonNode note : JSON.readTree(response.body()).path("notes")) {
                if (note.isTextual() && !note.asText().isBlank() && notes.size() < MAX_NOTES) {
                    String text = note.asText().strip();
                    notes.add(text.length() > MAX_NOTE_CHARS ? text.substring(0, MAX_NOTE_CHARS) + "…" : text);
                }
            }
            return notes;
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private HttpClient caClient() {
        HttpClient built = caClient;
        if (built == null) {
            synchronized (this) {
                if (caClient == null) {
                    caClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
                            .followRedirects(HttpClient.Redirect.NEVER).build();
                }
                built = caClient;
            }
        }
        return built;
    }

    /** An address in the text form egress-service keys sandboxes by (and masks are sealed for). */
    public static String canonical(String ip) {
        return Cidr.text(Cidr.address(ip));
    }

    /** An HTTP answer of egress-service. */
    private record Answer(String baseUrl, int status, String body) {
        /** The problem detail, else "HTTP status". */
        String reason() {
            String detail = problemDetail(body);
            return detail == null ? "HTTP " + status : detail;
        }

        void requireSuccess() throws RegistrationFailed {
            if (status / 100 != 2) {
                String detail = problemDetail(body);
                throw new RegistrationFailed(baseUrl + " answered HTTP " + status
                        + (detail == null ? "" : ": " + detail), status == 503);
            }
        }
    }

    /**
     * One call; a kept-alive connection the server had already closed (idle timeout, a restart) fails before any
     * answer, so the call is made once more on a new connection: both calls are idempotent.
     */
    private Answer send(Function<SandboxRegistry, Response> call) throws RegistrationFailed, InterruptedException {
        try {
            return exchange(call);
        } catch (ProcessingException e) {
            if (!closedBeforeAnswer(e)) {
                throw failure(e);
            }
        }
        try {
            return exchange(call);
        } catch (ProcessingException e) {
            throw failure(e);
        }
    }

    private Answer exchange(Function<SandboxRegistry, Response> call) {
        try (Response response = call.apply(registry())) {
            return new Answer(baseUrl, response.getStatus(),
                    response.hasEntity() ? response.readEntity(String.class) : null);
        }
    }

    /**
     * The failure of a request whose connection closed before the answer: Vert.x's "Connection was closed", which the
     * REST client hands on as an IOException of that text.
     */
    private static boolean closedBeforeAnswer(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpClosedException || (t instanceof VertxException || t instanceof IOException)
                    && "Connection was closed".equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /** What a failed exchange means, in the words the run reports. */
    private RegistrationFailed failure(ProcessingException e) throws InterruptedException {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw (InterruptedException) t;
            }
            String name = t.getClass().getName();
            if (name.endsWith("ConnectTimeoutException")) {
                return new RegistrationFailed(baseUrl + " did not accept a connection within " + seconds(), true);
            }
            if (t instanceof TimeoutException || name.endsWith("TimeoutException")) {
                return new RegistrationFailed(baseUrl + " did not answer within " + seconds());
            }
            if (t instanceof ConnectException) {
                return new RegistrationFailed(baseUrl + " unreachable: connection refused", true);
            }
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("interrupted while calling egress-service");
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return new RegistrationFailed(baseUrl + " unreachable: "
                + (root.getMessage() == null ? "the connection failed" : root.getMessage()));
    }

    private SandboxRegistry registry() {
        SandboxRegistry built = registry;
        if (built == null) {
            synchronized (this) {
                if (registry == null) {
                    registry = QuarkusRestClientBuilder.newBuilder()
                            .baseUri(URI.create(baseUrl))
                            .connectTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                            .readTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                            .followRedirects(false)
                            // every status is read here: a 404 on deregister is fine, others become the reason
                            .disableDefaultMapper(true)
                            .register((ClientRequestFilter) request -> credential.ifPresent(c -> request.getHeaders()
                                    .putSingle(BearerCredentials.HEADER, c.header())))
                            .build(SandboxRegistry.class);
                }
                built = registry;
            }
        }
        return built;
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
