package io.trimus.adapter.worker;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.adapter.RemoteAdapterConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.UUID;

/** Whether this process is a worker (TRIMUS_WORKER_TAGS set), and if so its id and tags. */
@Singleton
public class WorkerIdentity {

    private final String id;
    private final List<String> tags;

    @Inject
    public WorkerIdentity(TrimusConfig config) {
        this.tags = config.worker().tags().orElse(List.of()).stream().map(String::trim).filter(t -> !t.isEmpty())
                .distinct().toList();
        for (String tag : tags) {
            if (!RemoteAdapterConfig.TAG.matcher(tag).matches()) {
                throw new IllegalArgumentException("TRIMUS_WORKER_TAGS: '" + tag + "' is not a worker tag (1 to 64"
                        + " letters, digits, '.', '_' or '-', starting with a letter or digit)");
            }
        }
        this.id = config.worker().id().orElseGet(() -> hostName() + "-" + UUID.randomUUID().toString().substring(0, 8));
    }

    /** True when this process claims remote runs. */
    public boolean isWorker() {
        return !tags.isEmpty();
    }

    public String id() {
        return id;
    }

    public List<String> tags() {
        return tags;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "worker";
        }
    }
}
