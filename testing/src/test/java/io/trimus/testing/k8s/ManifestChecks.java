package io.trimus.testing.k8s;

import java.nio.file.Files;
import java.util.List;

/**
 * All checks of the Kubernetes manifests, as a list of problems (empty when all is well). On a tree it checks the
 * kustomizations, then the resources of each base (a kustomization that includes no other); an overlay's patches
 * are checked for their fields and targets, not applied (`kubectl kustomize` renders them).
 */
public final class ManifestChecks {

    private final List<ExternalSecret> external;
    private final List<RuntimePod> runtimePods;
    private final List<ManifestCheck> checks;

    /** Checks that accept the given secrets as created outside the manifests. */
    public ManifestChecks(List<ExternalSecret> external) {
        this(external, List.of());
    }

    /** Checks that accept the given secrets and pods as created outside the manifests. */
    public ManifestChecks(List<ExternalSecret> external, List<RuntimePod> runtimePods) {
        this.external = List.copyOf(external);
        this.runtimePods = List.copyOf(runtimePods);
        this.checks = List.of(new SchemaCheck(), new PodSpecCheck(), new ReferenceCheck(external), new ServiceCheck(),
                new NetworkPolicyCheck(runtimePods), new CustomResourceCheck(), new ConfigAddressCheck(),
                new DisruptionBudgetCheck());
    }

    /** Problems of one set of resources. */
    public List<String> check(Manifests manifests) {
        Problems problems = new Problems();
        checks.forEach(check -> check.check(manifests, problems));
        return problems.list();
    }

    /**
     * Problems of a whole tree: kustomizations, every base's resources, and a README that names each external secret
     * and the labels of each pod started outside the manifests.
     */
    public List<String> check(ManifestTree tree) {
        Problems problems = new Problems();
        new KustomizationCheck().check(tree, problems);
        for (Kustomization k : tree.kustomizations()) {
            if (k.resources().stream().noneMatch(entry -> Files.isDirectory(tree.resolve(k, entry)))) {
                Manifests resources = tree.resources(k);
                checks.forEach(check -> check.check(resources, problems));
            }
        }
        String readme = tree.readme().orElse("");
        for (ExternalSecret secret : external) {
            if (!readme.contains(secret.name())) {
                problems.add(tree.source(tree.root().resolve("README.md")), "does not tell how " + secret.name()
                        + " comes about (created by " + secret.createdBy() + ")");
            }
        }
        for (RuntimePod pod : runtimePods) {
            pod.labels().forEach((key, value) -> {
                if (!readme.contains(key + "=" + value)) {
                    problems.add(tree.source(tree.root().resolve("README.md")), "does not tell that " + pod.name()
                            + " pods carry the label " + key + "=" + value + " (started by " + pod.createdBy() + ")");
                }
            });
        }
        return problems.list();
    }
}
