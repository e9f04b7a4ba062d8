package io.trimus.testing.k8s;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * PodDisruptionBudgets ({@code policy/v1}), checked by hand because this build's fabric8 model has no policy types:
 * no field Kubernetes does not know, exactly one of minAvailable and maxUnavailable, a selector that selects the pods
 * of one workload here, and a minAvailable below that workload's replicas (else no node holding one could be drained).
 */
public final class DisruptionBudgetCheck implements ManifestCheck {

    /** The budgets' apiVersion. */
    public static final String API_VERSION = "policy/v1";
    /** The budgets' kind. */
    public static final String KIND = "PodDisruptionBudget";
    private static final ObjectMapper STRICT = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    /** A budget's spec, as Kubernetes defines it. */
    public record Spec(IntOrString minAvailable, IntOrString maxUnavailable, LabelSelector selector,
                       String unhealthyPodEvictionPolicy) {
    }

    /** Whether the manifest is a PodDisruptionBudget. */
    public static boolean isBudget(Manifest m) {
        return m.isCustom(API_VERSION, KIND);
    }

    /** The budget's spec; empty when it does not parse (the check reports why). */
    public static Optional<Spec> spec(Manifest budget) {
        try {
            return Optional.ofNullable(STRICT.treeToValue(budget.customFields().path("spec"), Spec.class));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    @Override
    public void check(Manifests manifests, Problems problems) {
        for (Manifest budget : manifests.all().stream().filter(DisruptionBudgetCheck::isBudget).toList()) {
            for (Iterator<String> fields = budget.customFields().fieldNames(); fields.hasNext(); ) {
                String field = fields.next();
                if (!field.equals("spec")) {
                    problems.add(budget, "unknown field " + field);
                }
            }
            try {
                Spec spec = STRICT.treeToValue(budget.customFields().path("spec"), Spec.class);
                if (spec == null) {
                    problems.add(budget, "has no spec");
                } else {
                    check(manifests, budget, spec, problems);
                }
            } catch (UnrecognizedPropertyException e) {
                problems.add(budget, "unknown field spec." + e.getPropertyName());
            } catch (JsonProcessingException e) {
                problems.add(budget, "spec does not parse: " + e.getOriginalMessage());
            }
        }
    }

    private static void check(Manifests manifests, Manifest budget, Spec spec, Problems problems) {
        if ((spec.minAvailable() == null) == (spec.maxUnavailable() == null)) {
            problems.add(budget, "needs exactly one of spec.minAvailable and spec.maxUnavailable");
        }
        if (spec.selector() == null || LabelSelectors.isEmpty(spec.selector())) {
            problems.add(budget, "has no spec.selector: it would hold every pod of the namespace");
            return;
        }
        UnknownFields.in(spec.selector()).forEach(path -> problems.add(budget, "unknown field spec.selector." + path));
        List<Workload> selected = manifests.workloads().stream()
                .filter(w -> LabelSelectors.matches(spec.selector(), w.podLabels())).toList();
        if (selected.isEmpty()) {
            problems.add(budget, "selector " + spec.selector().getMatchLabels() + " selects no pod of these manifests");
        }
        Integer min = spec.minAvailable() == null ? null : spec.minAvailable().getIntVal();
        for (Workload workload : selected) {
            int replicas = replicas(workload);
            if (min != null && min >= replicas) {
                problems.add(budget, "keeps " + min + " of the " + replicas + " pods of " + workload.manifest().id()
                        + " available: no node that runs one could be drained");
            }
        }
    }

    /** The workload's spec.replicas (1 when unset, as Kubernetes defaults it). */
    static int replicas(Workload workload) {
        Integer replicas = null;
        if (workload.manifest().resource() instanceof Deployment d) {
            replicas = d.getSpec().getReplicas();
        } else if (workload.manifest().resource() instanceof StatefulSet s) {
            replicas = s.getSpec().getReplicas();
        }
        return replicas == null ? 1 : replicas;
    }
}
