package io.trimus.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * One KRaft Kafka node (broker and controller) on 127.0.0.1, run in a child JVM by {@link Infra} until its stdin
 * closes. Arguments: broker port, controller port, log dir. The log dir is formatted only on first use, so a restart
 * with the same dir keeps topics and committed offsets.
 */
public final class KafkaBrokerMain {
    /** Printed, followed by the bootstrap address, once the broker answers describeCluster with a node. */
    public static final String READY = "KAFKA_READY ";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(110);

    private KafkaBrokerMain() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // the stdin watcher is a non-daemon thread: without an explicit exit a failed start would hang
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        int brokerPort = Integer.parseInt(arg(args, 0, "trimus.kafka.port"));
        int controllerPort = Integer.parseInt(arg(args, 1, "trimus.kafka.controller-port"));
        Path logDir = Path.of(arg(args, 2, "trimus.kafka.dir")).toAbsolutePath();
        // the broker would find out only after its controller is up, seconds later
        Ports.requireFree(brokerPort, "the Kafka broker", "another port");
        Ports.requireFree(controllerPort, "the Kafka controller", "another port");
        Files.createDirectories(logDir);
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            format(logDir);
        }

        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config(brokerPort, controllerPort, logDir), false),
                Time.SYSTEM);
        AtomicBoolean started = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // a broker still starting up is simply dropped: its log dir recovers on the next start
            if (started.get()) {
                System.out.println("shutting down the broker");
                server.shutdown();
                server.awaitShutdown();
                System.out.println("broker stopped");
            }
        }, "kafka-shutdown"));
        Stdin.exitWhenClosed();
        server.startup();
        started.set(true);

        String bootstrap = "127.0.0.1:" + brokerPort;
        awaitBroker(bootstrap);
        System.out.println(READY + bootstrap);
        System.out.flush();
    }

    static Properties config(int brokerPort, int controllerPort, Path logDir) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        // as many as k8s gives the topics: several consumers of one group (replicas) each get a share
        p.put("num.partitions", "3");
        p.put("auto.create.topics.enable", "true");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        return p;
    }

    private static void format(Path logDir) throws Exception {
        String dir = logDir.toString();
        new Formatter().setPrintStream(System.out)
                .setClusterId(Uuid.randomUuid().toString())
                .setNodeId(1)
                .setControllerListenerName("CONTROLLER")
                .setMetadataLogDirectory(dir)
                .setDirectories(List.of(dir))
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                .run();
    }

    private static void awaitBroker(String bootstrap) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Exception last = null;
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000))) {
            while (System.nanoTime() < deadline) {
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception e) {
                    last = e;
                }
                Thread.sleep(100);
            }
        }
        System.out.println("broker not ready within " + READY_TIMEOUT.toSeconds() + " s: " + last);
        System.exit(2);
    }

    static String arg(String[] args, int index, String property) {
        if (args.length > index) {
            return args[index];
        }
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalArgumentException("missing argument " + (index + 1) + " (or -D" + property + ")");
        }
        return value;
    }
}
