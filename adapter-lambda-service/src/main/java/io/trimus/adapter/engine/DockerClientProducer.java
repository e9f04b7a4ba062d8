package io.trimus.adapter.engine;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import io.trimus.adapter.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.time.Duration;

/** The one docker-java client of the service, talking to TRIMUS_DOCKER_HOST. */
@ApplicationScoped
public class DockerClientProducer {

    /** An engine that does not accept a connection within this time counts as unreachable. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    @Produces
    @Singleton
    DockerClient dockerClient(TrimusConfig config) {
        return connect(config.docker().host());
    }

    void close(@Disposes DockerClient docker) throws IOException {
        docker.close();
    }

    /**
     * A client for {@code host}. Connecting gives up after {@link #CONNECT_TIMEOUT}; there is deliberately no
     * response timeout, because waiting for a container to exit is one long, silent response. The API version
     * is left unset: docker-java does not negotiate, and a pinned newer version is refused by older engines.
     */
    public static DockerClient connect(String host) {
        DockerClientConfig config;
        try {
            config = DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(host).build();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "TRIMUS_DOCKER_HOST must be unix:///path/to/docker.sock or tcp://host:port, got '" + host + "'", e);
        }
        ApacheDockerHttpClient http = new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(config.getSSLConfig())
                .connectionTimeout(CONNECT_TIMEOUT)
                .build();
        return DockerClientImpl.getInstance(config, http);
    }
}
