package io.trimus.egress.proxy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PfxOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The "outside" hosts of the proxy tests, on loopback: an HTTPS server with a self-signed certificate (made by the
 * JDK's keytool) and a plain HTTP server. Both echo what they were asked: Host, path and body.
 */
public final class OutsideServers implements AutoCloseable {
    static final String PASSWORD = "changeit";

    final HttpServer https;
    final HttpServer http;
    final AtomicInteger httpsRequests = new AtomicInteger();
    final AtomicInteger httpRequests = new AtomicInteger();
    /** Every request either server received, as {@code <Host> <path>}. */
    final List<String> seen = new CopyOnWriteArrayList<>();

    OutsideServers(Vertx vertx, String httpsHost, String httpsName, String httpHost) throws Exception {
        Path keystore = selfSigned(httpsName);
        https = await(vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(new PfxOptions().setPath(keystore.toString()).setPassword(PASSWORD)))
                .requestHandler(request -> echo(request, httpsRequests, seen))
                .listen(0, httpsHost));
        http = await(vertx.createHttpServer()
                .requestHandler(request -> echo(request, httpRequests, seen))
                .listen(0, httpHost));
    }

    private static void echo(HttpServerRequest request, AtomicInteger counter, List<String> seen) {
        counter.incrementAndGet();
        seen.add(request.getHeader("Host") + " " + request.uri());
        request.body().onSuccess(body -> request.response().end(
                "host=" + request.getHeader("Host") + " path=" + request.uri() + " body=" + body));
    }

    private static Path selfSigned(String name) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("proxy-test-tls");
        Path keystore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD,
                "-keypass", PASSWORD, "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + name, "-ext", "SAN=dns:" + name, "-validity", "2")
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        return keystore;
    }

    @Override
    public void close() {
        await(https.close());
        await(http.close());
    }

    public static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
