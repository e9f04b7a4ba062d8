package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicySpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A default-deny policy (every pod, Ingress and Egress, no rule) exists, and every pod selector of a policy, its own
 * or a peer's in the same namespace, selects some pod these manifests lead to (a workload's or an operator's) or a
 * declared {@link RuntimePod}: a selector that matches nothing silently allows nothing.
 */
public final class NetworkPolicyCheck implements ManifestCheck {

    private final List<RuntimePod> runtimePods;

    /** A check that also counts the given pods, started outside the manifests, as pods a selector may select. */
    public NetworkPolicyCheck(List<RuntimePod> runtimePods) {
        this.runtimePods = List.copyOf(runtimePods);
    }

    @Override
    public void check(Manifests manifests, Problems problems) {
        List<Manifest> policies = manifests.of(NetworkPolicy.class);
        if (policies.stream().noneMatch(p -> isDefaultDeny(p.as(NetworkPolicy.class).getSpec()))) {
            problems.add("manifests", "no default-deny NetworkPolicy (podSelector: {}, policyTypes Ingress and Egress, no rules)");
        }
        List<Map<String, String>> pods = new ArrayList<>(manifests.podLabels());
        runtimePods.forEach(pod -> pods.add(pod.labels()));
        for (Manifest m : policies) {
            NetworkPolicySpec spec = m.as(NetworkPolicy.class).getSpec();
            if (spec == null) {
                problems.add(m, "has no spec");
                continue;
            }
            selects(m, "podSelector", spec.getPodSelector(), pods, problems);
            Stream<NetworkPolicyPeer> peers = Stream.concat(
                    spec.getIngress().stream().flatMap(rule -> rule.getFrom().stream()),
                    spec.getEgress().stream().flatMap(rule -> rule.getTo().stream()));
            peers.filter(peer -> peer.getNamespaceSelector() == null && peer.getPodSelector() != null)
                    .forEach(peer -> selects(m, "peer podSelector", peer.getPodSelector(), pods, problems));
        }
    }

    private static void selects(Manifest m, String what, LabelSelector selector, List<Map<String, String>> pods, Problems problems) {
        if (!LabelSelectors.isEmpty(selector) && pods.stream().noneMatch(labels -> LabelSelectors.matches(selector, labels))) {
            problems.add(m, what + " " + describe(selector) + " selects no pod of these manifests");
        }
    }

    private static boolean isDefaultDeny(NetworkPolicySpec spec) {
        return spec != null && LabelSelectors.isEmpty(spec.getPodSelector())
                && spec.getPolicyTypes().containsAll(List.of("Ingress", "Egress"))
                && spec.getIngress().isEmpty() && spec.getEgress().isEmpty();
    }

    private static String describe(LabelSelector selector) {
        return selector.getMatchExpressions().isEmpty() ? String.valueOf(selector.getMatchLabels())
                : selector.getMatchLabels() + " " + selector.getMatchExpressions().stream()
                        .map(e -> e.getKey() + " " + e.getOperator() + " " + e.getValues()).toList();
    }
}
