package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A resource that runs pods from a template (Deployment, StatefulSet, DaemonSet): its selector and template. */
public record Workload(Manifest manifest, LabelSelector selector, PodTemplateSpec template) {

    /** The workload behind a manifest, if it is one. */
    public static Optional<Workload> of(Manifest manifest) {
        if (manifest.resource() instanceof Deployment d && d.getSpec() != null) {
            return Optional.of(new Workload(manifest, d.getSpec().getSelector(), d.getSpec().getTemplate()));
        }
        if (manifest.resource() instanceof StatefulSet s && s.getSpec() != null) {
            return Optional.of(new Workload(manifest, s.getSpec().getSelector(), s.getSpec().getTemplate()));
        }
        if (manifest.resource() instanceof DaemonSet d && d.getSpec() != null) {
            return Optional.of(new Workload(manifest, d.getSpec().getSelector(), d.getSpec().getTemplate()));
        }
        return Optional.empty();
    }

    /** The labels its pods get. */
    public Map<String, String> podLabels() {
        return template == null || template.getMetadata() == null || template.getMetadata().getLabels() == null
                ? Map.of() : template.getMetadata().getLabels();
    }

    /** The pod spec (empty when the template has none). */
    public PodSpec pod() {
        return template == null || template.getSpec() == null ? new PodSpec() : template.getSpec();
    }

    /** Init containers first, then the containers. */
    public List<Container> allContainers() {
        List<Container> all = new ArrayList<>(pod().getInitContainers());
        all.addAll(pod().getContainers());
        return all;
    }
}
