package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.List;
import java.util.Map;

/** Kubernetes label selector semantics (matchLabels and matchExpressions), for selectors found in manifests. */
public final class LabelSelectors {

    private LabelSelectors() {
    }

    /** Whether the selector has no terms, i.e. selects everything (a NetworkPolicy's {@code podSelector: {}}). */
    public static boolean isEmpty(LabelSelector selector) {
        return selector == null
                || (isEmpty(selector.getMatchLabels()) && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty()));
    }

    /** Whether {@code labels} satisfy every term of the selector. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (isEmpty(selector)) {
            return true;
        }
        return matches(selector.getMatchLabels(), labels)
                && (selector.getMatchExpressions() == null
                    || selector.getMatchExpressions().stream().allMatch(term -> matches(term, labels)));
    }

    /** Whether {@code labels} carry every pair of {@code required} (a Service's selector). */
    public static boolean matches(Map<String, String> required, Map<String, String> labels) {
        return required == null || required.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    private static boolean matches(LabelSelectorRequirement term, Map<String, String> labels) {
        String value = labels.get(term.getKey());
        List<String> values = term.getValues() == null ? List.of() : term.getValues();
        return switch (term.getOperator()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> false;
        };
    }

    private static boolean isEmpty(Map<String, String> map) {
        return map == null || map.isEmpty();
    }
}
