package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trimus.testing.Ports;
import io.trimus.testing.k8s.KafkaChannels.Channel;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ACLs on a real broker configured like the compose stack with docker-compose.sasl.yml (its KAFKA_* environment,
 * turned into server properties by apache/kafka's rules, on free ports): each user writes exactly the topics its row
 * in {@link KafkaAclsTest} names, idempotently and without IdempotentWrite, and reads every channel of its code with
 * its consumer group; a wrong password gets nowhere.
 */
class KafkaAclsOnABrokerTest {

    private static final Path REPO = ManifestTree.locate().root().getParent();
    private static final List<String> USERS = List.of("run-service", "adapter-lambda-service", "egress-service", "admin-ui", "trimus-worker");
    private static final Map<String, String> PASSWORDS = new HashMap<>();
    private static final Map<String, List<String>> WRITERS = Map.ofEntries(
            Map.entry("trimus.run.requested", List.of("run-service")),
            Map.entry("trimus.run.cancel", List.of("run-service")),
            Map.entry("trimus.run.status", List.of("adapter-lambda-service", "trimus-worker")),
            Map.entry("trimus.egress.anomalies", List.of("egress-service")),
            Map.entry("trimus.egress.canary.requests", List.of("egress-service")),
            Map.entry("trimus.egress.canary.results", List.of("adapter-lambda-service")),
            Map.entry("trimus.remote.tasks", List.of("adapter-lambda-service")),
            Map.entry("trimus.worker.heartbeats", List.of("trimus-worker")),
            Map.entry("trimus.adapter.leases", List.of("run-service", "adapter-lambda-service", "trimus-worker")),
            Map.entry("trimus.audit", List.of("run-service", "egress-service")));

    @TempDir
    static Path logDir;
    private static KafkaRaftServer server;
    private static String sasl;

    @BeforeAll
    static void startTheBrokerAndCreateUsersAndAcls() throws Exception {
        List<Integer> ports = Ports.free(3);
        Properties props = brokerProperties(ports.get(0), ports.get(1), ports.get(2));
        sasl = "127.0.0.1:" + ports.get(0);
        String dir = logDir.toString();
        new Formatter().setPrintStream(System.out).setClusterId(Uuid.randomUuid().toString()).setNodeId(1)
                .setControllerListenerName("CONTROLLER").setMetadataLogDirectory(dir).setDirectories(List.of(dir))
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION).run();
        server = new KafkaRaftServer(new KafkaConfig(props, false), Time.SYSTEM);
        server.startup();

        // what deploy/kafka-sasl/kafka-users.sh does with the CLI tools, through the same Admin APIs, on the loopback listener
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:" + ports.get(1)))) {
            admin.createTopics(WRITERS.keySet().stream().map(t -> new NewTopic(t, 1, (short) 1)).toList()).all().get(60, TimeUnit.SECONDS);
            List<AclBinding> bindings = new ArrayList<>();
            for (KafkaAcl acl : ComposeAclTable.read(REPO.resolve("deploy/kafka-sasl/kafka-users.sh"))) {
                ResourcePattern resource = new ResourcePattern(ResourceType.fromString(acl.type()), acl.name(),
                        acl.prefix() ? PatternType.PREFIXED : PatternType.LITERAL);
                for (String operation : acl.operations()) {
                    bindings.add(new AclBinding(resource, new AccessControlEntry("User:" + acl.user(), "*",
                            AclOperation.fromString(operation.toUpperCase(Locale.ROOT)), AclPermissionType.ALLOW)));
                }
            }
            admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
            for (String user : USERS) {
                PASSWORDS.put(user, UUID.randomUUID().toString());
                admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), PASSWORDS.get(user)))).all().get(30, TimeUnit.SECONDS);
            }
        }
    }

    @AfterAll
    static void stopTheBroker() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
        }
    }

    @ParameterizedTest(name = "{0} writes exactly its topics")
    @ValueSource(strings = {"run-service", "adapter-lambda-service", "egress-service", "admin-ui", "trimus-worker"})
    void eachUserWritesExactlyTheTopicsItsRowNames(String user) throws Exception {
        for (var topic : WRITERS.entrySet()) {
            try (var producer = new KafkaProducer<String, String>(client(user, PASSWORDS.get(user), Map.of(
                    "key.serializer", StringSerializer.class.getName(), "value.serializer", StringSerializer.class.getName(),
                    "max.block.ms", "10000", "delivery.timeout.ms", "10000", "request.timeout.ms", "5000")))) {
                var record = new ProducerRecord<>(topic.getKey(), "k", "from " + user);
                if (topic.getValue().contains(user)) {
                    assertThat(producer.send(record).get(20, TimeUnit.SECONDS).offset()).as("%s writes %s", user,
                            topic.getKey()).isGreaterThanOrEqualTo(0);
                } else {
                    // Topic…, or Cluster… for a user with Write on no topic at all: it gets no idempotent producer id,
                    // and once the producer knows that, send() itself throws instead of failing its future
                    Throwable failure = catchThrowable(() -> producer.send(record).get(20, TimeUnit.SECONDS));
                    assertThat(java.util.stream.Stream.iterate(failure, java.util.Objects::nonNull, Throwable::getCause))
                            .as("%s writes %s: %s", user, topic.getKey(), failure)
                            .anyMatch(AuthorizationException.class::isInstance);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} reads every channel of its code with its group")
    @ValueSource(strings = {"run-service", "adapter-lambda-service", "egress-service", "admin-ui", "trimus-worker"})
    void eachUserReadsItsChannelsWithItsGroups(String user) {
        for (Channel channel : KafkaAclsTest.uses(user).stream().filter(c -> !c.outgoing()).toList()) {
            String group = channel.anyGroupStartingWith() ? channel.group() + "test" : channel.group();
            TopicPartition partition = new TopicPartition(channel.topic(), 0);
            try (var consumer = consumer(user, PASSWORDS.get(user), group)) {
                consumer.assign(List.of(partition));
                consumer.seekToBeginning(List.of(partition));
                consumer.poll(Duration.ofSeconds(2));   // fetches, or throws if the topic is not the user's to read
                if (group != null) {   // an assigned consumer without a group commits nothing
                    consumer.commitSync(Map.of(partition, new OffsetAndMetadata(0)));   // Read on the group
                }
            }
        }
    }

    @Test
    void aUserReadsNoTopicAndNoGroupBeyondItsOwn() {
        TopicPartition requested = new TopicPartition("trimus.run.requested", 0);
        try (var consumer = consumer("admin-ui", PASSWORDS.get("admin-ui"), "trimus-admin-ui-run-status-test")) {
            consumer.assign(List.of(requested));
            consumer.seekToBeginning(List.of(requested));
            assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(5))).isInstanceOf(TopicAuthorizationException.class);
        }
        TopicPartition cancel = new TopicPartition("trimus.run.cancel", 0);
        try (var consumer = consumer("trimus-worker", PASSWORDS.get("trimus-worker"), "trimus-adapter")) {
            consumer.assign(List.of(cancel));
            assertThatThrownBy(() -> consumer.commitSync(Map.of(cancel, new OffsetAndMetadata(0)), Duration.ofSeconds(5)))
                    .as("a worker cannot join the dispatchers' run-request group").isInstanceOf(GroupAuthorizationException.class);
        }
    }

    @Test
    void aWrongPasswordGetsNowhere() {
        try (var consumer = consumer("run-service", "not-the-password", "trimus-run-service")) {
            consumer.assign(List.of(new TopicPartition("trimus.run.status", 0)));
            assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(5))).isInstanceOf(SaslAuthenticationException.class);
        }
    }

    /** The broker's properties: the kafka service's environment of both compose files, by apache/kafka's rules. */
    private static Properties brokerProperties(int saslPort, int localPort, int controllerPort) throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        Map<String, String> env = new HashMap<>();
        for (String file : List.of("docker-compose.yml", "docker-compose.sasl.yml")) {
            JsonNode environment = yaml.readTree(REPO.resolve(file).toFile()).path("services").path("kafka").path("environment");
            environment.fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        }
        Properties props = new Properties();
        env.forEach((name, value) -> {
            if (name.startsWith("KAFKA_") && !List.of("KAFKA_HEAP_OPTS", "KAFKA_OPTS", "KAFKA_JVM_OPTS").contains(name)) {
                String key = name.substring("KAFKA_".length()).replace("___", "-").replace("__", "@").replace('_', '.')
                        .replace('@', '_').toLowerCase(Locale.ROOT);
                props.put(key, value.replace(":19092", ":" + localPort).replace(":9092", ":" + saslPort)
                        .replace(":9093", ":" + controllerPort).replace("://:", "://127.0.0.1:").replace("//kafka:", "//127.0.0.1:"));
            }
        });
        props.put("log.dirs", logDir.toString());
        props.put("offsets.topic.num.partitions", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        return props;
    }

    private static KafkaConsumer<String, String> consumer(String user, String password, String group) {
        Map<String, String> settings = new java.util.HashMap<>(Map.of("enable.auto.commit", "false",
                "key.deserializer", StringDeserializer.class.getName(), "value.deserializer", StringDeserializer.class.getName(),
                "default.api.timeout.ms", "10000"));
        if (group != null) {   // null: an assigned consumer without a group
            settings.put("group.id", group);
        }
        return new KafkaConsumer<>(client(user, password, settings));
    }

    /** A client that logs in as the services do with KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_MECHANISM and KAFKA_SASL_JAAS_CONFIG. */
    private static Properties client(String user, String password, Map<String, String> more) {
        Properties props = new Properties();
        props.put("bootstrap.servers", sasl);
        props.put("security.protocol", "SASL_PLAINTEXT");
        props.put("sasl.mechanism", "SCRAM-SHA-512");
        props.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user + "\" password=\"" + password + "\";");
        props.putAll(more);
        return props;
    }
}
