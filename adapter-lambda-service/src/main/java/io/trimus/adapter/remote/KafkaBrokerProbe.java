package io.trimus.adapter.remote;

import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks the broker for its nodes (a metadata request, which needs no ACL), with a one-second deadline: the remote
 * watch's evidence that heartbeats could have arrived.
 */
@Singleton
public class KafkaBrokerProbe implements BrokerProbe {

    private static final int TIMEOUT_MS = 1000;

    private final Map<String, Object> kafkaDefaults;
    private Admin admin;

    @Inject
    public KafkaBrokerProbe(@Identifier("default-kafka-broker") Map<String, Object> kafkaDefaults) {
        this.kafkaDefaults = kafkaDefaults;
    }

    @Override
    public synchronized boolean reachable() {
        try {
            if (admin == null) {
                admin = Admin.create(properties());
            }
            return !admin.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MS)).nodes()
                    .get(TIMEOUT_MS * 2L, TimeUnit.MILLISECONDS).isEmpty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return false;
        }
    }

    @PreDestroy
    synchronized void close() {
        if (admin != null) {
            admin.close(java.time.Duration.ofSeconds(1));
        }
    }

    private Properties properties() {
        Properties props = new Properties();
        kafkaDefaults.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                props.put(key, value);
            }
        });
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "trimus-remote-watch-probe");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS * 2));
        // a broker that is down is found out by the deadline above, not by long reconnect backoffs
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        return props;
    }
}
