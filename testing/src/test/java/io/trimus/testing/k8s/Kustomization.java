package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One kustomization.yaml: the directory it sits in and the fields the checks read. */
public record Kustomization(Path dir, String source, JsonNode tree) {

    /** The top-level fields kustomize knows that these manifests may use; anything else is likely a typo. */
    public static final Set<String> KNOWN_FIELDS = Set.of("apiVersion", "kind", "metadata", "namespace", "namePrefix",
            "nameSuffix", "labels", "commonLabels", "commonAnnotations", "resources", "components", "patches",
            "patchesStrategicMerge", "images", "replicas", "configMapGenerator", "secretGenerator", "generatorOptions");

    /** The file name kustomize looks for in a directory. */
    public static final String FILE_NAME = "kustomization.yaml";

    /** Entries of {@code resources}: files, or directories that hold a kustomization. */
    public List<String> resources() {
        return texts(tree.path("resources"));
    }

    /** Patch files: {@code patches[].path} and the older {@code patchesStrategicMerge}. */
    public List<String> patchFiles() {
        List<String> files = new ArrayList<>();
        tree.path("patches").forEach(p -> {
            if (p.hasNonNull("path")) {
                files.add(p.path("path").asText());
            }
        });
        files.addAll(texts(tree.path("patchesStrategicMerge")));
        return files;
    }

    /** The {@code target} of the patch entry for that file, or MissingNode (kustomize then reads the patch's own kind and name). */
    public JsonNode patchTarget(String file) {
        for (JsonNode p : tree.path("patches")) {
            if (file.equals(p.path("path").asText())) {
                return p.path("target");
            }
        }
        return MissingNode.getInstance();
    }

    /** Entries of {@code images}. */
    public List<JsonNode> images() {
        List<JsonNode> images = new ArrayList<>();
        tree.path("images").forEach(images::add);
        return images;
    }

    /** {@code namespace}, or "" when unset. */
    public String namespace() {
        return tree.path("namespace").asText("");
    }

    /** The labels it adds to every resource: {@code labels[].pairs} and {@code commonLabels}. */
    public Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        tree.path("labels").forEach(l -> l.path("pairs").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText())));
        tree.path("commonLabels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }

    /** Top-level fields outside {@link #KNOWN_FIELDS}. */
    public List<String> unknownFields() {
        List<String> unknown = new ArrayList<>();
        for (Iterator<String> names = tree.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KNOWN_FIELDS.contains(name)) {
                unknown.add(name);
            }
        }
        return unknown;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
