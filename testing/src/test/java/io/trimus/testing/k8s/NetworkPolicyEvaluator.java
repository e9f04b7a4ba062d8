package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicySpec;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether the NetworkPolicies of one namespace let a connection through, by the Kubernetes rules: a pod selected by
 * some policy of a direction is isolated in it and needs a rule that admits the peer and port; the sending side's
 * egress and the receiving side's ingress must both allow it. ipBlocks are applied to endpoints outside the cluster
 * only (whether they match pod addresses is up to the CNI), and rule ports must be numbers.
 */
public final class NetworkPolicyEvaluator {

    private final String namespace;
    private final List<NetworkPolicySpec> policies;

    /** The policies among {@code manifests}, which are all in {@code namespace}. */
    public NetworkPolicyEvaluator(String namespace, Manifests manifests) {
        this.namespace = namespace;
        this.policies = manifests.of(NetworkPolicy.class).stream().map(m -> m.as(NetworkPolicy.class).getSpec()).toList();
    }

    /** One end of a connection: a pod (namespace and labels) or an address outside the cluster (labels null). */
    public record Endpoint(String namespace, Map<String, String> labels, String ip) {

        /** A pod of that namespace with those labels. */
        public static Endpoint pod(String namespace, Map<String, String> labels) {
            return new Endpoint(namespace, labels, null);
        }

        /** An IPv4 address outside the cluster. */
        public static Endpoint external(String ip) {
            return new Endpoint(null, null, ip);
        }
    }

    /** Whether {@code from} may open a connection to {@code to} on that port and protocol ("TCP", "UDP"). */
    public boolean allows(Endpoint from, Endpoint to, int port, String protocol) {
        boolean egress = !namespace.equals(from.namespace()) || allowed(from, "Egress", to, port, protocol);
        boolean ingress = !namespace.equals(to.namespace()) || allowed(to, "Ingress", from, port, protocol);
        return egress && ingress;
    }

    private boolean allowed(Endpoint pod, String direction, Endpoint peer, int port, String protocol) {
        List<NetworkPolicySpec> selecting = policies.stream()
                .filter(p -> LabelSelectors.matches(p.getPodSelector(), pod.labels()) && types(p).contains(direction)).toList();
        if (selecting.isEmpty()) {
            return true;
        }
        return selecting.stream().anyMatch(p -> "Ingress".equals(direction)
                ? p.getIngress().stream().anyMatch(r -> admits(r.getFrom(), peer) && admits(r.getPorts(), port, protocol))
                : p.getEgress().stream().anyMatch(r -> admits(r.getTo(), peer) && admits(r.getPorts(), port, protocol)));
    }

    private static List<String> types(NetworkPolicySpec p) {
        if (!p.getPolicyTypes().isEmpty()) {
            return p.getPolicyTypes();
        }
        return p.getEgress().isEmpty() ? List.of("Ingress") : List.of("Ingress", "Egress");
    }

    private boolean admits(List<NetworkPolicyPeer> peers, Endpoint peer) {
        return peers.isEmpty() || peers.stream().anyMatch(p -> matches(p, peer));
    }

    private boolean matches(NetworkPolicyPeer p, Endpoint peer) {
        if (p.getIpBlock() != null) {
            return peer.labels() == null && inBlock(p.getIpBlock(), peer.ip());
        }
        if (peer.labels() == null) {
            return false;
        }
        boolean namespaceMatches = p.getNamespaceSelector() == null
                ? namespace.equals(peer.namespace())
                : LabelSelectors.matches(p.getNamespaceSelector(), Map.of("kubernetes.io/metadata.name", peer.namespace()));
        return namespaceMatches && (p.getPodSelector() == null || LabelSelectors.matches(p.getPodSelector(), peer.labels()));
    }

    private static boolean admits(List<NetworkPolicyPort> ports, int port, String protocol) {
        return ports.isEmpty() || ports.stream().anyMatch(p -> protocol.equals(Objects.requireNonNullElse(p.getProtocol(), "TCP"))
                && (p.getPort() == null || inRange(p.getPort(), p.getEndPort(), port)));
    }

    private static boolean inRange(IntOrString from, Integer to, int port) {
        if (from.getIntVal() == null) {
            throw new UnsupportedOperationException("named port " + from.getStrVal() + " in a NetworkPolicy rule");
        }
        return to == null ? from.getIntVal() == port : port >= from.getIntVal() && port <= to;
    }

    private static boolean inBlock(IPBlock block, String ip) {
        return inCidr(block.getCidr(), ip) && block.getExcept().stream().noneMatch(except -> inCidr(except, ip));
    }

    private static boolean inCidr(String cidr, String ip) {
        String[] parts = cidr.split("/");
        int bits = Integer.parseInt(parts[1]);
        long mask = bits == 0 ? 0 : (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
        return (ipv4(parts[0]) & mask) == (ipv4(ip) & mask);
    }

    private static long ipv4(String address) {
        long value = 0;
        for (String octet : address.split("\\.")) {
            value = (value << 8) | Integer.parseInt(octet);
        }
        return value;
    }
}
