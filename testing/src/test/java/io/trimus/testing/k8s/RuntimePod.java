package io.trimus.testing.k8s;

import java.util.Map;

/**
 * A pod the NetworkPolicies are written for but no manifest creates (a sandbox someone else starts in the
 * namespace): its labels, and who starts it. A policy selecting it is not "a selector that matches nothing".
 */
public record RuntimePod(String name, Map<String, String> labels, String createdBy) {
}
