package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every Service selects the pods of some workload, and each of its ports leads to a port (by name or number, same
 * protocol) that the selected containers declare.
 */
public final class ServiceCheck implements ManifestCheck {

    @Override
    public void check(Manifests manifests, Problems problems) {
        for (Manifest m : manifests.of(Service.class)) {
            Service service = m.as(Service.class);
            Map<String, String> selector = service.getSpec() == null ? null : service.getSpec().getSelector();
            if (selector == null || selector.isEmpty()) {
                problems.add(m, "has no selector");
                continue;
            }
            List<Workload> selected = manifests.workloads().stream()
                    .filter(w -> LabelSelectors.matches(selector, w.podLabels())).toList();
            if (selected.isEmpty()) {
                problems.add(m, "selector " + selector + " matches no pod template");
            }
            for (ServicePort port : service.getSpec().getPorts()) {
                IntOrString target = port.getTargetPort() != null ? port.getTargetPort() : new IntOrString(port.getPort());
                String protocol = Objects.requireNonNullElse(port.getProtocol(), "TCP");
                for (Workload w : selected) {
                    if (!declares(w.pod().getContainers(), target, protocol)) {
                        problems.add(m, "port " + port.getName() + " targets " + PodSpecCheck.show(target) + "/" + protocol
                                + ", which no container of " + w.manifest().id() + " declares");
                    }
                }
            }
        }
    }

    private static boolean declares(List<Container> containers, IntOrString target, String protocol) {
        return containers.stream().flatMap(c -> c.getPorts().stream()).anyMatch(p -> PodSpecCheck.hasPort(p, target, protocol));
    }
}
