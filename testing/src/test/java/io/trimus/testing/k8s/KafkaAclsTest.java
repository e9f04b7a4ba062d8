package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.trimus.testing.k8s.KafkaChannels.Channel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka on Kubernetes lets each service do exactly what its code does (issue 16, item 4): every service logs in as a
 * KafkaUser of its own over SCRAM-SHA-512, the cluster enforces the users' ACLs, each topic has the writers named
 * below and no other, and each user's ACLs cover the channels of its service's code and nothing beyond them.
 */
class KafkaAclsTest {

    private static final ManifestTree TREE = ManifestTree.locate();
    private static final Manifests BASE = TREE.resources(TREE.kustomization("base"));
    private static final List<KafkaAcl> ACLS = KafkaAcl.of(BASE);
    private static final Path REPO = TREE.root().getParent();
    private static final Path TOPICS = REPO.resolve("events/src/main/java/io/trimus/events/Topics.java");

    /** The remote worker: the adapter service's code in worker mode (docs/remote-workers.md), on other hosts. */
    private static final String WORKER = "trimus-worker";

    /**
     * Channels of a module its KafkaUser does not use, by user and channel name ("in:" / "out:"), with why: the adapter's
     * code runs as the in-cluster dispatcher and as a remote worker, and each mode leaves some channels idle.
     */
    private static final Map<String, Set<String>> IDLE = Map.of(
            // Heartbeats.java publishes only in worker mode.
            "adapter-lambda-service", Set.of("out:trimus.worker.heartbeats"),
            // WorkerModeConfigSourceFactory switches run and canary requests off; a worker dispatches no remote tasks
            // and, probing no canary, answers none.
            WORKER, Set.of("in:trimus.run.requested", "out:trimus.remote.tasks", "in:trimus.egress.canary.requests",
                    "out:trimus.egress.canary.results"));

    /** Classes that build Kafka clients of their own, and what they do, as channels of the user that runs them. */
    private static final Map<String, Channel> OWN_CLIENTS = Map.of(
            // a consumer per worker tag, group trimus-worker-<tag>
            "RemoteTaskConsumer", new Channel("RemoteTaskConsumer", false, "trimus.remote.tasks", "trimus-worker-", true),
            // an Admin that describes trimus.remote.tasks and creates it or raises its partitions only where the broker
            // lets it (never under these ACLs: the KafkaTopic sets the partitions). Describe comes with the dispatcher's
            // Write and the worker's Read, so it is no user's channel and needs no ACL of its own
            "RemoteTaskTopic", new Channel("RemoteTaskTopic", false, "trimus.remote.tasks", null, false),
            // reads trimus.adapter.leases back without a group (assigned, nothing committed): who started a run first
            "LeaseLog", new Channel("LeaseLog", false, "trimus.adapter.leases", null, false),
            // the remote watch's probe: describeCluster, a metadata request no ACL governs
            "KafkaBrokerProbe", new Channel("KafkaBrokerProbe", false, null, null, false));
    private static final Map<String, Set<String>> OWN_CLIENT_USERS = Map.of("RemoteTaskConsumer", Set.of(WORKER),
            "LeaseLog", Set.of("adapter-lambda-service", WORKER));

    @Test
    void theServicesListenerRequiresScramAndTheClusterEnforcesAcls() {
        JsonNode kafka = BASE.custom(OperatorResources.STRIMZI, "Kafka").get(0).customFields().path("spec");
        int port = Integer.parseInt(configValue("TRIMUS_KAFKA_BOOTSTRAP").replaceAll(".*:", ""));

        assertThat(kafka.path("kafka").path("listeners")).isNotEmpty().allSatisfy(l -> assertThat(l.path("authentication")
                .path("type").asText()).as("listener %s", l.path("name").asText()).isEqualTo("scram-sha-512"));
        assertThat(kafka.path("kafka").path("listeners")).anySatisfy(l -> assertThat(l.path("port").asInt()).isEqualTo(port));
        assertThat(kafka.path("kafka").path("authorization").path("type").asText()).isEqualTo("simple");
        assertThat(kafka.path("entityOperator").has("userOperator")).isTrue();
    }

    @ParameterizedTest(name = "{0} logs in to Kafka as its own KafkaUser")
    @ValueSource(strings = {"run-service", "adapter-lambda-service", "egress-service", "admin-ui"})
    void eachServiceLogsInWithTheSecretOfItsOwnKafkaUser(String service) {
        Container container = BASE.find("Deployment", service).orElseThrow().as(Deployment.class)
                .getSpec().getTemplate().getSpec().getContainers().get(0);
        EnvVar jaas = container.getEnv().stream().filter(e -> e.getName().equals("KAFKA_SASL_JAAS_CONFIG")).findFirst().orElseThrow();
        JsonNode user = BASE.find("KafkaUser", service).orElseThrow().customFields().path("spec");

        assertThat(jaas.getValueFrom().getSecretKeyRef().getName()).isEqualTo(service);
        assertThat(jaas.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("sasl.jaas.config");
        assertThat(BASE.env(container, "KAFKA_SECURITY_PROTOCOL")).hasValueSatisfying(p -> assertThat(p).isIn("SASL_PLAINTEXT", "SASL_SSL"));
        assertThat(BASE.env(container, "KAFKA_SASL_MECHANISM")).contains("SCRAM-SHA-512");
        assertThat(user.path("authentication").path("type").asText()).isEqualTo("scram-sha-512");
    }

    @Test
    void everyDeploymentThatTalksToKafkaLogsIn() {
        List<String> talking = BASE.workloads().stream()
                .filter(w -> w.allContainers().stream().anyMatch(c -> c.getEnv().stream().anyMatch(e -> e.getName().equals("TRIMUS_KAFKA_BOOTSTRAP"))))
                .map(w -> w.manifest().name()).toList();
        List<String> loggingIn = BASE.workloads().stream()
                .filter(w -> w.allContainers().stream().anyMatch(c -> c.getEnv().stream().anyMatch(e -> e.getName().equals("KAFKA_SASL_JAAS_CONFIG"))))
                .map(w -> w.manifest().name()).toList();

        assertThat(talking).isNotEmpty().containsExactlyInAnyOrderElementsOf(loggingIn);
    }

    @ParameterizedTest(name = "{0} is written by {1} only")
    @CsvSource(delimiter = '|', value = {
            "trimus.run.requested    | run-service",
            "trimus.run.cancel       | run-service",
            "trimus.run.status       | adapter-lambda-service trimus-worker",
            "trimus.egress.anomalies | egress-service",
            "trimus.remote.tasks     | adapter-lambda-service",
            "trimus.worker.heartbeats| trimus-worker",
            "trimus.adapter.leases   | run-service adapter-lambda-service trimus-worker",
            "trimus.audit            | run-service egress-service",
            "trimus.egress.canary.requests | egress-service",
            "trimus.egress.canary.results  | adapter-lambda-service"})
    void eachTopicHasExactlyItsWriters(String topic, String writers) {
        Set<String> granted = ACLS.stream().filter(a -> a.allows("topic", topic, "Write")).map(KafkaAcl::user)
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(granted).containsExactlyInAnyOrder(writers.split(" "));
    }

    @Test
    void everyTopicHasARowOfWriters() {
        // the rows of eachTopicHasExactlyItsWriters: a new topic needs a decision about who writes it
        Set<String> rows = Set.of("trimus.run.requested", "trimus.run.cancel", "trimus.run.status", "trimus.egress.anomalies",
                "trimus.remote.tasks", "trimus.worker.heartbeats", "trimus.adapter.leases", "trimus.audit",
                "trimus.egress.canary.requests", "trimus.egress.canary.results");

        assertThat(BASE.custom(OperatorResources.STRIMZI, "KafkaTopic")).extracting(Manifest::name)
                .containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void noUserHoldsAllAWildcardOrAnythingBeyondTopicsAndGroups() {
        assertThat(ACLS).isNotEmpty().allSatisfy(acl -> {
            assertThat(acl.operations()).as("%s", acl).isNotEmpty().doesNotContain("All").isSubsetOf("Read", "Write", "Describe");
            assertThat(acl.name()).as("%s", acl).isNotBlank().doesNotContain("*");
            assertThat(acl.type()).as("%s", acl).isIn("topic", "group");
            assertThat(acl.prefix() && acl.type().equals("topic")).as("%s: topics are named, never prefixed", acl).isFalse();
        });
        assertThat(ACLS).filteredOn(a -> a.user().equals("admin-ui")).as("admin-ui reads only")
                .allSatisfy(a -> assertThat(a.operations()).doesNotContain("Write"));
    }

    @ParameterizedTest(name = "the ACLs of {0} cover every channel of its code")
    @ValueSource(strings = {"run-service", "adapter-lambda-service", "egress-service", "admin-ui", WORKER})
    void everyChannelOfAServiceIsCoveredByItsAcls(String user) {
        List<Channel> channels = uses(user);

        assertThat(channels).isNotEmpty().allSatisfy(c -> {
            String operation = c.outgoing() ? "Write" : "Read";
            assertThat(mine(user).anyMatch(a -> a.allows("topic", c.topic(), operation)))
                    .as("%s: %s %s (channel %s) has no ACL", user, operation, c.topic(), c.name()).isTrue();
            if (!c.outgoing() && c.group() != null) {   // an assigned consumer has no group
                assertThat(mine(user).anyMatch(a -> c.anyGroupStartingWith()
                        ? a.allowsAllStartingWith("group", c.group(), "Read") : a.allows("group", c.group(), "Read")))
                        .as("%s: group %s%s of channel %s has no Read ACL", user, c.group(), c.anyGroupStartingWith() ? "…" : "", c.name())
                        .isTrue();
            }
        });
    }

    @ParameterizedTest(name = "{0} holds no ACL its code does not use")
    @ValueSource(strings = {"run-service", "adapter-lambda-service", "egress-service", "admin-ui", WORKER})
    void noUserHoldsMoreThanItsCodeUses(String user) {
        List<Channel> channels = uses(user);

        assertThat(mine(user).toList()).isNotEmpty().allSatisfy(acl -> {
            for (String operation : acl.operations()) {
                boolean used = switch (acl.type() + " " + operation) {
                    case "topic Write" -> channels.stream().anyMatch(c -> c.outgoing() && acl.allows("topic", c.topic(), operation));
                    case "topic Read" -> channels.stream().anyMatch(c -> !c.outgoing() && acl.allows("topic", c.topic(), operation));
                    case "topic Describe" -> acl.operations().contains("Read") || acl.operations().contains("Write");
                    case "group Read" -> channels.stream().anyMatch(c -> !c.outgoing() && c.group() != null
                            && (c.anyGroupStartingWith()
                            ? acl.prefix() && c.group().startsWith(acl.name()) : acl.allows("group", c.group(), operation)));
                    default -> false;
                };
                assertThat(used)
                        .as("%s: %s %s %s is used by no channel of its code", user, operation, acl.type(), acl.name()).isTrue();
            }
        });
    }

    @Test
    void theComposeStackGrantsWhatKubernetesGrants() {
        List<KafkaAcl> compose = ComposeAclTable.read(REPO.resolve("deploy/kafka-sasl/kafka-users.sh"));

        assertThat(compose).isNotEmpty().containsExactlyInAnyOrderElementsOf(ACLS);
    }

    @Test
    void theIdleChannelsAndOwnClientsAreTheCodesOwn() {
        List<Channel> adapter = channels("adapter-lambda-service");

        assertThat(IDLE.values().stream().flatMap(Set::stream))
                .allSatisfy(idle -> assertThat(adapter).extracting(KafkaAclsTest::key).contains(idle));
        for (String module : List.of("run-service", "adapter-lambda-service", "egress-service", "admin-ui")) {
            assertThat(KafkaChannels.of(REPO.resolve(module), TOPICS).ownClients()).as(module)
                    .allSatisfy(c -> assertThat(OWN_CLIENTS).as("%s builds its own Kafka client: add it to OWN_CLIENTS", c).containsKey(c));
        }
        assertThat(KafkaChannels.of(REPO.resolve("adapter-lambda-service"), TOPICS).ownClients())
                .containsExactlyInAnyOrderElementsOf(OWN_CLIENTS.keySet());
    }

    /** What the user's service does: its module's channels less the idle ones, plus its own clients. */
    static List<Channel> uses(String user) {
        String module = user.equals(WORKER) ? "adapter-lambda-service" : user;
        List<Channel> uses = new ArrayList<>(channels(module).stream()
                .filter(c -> !IDLE.getOrDefault(user, Set.of()).contains(key(c))).toList());
        OWN_CLIENT_USERS.forEach((client, owners) -> {
            if (owners.contains(user)) {
                uses.add(OWN_CLIENTS.get(client));
            }
        });
        return uses;
    }

    private static List<Channel> channels(String module) {
        return KafkaChannels.of(REPO.resolve(module), TOPICS).channels();
    }

    private static String key(Channel c) {
        return (c.outgoing() ? "out:" : "in:") + c.name();
    }

    private static java.util.stream.Stream<KafkaAcl> mine(String user) {
        return ACLS.stream().filter(a -> a.user().equals(user));
    }

    private static String configValue(String key) {
        return BASE.find("ConfigMap", "trimus-config").orElseThrow().as(io.fabric8.kubernetes.api.model.ConfigMap.class).getData().get(key);
    }
}
