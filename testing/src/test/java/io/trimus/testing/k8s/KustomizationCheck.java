package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The kustomizations of a tree: their fields are known ones, every resource and patch they list exists (and is
 * local), every YAML file of the tree is listed by one of them, each patch is well-formed and targets a resource the
 * kustomization has, each {@code images} entry names an image its containers use and pins no {@code latest}, and a
 * Namespace resource agrees with {@code namespace}.
 */
public final class KustomizationCheck {

    /** Adds a problem for everything found wrong with the tree's kustomizations. */
    public void check(ManifestTree tree, Problems problems) {
        Set<Path> listed = new HashSet<>();
        for (Kustomization k : tree.kustomizations()) {
            k.unknownFields().forEach(field -> problems.add(k.source(), "unknown field " + field));
            for (String entry : k.resources()) {
                Path target = tree.resolve(k, entry);
                if (entry.contains("://")) {
                    problems.add(k.source(), "resource " + entry + " is remote; everything must be in the repository");
                } else if (Files.isRegularFile(target)) {
                    listed.add(target);
                } else if (!Files.isRegularFile(target.resolve(Kustomization.FILE_NAME))) {
                    problems.add(k.source(), "resource " + entry + " does not exist");
                }
            }
            Manifests resources = tree.resources(k);
            for (String file : k.patchFiles()) {
                Path patch = tree.resolve(k, file);
                if (!Files.isRegularFile(patch)) {
                    problems.add(k.source(), "patch " + file + " does not exist");
                    continue;
                }
                listed.add(patch);
                patch(tree, k, file, patch, resources, problems);
            }
            images(k, resources, problems);
            namespace(k, resources, problems);
        }
        for (Path file : tree.yamlFiles()) {
            if (!ManifestTree.isKustomization(file) && !listed.contains(file)) {
                problems.add(tree.source(file), "is listed by no kustomization (resources or patches)");
            }
        }
    }

    private static void patch(ManifestTree tree, Kustomization k, String file, Path patch, Manifests resources, Problems problems) {
        JsonNode target = k.patchTarget(file);
        for (Manifest m : tree.read(patch)) {
            SchemaCheck.unknownFields(m, problems);
            String kind = target.path("kind").asText(m.kind());
            String name = target.path("name").asText(m.name());
            if (resources.find(kind, name).isEmpty()) {
                problems.add(m, "patch of " + k.source() + " targets " + kind + "/" + name + ", which its resources do not have");
            }
        }
    }

    private static void images(Kustomization k, Manifests resources, Problems problems) {
        Set<String> used = new TreeSet<>();
        resources.workloads().forEach(w -> w.allContainers().stream().map(Container::getImage).map(KustomizationCheck::imageName).forEach(used::add));
        for (JsonNode image : k.images()) {
            String name = image.path("name").asText();
            if (!used.contains(name)) {
                problems.add(k.source(), "images entry " + name + " matches no container image " + used);
            }
            if ("latest".equals(image.path("newTag").asText())) {
                problems.add(k.source(), "images entry " + name + " pins newTag latest");
            }
        }
    }

    private static void namespace(Kustomization k, Manifests resources, Problems problems) {
        if (k.namespace().isEmpty()) {
            return;
        }
        resources.all().stream().filter(m -> m.kind().equals("Namespace") && !m.name().equals(k.namespace()))
                .forEach(m -> problems.add(m, "is not the kustomization's namespace " + k.namespace()));
    }

    /** An image reference without its tag or digest: {@code trimus/run-service:0.1.0} → {@code trimus/run-service}. */
    static String imageName(String image) {
        String name = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int colon = name.lastIndexOf(':');
        return colon > name.lastIndexOf('/') ? name.substring(0, colon) : name;
    }
}
