package io.trimus.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** Stands in for a Quarkus fast-jar in {@link ServiceProcessTest}: readiness on quarkus.http.port (0: any free one,
 * announced as Quarkus does), echoes a property. */
public final class FakeQuarkusApp {
    private FakeQuarkusApp() {
    }

    public static void main(String[] args) throws IOException {
        String failure = System.getProperty("fake.fail");
        if (failure != null) {
            System.out.println(failure);
            System.exit(3);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(System.getProperty("quarkus.http.host"),
                Integer.getInteger("quarkus.http.port")), 0);
        server.createContext("/q/health/ready", exchange -> respond(exchange, "{\"status\":\"UP\"}"));
        server.createContext("/greeting", exchange -> respond(exchange, System.getProperty("fake.greeting", "")));
        server.start();
        System.out.println("fake service listening");
        // what Quarkus prints once it is up, with the port it bound (quarkus.http.port=0: one the system chose)
        System.out.println("fake-service started in 0.1s. Listening on: http://" + System.getProperty("quarkus.http.host")
                + ":" + server.getAddress().getPort());
    }

    private static void respond(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
