package io.trimus.adapter.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;
import io.trimus.adapter.config.TrimusConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The OCI runtimes registered with the Docker engine ({@code GET /info}, its {@code Runtimes}: name, path and the
 * arguments the engine passes), read at most every {@link #FRESH_FOR} and checked before a run's container is created:
 * a runtime the operator allows (TRIMUS_DOCKER_RUNTIMES) but the engine does not have, or a gVisor runtime whose
 * sandboxes could not reach the Trimus resolver (its own network stack without {@code --reproduce-nat}), REJECTS the
 * run with a sentence the operator can act on. The typed client does not carry a runtime's arguments, so the engine's own JSON is read.
 */
@ApplicationScoped
public class EngineRuntimes {

    /** How long one reading of the engine's runtimes is trusted. */
    public static final Duration FRESH_FOR = Duration.ofSeconds(30);
    /** The runsc flag (builds from 2023 on) that copies the container namespace's NAT rules into gVisor's own stack. */
    public static final String REPRODUCE_NAT = "--reproduce-nat";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_INFO_BYTES = 1 << 20;

    /** One runtime as the engine registered it. */
    public record Registered(String name, String path, List<String> args) {
        /** Whether it runs gVisor (its path names runsc, as Debian's package and Trimus's wrapper do). */
        public boolean gvisor() {
            return name.equals("runsc") || path != null && path.substring(path.lastIndexOf('/') + 1).contains("runsc");
        }
    }

    private final DockerHttpClient http;
    private volatile Map<String, Registered> known;
    private volatile long readAt;

    @Inject
    public EngineRuntimes(TrimusConfig config) {
        this(config.docker().host());
    }

    /** The runtimes of the engine at {@code host} ({@code unix://…} or {@code tcp://…}). */
    public EngineRuntimes(String host) {
        DefaultDockerClientConfig docker = DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(host)
                .build();
        this.http = new ApacheDockerHttpClient.Builder().dockerHost(docker.getDockerHost())
                .sslConfig(docker.getSSLConfig()).connectionTimeout(DockerClientProducer.CONNECT_TIMEOUT)
                .responseTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * Why a run cannot go under {@code runtime} on this engine: not registered, or gVisor whose sandboxes could not
     * resolve.
     *
     * @return empty when it can
     * @throws UncheckedIOException when the engine does not answer (the run fails as any engine failure does)
     */
    public Optional<String> refusal(String runtime) {
        return refusal(registered(), runtime);
    }

    /** Why a run cannot go under {@code runtime} on an engine with these runtimes; empty when it can. */
    static Optional<String> refusal(Map<String, Registered> registered, String runtime) {
        Registered found = registered.get(runtime);
        if (found == null) {
            return Optional.of("runtime " + runtime + " is allowed by TRIMUS_DOCKER_RUNTIMES but not registered with"
                    + " the Docker engine (registered: " + String.join(", ", registered.keySet()) + "); the operator"
                    + " registers it in the engine's daemon.json (docs/deployment.md, gVisor)");
        }
        if (found.gvisor() && !reachesEmbeddedDns(found.args())) {
            return Optional.of("runtime " + runtime + " is gVisor on its own network stack without " + REPRODUCE_NAT
                    + ": its sandboxes could not reach Docker's embedded DNS (127.0.0.11 would be their own loopback),"
                    + " so not the Trimus resolver; the operator registers it with --network=host, or with "
                    + REPRODUCE_NAT + " where the runsc build has it (docs/deployment.md, gVisor)");
        }
        return Optional.empty();
    }

    /**
     * Whether a gVisor sandbox with these arguments reaches Docker's embedded DNS, the only way a container on a
     * user-defined network (the egress network) resolves: on the host's network stack inside the container's
     * namespace ({@code --network=host}), Docker's NAT rule for 127.0.0.11 applies; on gVisor's own stack (the
     * default, {@code --network=sandbox}) only when runsc copies that rule into it ({@value #REPRODUCE_NAT}).
     */
    static boolean reachesEmbeddedDns(List<String> args) {
        String network = "sandbox";
        boolean reproduceNat = false;
        for (String arg : args) {
            if (arg.startsWith("--network=")) {
                network = arg.substring("--network=".length());
            } else if (arg.equals(REPRODUCE_NAT) || arg.equals(REPRODUCE_NAT + "=true")) {
                reproduceNat = true;
            }
        }
        return network.equals("host") || network.equals("sandbox") && reproduceNat;
    }

    /** The engine's runtimes by name, read again once {@link #FRESH_FOR} passed. */
    public Map<String, Registered> registered() {
        Map<String, Registered> cached = known;
        if (cached != null && System.nanoTime() - readAt < FRESH_FOR.toNanos()) {
            return cached;
        }
        Map<String, Registered> read = read();
        known = read;
        readAt = System.nanoTime();
        return read;
    }

    private Map<String, Registered> read() {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder().method(DockerHttpClient.Request.Method.GET)
                .path("/info").build();
        try (DockerHttpClient.Response response = http.execute(request); InputStream body = response.getBody()) {
            if (response.getStatusCode() != 200) {
                throw new UncheckedIOException(new IOException("the Docker engine answered GET /info with HTTP "
                        + response.getStatusCode()));
            }
            return parse(JSON.readTree(body.readNBytes(MAX_INFO_BYTES)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code Runtimes} of an engine's {@code /info} answer. */
    static Map<String, Registered> parse(JsonNode info) {
        Map<String, Registered> runtimes = new LinkedHashMap<>();
        info.path("Runtimes").fields().forEachRemaining(entry -> {
            List<String> args = new ArrayList<>();
            entry.getValue().path("runtimeArgs").forEach(arg -> args.add(arg.asText()));
            String path = entry.getValue().path("path").asText(null);
            runtimes.put(entry.getKey(), new Registered(entry.getKey(), path, List.copyOf(args)));
        });
        return runtimes;
    }

    @PreDestroy
    void close() throws IOException {
        http.close();
    }
}
