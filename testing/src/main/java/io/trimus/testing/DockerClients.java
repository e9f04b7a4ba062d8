package io.trimus.testing;

import java.time.Duration;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;

/**
 * docker-java clients for the local engine: unix:///var/run/docker.sock unless DOCKER_HOST says otherwise. The API
 * version is left unset because docker-java does not negotiate and this engine (20.10) refuses newer ones.
 */
public final class DockerClients {
    private DockerClients() {
    }

    /** A new client; close it when done. */
    public static DockerClient local() {
        DockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        ApacheDockerHttpClient http = new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(config.getSSLConfig())
                .maxConnections(50)
                .connectionTimeout(Duration.ofSeconds(10))
                .build();
        return DockerClientImpl.getInstance(config, http);
    }
}
