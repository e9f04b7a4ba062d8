package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Every in-namespace address in a ConfigMap ({@code name:port}, {@code http://name:port},
 * {@code jdbc:postgresql://name:port/db}) names a Service of these manifests, or one an operator creates, that has
 * that port: a typo in a host name or a port would otherwise surface only as a connection error at run time.
 */
public final class ConfigAddressCheck implements ManifestCheck {

    private static final Pattern ADDRESS = Pattern.compile("^(?:[a-z][a-z0-9+.:-]*://)?([a-z][a-z0-9-]*):(\\d+)(?:/.*)?$");

    @Override
    public void check(Manifests manifests, Problems problems) {
        Map<String, Set<Integer>> services = new HashMap<>(OperatorResources.services(manifests));
        for (Manifest m : manifests.of(Service.class)) {
            Service s = m.as(Service.class);
            services.put(m.name(), s.getSpec().getPorts().stream().map(ServicePort::getPort).collect(Collectors.toSet()));
        }
        for (Manifest m : manifests.of(ConfigMap.class)) {
            Map<String, String> data = m.as(ConfigMap.class).getData();
            if (data == null) {
                continue;
            }
            data.forEach((key, value) -> {
                Matcher address = ADDRESS.matcher(value);
                if (!address.matches()) {
                    return;
                }
                Set<Integer> ports = services.get(address.group(1));
                if (ports == null) {
                    problems.add(m, key + " names host " + address.group(1) + ", which is no Service of these manifests or their operators");
                } else if (!ports.contains(Integer.parseInt(address.group(2)))) {
                    problems.add(m, key + " uses port " + address.group(2) + " of " + address.group(1) + ", which has " + new TreeSet<>(ports));
                }
            });
        }
    }
}
