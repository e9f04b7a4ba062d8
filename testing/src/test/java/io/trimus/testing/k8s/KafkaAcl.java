package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One ACL rule of a Strimzi KafkaUser: the user, the resource (type, name, literal or prefix) and the operations.
 *
 * @param user       the KafkaUser's name
 * @param type       topic, group, cluster or transactionalId
 * @param name       the resource name, or its prefix
 * @param prefix     whether {@code name} is a prefix (patternType: prefix) rather than the name itself
 * @param operations Read, Write, Describe, …, as written
 */
public record KafkaAcl(String user, String type, String name, boolean prefix, Set<String> operations) {

    /** The rules of every KafkaUser of the manifests. */
    public static List<KafkaAcl> of(Manifests manifests) {
        List<KafkaAcl> acls = new ArrayList<>();
        for (Manifest user : manifests.custom(OperatorResources.STRIMZI, "KafkaUser")) {
            for (JsonNode rule : user.customFields().path("spec").path("authorization").path("acls")) {
                JsonNode resource = rule.path("resource");
                Set<String> operations = new TreeSet<>();
                rule.path("operations").forEach(o -> operations.add(o.asText()));
                if (rule.has("operation")) {
                    operations.add(rule.path("operation").asText());
                }
                acls.add(new KafkaAcl(user.name(), resource.path("type").asText(), resource.path("name").asText(),
                        "prefix".equals(resource.path("patternType").asText()), operations));
            }
        }
        return acls;
    }

    /** Whether this rule allows {@code operation} on the named resource of {@code type}. */
    public boolean allows(String type, String resource, String operation) {
        return this.type.equals(type) && operations.contains(operation) && covers(resource);
    }

    /**
     * Whether this rule allows {@code operation} on every resource of {@code type} whose name starts with
     * {@code namePrefix} (a consumer group named with a placeholder, e.g. trimus-adapter-cancel-${instance}).
     */
    public boolean allowsAllStartingWith(String type, String namePrefix, String operation) {
        return this.type.equals(type) && operations.contains(operation) && prefix && namePrefix.startsWith(name);
    }

    private boolean covers(String resource) {
        return prefix ? resource.startsWith(name) : resource.equals(name);
    }
}
