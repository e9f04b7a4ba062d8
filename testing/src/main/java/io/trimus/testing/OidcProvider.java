package io.trimus.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A real OpenID Connect provider for the sign-in tests: navikt's mock-oauth2-server (Maven Central, an optional
 * dependency of this module) in a child JVM on 127.0.0.1 at a port it binds itself
 * ({@link OidcProviderMain}, port 0; named {@code localhost}), with interactive
 * login: its sign-in page asks for a subject and a JSON object of claims, which end up in the ID token it signs.
 * Discovery, JWKS, code flow with state, nonce and PKCE are its own. {@link #issuer()} is
 * {@code http://localhost:PORT/trimus}; any other path ({@link #otherIssuer(String)}) is another issuer with keys of
 * its own.
 */
public final class OidcProvider implements AutoCloseable {
    /** The client id the tests register: the provider accepts any client and secret. */
    public static final String CLIENT_ID = "trimus-dashboard";
    /** The client secret the tests configure. */
    public static final String CLIENT_SECRET = "trimus-test-client-secret";
    private static final String MAIN = OidcProviderMain.class.getName();
    private static final java.util.concurrent.atomic.AtomicInteger STARTED = new java.util.concurrent.atomic.AtomicInteger();
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern CODE = Pattern.compile("[?&]code=([^&]+)");
    private static final Pattern ID_TOKEN = Pattern.compile("\"id_token\"\\s*:\\s*\"([^\"]+)\"");

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final ChildProcess process;
    private final int port;
    private final Thread killOnExit;

    private OidcProvider(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
        // the provider does not watch its stdin: do not let it outlive the tests
        this.killOnExit = new Thread(() -> process.terminate(Duration.ofSeconds(5)), "trimus-oidc-provider-kill");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Starts the provider on a port it binds itself (port 0) and waits until it answers. */
    public static OidcProvider start() {
        Map<String, String> env = Map.of("SERVER_HOSTNAME", "127.0.0.1",
                "JSON_CONFIG", "{\"interactiveLogin\": true, \"httpServer\": \"NettyWrapper\"}", "LOG_LEVEL", "WARN");
        // two SLF4J providers are on the recorded classpath; the provider logs through its own logback
        List<String> command = ChildJvm.command(MAIN, List.of("-Xmx128m",
                "-Dslf4j.provider=ch.qos.logback.classic.spi.LogbackServiceProvider"), List.of());
        Path log = Path.of(System.getProperty("user.dir"), "target",
                "oidc-provider-" + ProcessHandle.current().pid() + "-" + STARTED.incrementAndGet() + ".log");
        ChildProcess child = ChildProcess.start("oidc-provider", command, env, log, OidcProviderMain.READY);
        int port;
        try {
            port = Integer.parseInt(child.awaitReady(READY_TIMEOUT));
        } catch (RuntimeException e) {
            child.terminate(Duration.ofSeconds(5));
            throw e;
        }
        OidcProvider provider = new OidcProvider(child, port);
        try {
            provider.awaitReady();
            return provider;
        } catch (RuntimeException e) {
            provider.close();
            throw e;
        }
    }

    /**
     * The issuer the services are configured with. It listens on 127.0.0.1 but is named {@code localhost}: to a
     * browser that is another site than a dashboard on 127.0.0.1, as a real provider is, so SameSite rules apply.
     */
    public String issuer() {
        return "http://localhost:" + port + "/trimus";
    }

    /** {@code issuer}'s sibling at another path of the same server: another issuer with keys of its own. */
    public static String otherIssuer(String issuer) {
        return issuer.substring(0, issuer.lastIndexOf('/')) + "/elsewhere";
    }

    /**
     * An ID token of {@code issuer} (a running provider's) for {@code clientId}, obtained through the provider's code
     * flow as a browser would (its login form with {@code subject} and {@code claimsJson}); claims given override the
     * provider's own, {@code exp} included. Static, so a test needs only the issuer its configuration names.
     */
    public static String idToken(String issuer, String clientId, String subject, String claimsJson) {
        String redirect = "http://127.0.0.1:9/callback";
        String query = form(Map.of("client_id", clientId, "response_type", "code", "redirect_uri", redirect,
                "scope", "openid email", "state", "test-state", "nonce", "test-nonce"));
        HttpResponse<String> login = send(HttpRequest.newBuilder(URI.create(issuer + "/authorize?" + query))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("username", subject, "claims", claimsJson))))
                .build());
        Matcher code = CODE.matcher(login.headers().firstValue("Location").orElse(""));
        if (login.statusCode() != 302 || !code.find()) {
            throw new IllegalStateException("the provider's login answered " + login.statusCode() + ": "
                    + login.body());
        }
        HttpResponse<String> token = send(HttpRequest.newBuilder(URI.create(issuer + "/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("grant_type", "authorization_code",
                        "code", code.group(1), "redirect_uri", redirect, "client_id", clientId,
                        "client_secret", CLIENT_SECRET)))).build());
        Matcher idToken = ID_TOKEN.matcher(token.body());
        if (token.statusCode() != 200 || !idToken.find()) {
            throw new IllegalStateException("the provider's token endpoint answered " + token.statusCode() + ": "
                    + token.body());
        }
        return idToken.group(1);
    }

    @Override
    public void close() {
        process.terminate(Duration.ofSeconds(5));
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException ignored) {
            // the JVM is already shutting down
        }
    }

    private void awaitReady() {
        HttpRequest alive = HttpRequest.newBuilder(URI.create(issuer() + "/.well-known/openid-configuration"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the OIDC provider exited before it was ready"
                        + process.exitCodeText() + process.describeLog());
            }
            try {
                HttpResponse<String> answer = HTTP.send(alive, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return;
                }
                last = "HTTP " + answer.statusCode();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the OIDC provider", e);
            }
            try {
                Thread.sleep(100); // bound, but discovery answering is the sign it serves
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the OIDC provider", e);
            }
        }
        throw new IllegalStateException("the OIDC provider did not answer within " + READY_TIMEOUT.toSeconds()
                + " s (last: " + last + ")" + process.describeLog());
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String form(Map<String, String> fields) {
        return fields.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }
}
