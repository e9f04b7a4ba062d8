package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.TreeSet;
import java.util.List;
import java.util.Set;

import static io.trimus.testing.k8s.OperatorResources.CNPG;
import static io.trimus.testing.k8s.OperatorResources.STRIMZI;
import static io.trimus.testing.k8s.OperatorResources.STRIMZI_CLUSTER;

/**
 * The key fields of the operators' custom resources, which the fabric8 model cannot check: a Kafka in KRaft mode
 * with node pools and listeners, node pools, topics and users that belong to an existing Kafka, nodes that are
 * controllers and brokers on persistent storage, users whose login a listener accepts and whose ACLs the cluster
 * enforces; a CloudNativePG cluster with instances, storage and an initdb bootstrap.
 */
public final class CustomResourceCheck implements ManifestCheck {

    private static final Set<String> ROLES = Set.of("controller", "broker");

    @Override
    public void check(Manifests manifests, Problems problems) {
        manifests.custom(STRIMZI, "Kafka").forEach(kafka -> kafka(manifests, kafka, problems));
        for (Manifest pool : manifests.custom(STRIMZI, "KafkaNodePool")) {
            belongsToKafka(manifests, pool, problems);
            nodePool(pool, problems);
        }
        for (Manifest topic : manifests.custom(STRIMZI, "KafkaTopic")) {
            belongsToKafka(manifests, topic, problems);
            JsonNode partitions = topic.customFields().path("spec").path("partitions");
            if (!partitions.isMissingNode() && partitions.asInt() < 1) {
                problems.add(topic, "spec.partitions must be at least 1");
            }
        }
        for (Manifest user : manifests.custom(STRIMZI, "KafkaUser")) {
            belongsToKafka(manifests, user, problems);
            kafkaUser(manifests, user, problems);
        }
        manifests.custom(CNPG, "Cluster").forEach(cluster -> postgres(cluster, problems));
    }

    private static void kafkaUser(Manifests manifests, Manifest user, Problems problems) {
        JsonNode spec = user.customFields().path("spec");
        Manifest kafka = manifests.custom(STRIMZI, "Kafka").stream()
                .filter(k -> k.name().equals(user.labels().get(STRIMZI_CLUSTER))).findFirst().orElse(null);
        if (kafka == null) {
            return;
        }
        JsonNode kafkaSpec = kafka.customFields().path("spec");
        if (!kafkaSpec.path("entityOperator").has("userOperator")) {
            problems.add(user, "Kafka/" + kafka.name() + " has no spec.entityOperator.userOperator to create it");
        }
        String login = spec.path("authentication").path("type").asText();
        boolean accepted = false;
        for (JsonNode listener : kafkaSpec.path("kafka").path("listeners")) {
            accepted |= login.equals(listener.path("authentication").path("type").asText());
        }
        if (!accepted) {
            problems.add(user, "authentication " + login + " is accepted by no listener of Kafka/" + kafka.name());
        }
        if (spec.has("authorization") && !kafkaSpec.path("kafka").has("authorization")) {
            problems.add(user, "has ACLs, but Kafka/" + kafka.name() + " has no spec.kafka.authorization to enforce them");
        }
    }

    private static void kafka(Manifests manifests, Manifest kafka, Problems problems) {
        for (String annotation : List.of("strimzi.io/kraft", "strimzi.io/node-pools")) {
            if (!"enabled".equals(kafka.metadata().getAnnotations().get(annotation))) {
                problems.add(kafka, "needs the annotation " + annotation + ": enabled");
            }
        }
        JsonNode spec = kafka.customFields().path("spec");
        JsonNode listeners = spec.path("kafka").path("listeners");
        if (listeners.isEmpty()) {
            problems.add(kafka, "has no spec.kafka.listeners");
        }
        for (JsonNode listener : listeners) {
            if (!listener.path("name").isTextual() || !listener.path("port").isInt() || !listener.path("type").isTextual()) {
                problems.add(kafka, "listener " + listener + " needs name, port and type");
            }
        }
        Set<String> roles = new TreeSet<>();
        manifests.custom(STRIMZI, "KafkaNodePool").stream()
                .filter(pool -> kafka.name().equals(pool.labels().get(STRIMZI_CLUSTER)))
                .forEach(pool -> pool.customFields().path("spec").path("roles").forEach(r -> roles.add(r.asText())));
        if (!roles.containsAll(ROLES)) {
            problems.add(kafka, "its node pools have roles " + roles + "; KRaft needs controller and broker nodes");
        }
        if (!manifests.custom(STRIMZI, "KafkaTopic").isEmpty() && !spec.path("entityOperator").has("topicOperator")) {
            problems.add(kafka, "has KafkaTopics but no spec.entityOperator.topicOperator to create them");
        }
    }

    private static void nodePool(Manifest pool, Problems problems) {
        JsonNode spec = pool.customFields().path("spec");
        if (spec.path("replicas").asInt() < 1) {
            problems.add(pool, "spec.replicas must be at least 1");
        }
        Set<String> roles = new TreeSet<>();
        spec.path("roles").forEach(r -> roles.add(r.asText()));
        if (roles.isEmpty() || !ROLES.containsAll(roles)) {
            problems.add(pool, "spec.roles " + roles + " must be controller and/or broker");
        }
        JsonNode storage = spec.path("storage");
        boolean persistent = isPersistentClaim(storage)
                || ("jbod".equals(storage.path("type").asText()) && !storage.path("volumes").isEmpty()
                    && allPersistent(storage.path("volumes")));
        if (!persistent) {
            problems.add(pool, "spec.storage must be persistent-claim with a size (or jbod of such volumes)");
        }
    }

    private static boolean allPersistent(JsonNode volumes) {
        for (JsonNode v : volumes) {
            if (!isPersistentClaim(v)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPersistentClaim(JsonNode storage) {
        return "persistent-claim".equals(storage.path("type").asText()) && !storage.path("size").asText().isBlank();
    }

    private static void belongsToKafka(Manifests manifests, Manifest m, Problems problems) {
        String cluster = m.labels().get(STRIMZI_CLUSTER);
        if (cluster == null || manifests.custom(STRIMZI, "Kafka").stream().noneMatch(k -> k.name().equals(cluster))) {
            problems.add(m, "label " + STRIMZI_CLUSTER + "=" + cluster + " names no Kafka of these manifests");
        }
    }

    private static void postgres(Manifest cluster, Problems problems) {
        JsonNode spec = cluster.customFields().path("spec");
        if (spec.path("instances").asInt() < 1) {
            problems.add(cluster, "spec.instances must be at least 1");
        }
        if (spec.path("storage").path("size").asText().isBlank()) {
            problems.add(cluster, "has no spec.storage.size");
        }
        JsonNode initdb = spec.path("bootstrap").path("initdb");
        if (initdb.path("database").asText().isBlank() || initdb.path("owner").asText().isBlank()) {
            problems.add(cluster, "spec.bootstrap.initdb needs database and owner");
        }
        // the services' login roles: row-level security binds them only if they cannot bypass it
        for (JsonNode role : spec.path("managed").path("roles")) {
            if (role.path("superuser").asBoolean(false) || role.path("bypassrls").asBoolean(false)
                    || role.path("passwordSecret").path("name").asText().isBlank()) {
                problems.add(cluster, "managed role " + role.path("name").asText()
                        + " must be no superuser, without bypassrls, with a passwordSecret");
            }
        }
    }
}
