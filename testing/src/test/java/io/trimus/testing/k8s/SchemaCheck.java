package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

import java.util.HashSet;
import java.util.Set;

/**
 * Every document is a known kind with a name, appears once, and has no field its type does not know: a Kubernetes
 * kind of the fabric8 model (anything else parses as GenericKubernetesResource, e.g. {@code apiVersion: app/v1}), a
 * PodDisruptionBudget ({@link DisruptionBudgetCheck} checks its fields), or one of the operators' custom kinds.
 */
public final class SchemaCheck implements ManifestCheck {

    @Override
    public void check(Manifests manifests, Problems problems) {
        Set<String> seen = new HashSet<>();
        for (Manifest m : manifests.all()) {
            if (m.resource() instanceof GenericKubernetesResource && !DisruptionBudgetCheck.isBudget(m)
                    && !OperatorResources.CUSTOM_KINDS.getOrDefault(m.apiVersion(), Set.of()).contains(m.kind())) {
                problems.add(m, "unknown apiVersion/kind " + m.apiVersion() + " " + m.kind());
            }
            if (m.name().isEmpty()) {
                problems.add(m, "has no metadata.name");
            } else if (!seen.add(m.id())) {
                problems.add(m, "appears more than once");
            }
            unknownFields(m, problems);
        }
    }

    /** Reports each field of the resource that its fabric8 type does not know. */
    static void unknownFields(Manifest m, Problems problems) {
        UnknownFields.in(m.resource()).forEach(path -> problems.add(m, "unknown field " + path));
    }
}
