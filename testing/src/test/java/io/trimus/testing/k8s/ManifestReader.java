package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.KubernetesResource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads YAML files: every document of a manifest into its fabric8 type by apiVersion/kind (fabric8's own
 * KubernetesDeserializer; kinds outside the model become GenericKubernetesResource), a kustomization as a tree.
 */
public final class ManifestReader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private ManifestReader() {
    }

    /** Every non-empty document of the file, named {@code source} in problems. */
    public static List<Manifest> read(Path file, String source) {
        List<Manifest> manifests = new ArrayList<>();
        try (MappingIterator<KubernetesResource> documents = YAML.readerFor(KubernetesResource.class).readValues(file.toFile())) {
            while (documents.hasNextValue()) {
                KubernetesResource resource = documents.nextValue();
                if (resource != null) {
                    manifests.add(new Manifest(source, resource));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + source, e);
        }
        return manifests;
    }

    /** The file's single document as a tree (kustomization.yaml). */
    public static JsonNode tree(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + file, e);
        }
    }
}
