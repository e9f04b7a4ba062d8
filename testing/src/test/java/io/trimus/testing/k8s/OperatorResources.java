package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the Strimzi and CloudNativePG operators create from the custom resources, so that selectors and addresses
 * aimed at those pods and Services can be checked: the pod labels and Service names are the operators' documented
 * conventions (Strimzi: {@code strimzi.io/cluster}, {@code <kafka>-kafka-bootstrap}; CloudNativePG:
 * {@code cnpg.io/cluster}, {@code <cluster>-rw}; Strimzi's User Operator: a Secret named like each KafkaUser).
 */
public final class OperatorResources {

    /** Strimzi's API. */
    public static final String STRIMZI = "kafka.strimzi.io/v1beta2";
    /** CloudNativePG's API. */
    public static final String CNPG = "postgresql.cnpg.io/v1";
    /** The custom kinds the manifests may contain, by apiVersion; anything else outside the fabric8 model is an error. */
    public static final Map<String, Set<String>> CUSTOM_KINDS = Map.of(
            STRIMZI, Set.of("Kafka", "KafkaNodePool", "KafkaTopic", "KafkaUser"),
            CNPG, Set.of("Cluster"));
    /** The label Strimzi puts on everything of one Kafka cluster (and that node pools and topics must carry). */
    public static final String STRIMZI_CLUSTER = "strimzi.io/cluster";
    /** The label CloudNativePG puts on the pods of one cluster. */
    public static final String CNPG_CLUSTER = "cnpg.io/cluster";
    private static final int POSTGRES_PORT = 5432;
    /** The keys of the Secret Strimzi's User Operator writes for a KafkaUser, by spec.authentication.type. */
    private static final Map<String, Set<String>> USER_SECRET_KEYS = Map.of(
            "scram-sha-512", Set.of("password", "sasl.jaas.config"),
            "tls", Set.of("ca.crt", "user.crt", "user.key", "user.p12", "user.password"));

    private OperatorResources() {
    }

    /** Labels of the pods the operators will run: Kafka nodes per node pool, the entity operator, PostgreSQL instances. */
    public static List<Map<String, String>> pods(Manifests manifests) {
        List<Map<String, String>> pods = new ArrayList<>();
        for (Manifest kafka : manifests.custom(STRIMZI, "Kafka")) {
            String cluster = kafka.name();
            for (Manifest pool : manifests.custom(STRIMZI, "KafkaNodePool")) {
                if (cluster.equals(pool.labels().get(STRIMZI_CLUSTER))) {
                    Map<String, String> labels = strimzi(cluster, cluster + "-kafka");
                    labels.put("strimzi.io/pool-name", pool.name());
                    for (JsonNode role : pool.customFields().path("spec").path("roles")) {
                        labels.put("strimzi.io/" + role.asText() + "-role", "true");
                    }
                    pods.add(labels);
                }
            }
            if (kafka.customFields().path("spec").has("entityOperator")) {
                pods.add(strimzi(cluster, cluster + "-entity-operator"));
            }
        }
        for (Manifest cluster : manifests.custom(CNPG, "Cluster")) {
            pods.add(Map.of(CNPG_CLUSTER, cluster.name(), "cnpg.io/podRole", "instance"));
        }
        return pods;
    }

    /** Services the operators will create, with their ports: Kafka's bootstrap and brokers, PostgreSQL's rw/ro/r. */
    public static Map<String, Set<Integer>> services(Manifests manifests) {
        Map<String, Set<Integer>> services = new HashMap<>();
        for (Manifest kafka : manifests.custom(STRIMZI, "Kafka")) {
            List<Integer> ports = new ArrayList<>();
            kafka.customFields().path("spec").path("kafka").path("listeners").forEach(l -> ports.add(l.path("port").asInt()));
            services.put(kafka.name() + "-kafka-bootstrap", Set.copyOf(ports));
            services.put(kafka.name() + "-kafka-brokers", Set.copyOf(ports));
        }
        for (Manifest cluster : manifests.custom(CNPG, "Cluster")) {
            for (String suffix : List.of("-rw", "-ro", "-r")) {
                services.put(cluster.name() + suffix, Set.of(POSTGRES_PORT));
            }
        }
        return services;
    }

    /** Secrets the operators will create, with their keys: one per KafkaUser, named like it. */
    public static Map<String, Set<String>> secrets(Manifests manifests) {
        Map<String, Set<String>> secrets = new HashMap<>();
        for (Manifest user : manifests.custom(STRIMZI, "KafkaUser")) {
            String type = user.customFields().path("spec").path("authentication").path("type").asText();
            secrets.put(user.name(), USER_SECRET_KEYS.getOrDefault(type, Set.of()));
        }
        return secrets;
    }

    private static Map<String, String> strimzi(String cluster, String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(STRIMZI_CLUSTER, cluster);
        labels.put("strimzi.io/kind", "Kafka");
        labels.put("strimzi.io/name", name);
        return labels;
    }
}
