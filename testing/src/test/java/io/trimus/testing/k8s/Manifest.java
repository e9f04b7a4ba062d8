package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;

import java.util.Map;
import java.util.Objects;

/** One YAML document of the manifests, parsed into its fabric8 type, and the file it came from. */
public record Manifest(String source, KubernetesResource resource) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The resource's apiVersion, or "" when it has none. */
    public String apiVersion() {
        return resource instanceof HasMetadata r ? Objects.requireNonNullElse(r.getApiVersion(), "") : "";
    }

    /** The resource's kind, or "" when it has none. */
    public String kind() {
        return resource instanceof HasMetadata r ? Objects.requireNonNullElse(r.getKind(), "") : "";
    }

    /** metadata.name, or "" when it has none. */
    public String name() {
        return metadata().getName() == null ? "" : metadata().getName();
    }

    /** metadata (empty when the document has none). */
    public ObjectMeta metadata() {
        ObjectMeta meta = resource instanceof HasMetadata r ? r.getMetadata() : null;
        return meta == null ? new ObjectMeta() : meta;
    }

    /** metadata.labels, never null. */
    public Map<String, String> labels() {
        return metadata().getLabels() == null ? Map.of() : metadata().getLabels();
    }

    /** "Kind/name", how problems name a resource. */
    public String id() {
        return kind() + "/" + name();
    }

    /** Whether this is the given fabric8 type. */
    public boolean is(Class<? extends KubernetesResource> type) {
        return type.isInstance(resource);
    }

    /** The resource as the given fabric8 type. */
    public <T extends KubernetesResource> T as(Class<T> type) {
        return type.cast(resource);
    }

    /** Whether this is a custom resource of the given apiVersion and kind (parsed as GenericKubernetesResource). */
    public boolean isCustom(String apiVersion, String kind) {
        return resource instanceof GenericKubernetesResource && apiVersion.equals(apiVersion()) && kind.equals(kind());
    }

    /** A custom resource's top-level fields (spec, …) as JSON; missing fields read as MissingNode. */
    public JsonNode customFields() {
        return JSON.valueToTree(((GenericKubernetesResource) resource).getAdditionalProperties());
    }
}
