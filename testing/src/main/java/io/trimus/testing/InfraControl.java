package io.trimus.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Test-side client of the control port of {@link TrimusInfraResource}: stops and restarts the Kafka broker from inside
 * a Quarkus test, e.g. to prove that an outbox relay catches up after an outage.
 */
public final class InfraControl {
    /** The config key under which the resource publishes the control address {@code 127.0.0.1:PORT}. */
    // Not under "trimus.": each service's @ConfigMapping(prefix = "trimus") rejects keys it does not know.
    public static final String CONFIG_KEY = "trimus-test.infra-control";
    private static final Duration ANSWER_TIMEOUT = Infra.READY_TIMEOUT.plusSeconds(60);

    private final String host;
    private final int port;

    private InfraControl(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** Reads {@value #CONFIG_KEY} from the MicroProfile config of the running test. */
    public static InfraControl fromConfig() {
        return at(ConfigProvider.getConfig().getValue(CONFIG_KEY, String.class));
    }

    /** A client for {@code host:port}. */
    public static InfraControl at(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected host:port, got '" + address + "'");
        }
        return new InfraControl(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
    }

    public void ping() {
        send("ping");
    }

    /** Returns once the broker process has shut down. */
    public void stopKafka() {
        send("kafka stop");
    }

    /** Returns once the broker is back on the same port with its data and answers describeCluster. */
    public void startKafka() {
        send("kafka start");
    }

    /** Sends one command line; returns {@code OK} or throws with the server's message. */
    public String send(String command) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5_000);
            socket.setSoTimeout((int) ANSWER_TIMEOUT.toMillis());
            PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out.println(command);
            String answer = in.readLine();
            if ("OK".equals(answer)) {
                return answer;
            }
            throw new IllegalStateException("infra control '" + command + "' failed: "
                    + (answer == null ? "connection closed without an answer" : answer));
        } catch (IOException e) {
            throw new UncheckedIOException("infra control at " + host + ":" + port + " unreachable for '" + command + "'", e);
        }
    }
}
