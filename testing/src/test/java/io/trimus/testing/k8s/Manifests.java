package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KubernetesResource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The resources of one deployment (a kustomization's, or a test fixture's), with look-ups the checks share. */
public final class Manifests {

    private final List<Manifest> all;

    /** The given resources, in file order. */
    public Manifests(List<Manifest> all) {
        this.all = List.copyOf(all);
    }

    /** Every resource. */
    public List<Manifest> all() {
        return all;
    }

    /** The resources of one fabric8 type. */
    public List<Manifest> of(Class<? extends KubernetesResource> type) {
        return all.stream().filter(m -> m.is(type)).toList();
    }

    /** The custom resources of one apiVersion and kind. */
    public List<Manifest> custom(String apiVersion, String kind) {
        return all.stream().filter(m -> m.isCustom(apiVersion, kind)).toList();
    }

    /** The resource of that kind and name. */
    public Optional<Manifest> find(String kind, String name) {
        return all.stream().filter(m -> m.kind().equals(kind) && m.name().equals(name)).findFirst();
    }

    /** Deployments, StatefulSets and DaemonSets. */
    public List<Workload> workloads() {
        return all.stream().flatMap(m -> Workload.of(m).stream()).toList();
    }

    /** Labels of every pod these manifests lead to: the workloads' templates and the operators' pods. */
    public List<Map<String, String>> podLabels() {
        List<Map<String, String>> pods = new ArrayList<>();
        workloads().forEach(w -> pods.add(w.podLabels()));
        pods.addAll(OperatorResources.pods(this));
        return pods;
    }

    /** A container's environment variable: its literal value or the ConfigMap key it names (when that exists here). */
    public Optional<String> env(Container container, String name) {
        return container.getEnv().stream().filter(e -> name.equals(e.getName())).findFirst().flatMap(this::value);
    }

    private Optional<String> value(EnvVar env) {
        if (env.getValue() != null) {
            return Optional.of(env.getValue());
        }
        if (env.getValueFrom() == null || env.getValueFrom().getConfigMapKeyRef() == null) {
            return Optional.empty();
        }
        var ref = env.getValueFrom().getConfigMapKeyRef();
        return find("ConfigMap", ref.getName()).map(m -> m.as(ConfigMap.class).getData()).map(data -> data.get(ref.getKey()));
    }
}
