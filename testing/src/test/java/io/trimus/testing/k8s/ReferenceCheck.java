package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeProjection;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every ConfigMap and Secret a pod refers to (env, envFrom, volumes, projected volumes, image pull secrets) exists,
 * with the key it asks for: a ConfigMap in these manifests, a Secret in these manifests, one an operator creates from
 * them (a KafkaUser's) or in the list of secrets created outside git. A Secret in the manifests carries no values.
 */
public final class ReferenceCheck implements ManifestCheck {

    private final Map<String, ExternalSecret> external;

    /** Checks against the given secrets that are created outside the manifests. */
    public ReferenceCheck(List<ExternalSecret> external) {
        this.external = external.stream().collect(Collectors.toMap(ExternalSecret::name, Function.identity()));
    }

    @Override
    public void check(Manifests manifests, Problems problems) {
        for (Manifest m : manifests.of(Secret.class)) {
            Secret secret = m.as(Secret.class);
            if (!isEmpty(secret.getData()) || !isEmpty(secret.getStringData())) {
                problems.add(m, "carries secret values in git (data/stringData); create it outside the manifests");
            }
        }
        for (Workload w : manifests.workloads()) {
            Manifest m = w.manifest();
            for (Container c : w.allContainers()) {
                for (EnvVar env : c.getEnv()) {
                    if (env.getValueFrom() != null) {
                        configMapKey(manifests, m, env.getValueFrom().getConfigMapKeyRef(), problems);
                        secretKey(manifests, m, env.getValueFrom().getSecretKeyRef(), problems);
                    }
                }
                for (EnvFromSource from : c.getEnvFrom()) {
                    if (from.getConfigMapRef() != null && !Boolean.TRUE.equals(from.getConfigMapRef().getOptional())) {
                        configMap(manifests, m, from.getConfigMapRef().getName(), problems);
                    }
                    if (from.getSecretRef() != null && !Boolean.TRUE.equals(from.getSecretRef().getOptional())) {
                        secret(manifests, m, from.getSecretRef().getName(), problems);
                    }
                }
            }
            for (Volume v : w.pod().getVolumes()) {
                volume(manifests, m, v, problems);
            }
            for (LocalObjectReference pull : w.pod().getImagePullSecrets()) {
                secret(manifests, m, pull.getName(), problems);
            }
        }
    }

    private void volume(Manifests manifests, Manifest m, Volume v, Problems problems) {
        if (v.getConfigMap() != null && !Boolean.TRUE.equals(v.getConfigMap().getOptional())) {
            configMap(manifests, m, v.getConfigMap().getName(), problems);
        }
        if (v.getSecret() != null && !Boolean.TRUE.equals(v.getSecret().getOptional())) {
            secret(manifests, m, v.getSecret().getSecretName(), problems);
        }
        if (v.getProjected() != null) {
            for (VolumeProjection p : v.getProjected().getSources()) {
                if (p.getConfigMap() != null && !Boolean.TRUE.equals(p.getConfigMap().getOptional())) {
                    configMap(manifests, m, p.getConfigMap().getName(), problems);
                }
                if (p.getSecret() != null && !Boolean.TRUE.equals(p.getSecret().getOptional())) {
                    secret(manifests, m, p.getSecret().getName(), problems);
                }
            }
        }
    }

    private static void configMapKey(Manifests manifests, Manifest m, ConfigMapKeySelector ref, Problems problems) {
        if (ref == null || Boolean.TRUE.equals(ref.getOptional())) {
            return;
        }
        configMap(manifests, m, ref.getName(), problems).ifPresent(cm -> {
            if (!keys(cm).contains(ref.getKey())) {
                problems.add(m, "ConfigMap " + ref.getName() + " has no key " + ref.getKey());
            }
        });
    }

    private static Optional<ConfigMap> configMap(Manifests manifests, Manifest m, String name, Problems problems) {
        Optional<ConfigMap> found = manifests.find("ConfigMap", name).map(cm -> cm.as(ConfigMap.class));
        if (found.isEmpty()) {
            problems.add(m, "refers to ConfigMap " + name + ", which is not in the manifests");
        }
        return found;
    }

    private void secretKey(Manifests manifests, Manifest m, SecretKeySelector ref, Problems problems) {
        if (ref == null || Boolean.TRUE.equals(ref.getOptional())) {
            return;
        }
        if (!secret(manifests, m, ref.getName(), problems)) {
            return;
        }
        Set<String> operatorKeys = OperatorResources.secrets(manifests).get(ref.getName());
        if (operatorKeys != null && !operatorKeys.contains(ref.getKey())) {
            problems.add(m, "Secret " + ref.getName() + " (created by Strimzi for the KafkaUser " + ref.getName()
                    + ") has no key " + ref.getKey() + "; it has " + new TreeSet<>(operatorKeys));
        } else if (external.containsKey(ref.getName()) && !external.get(ref.getName()).keys().contains(ref.getKey())) {
            problems.add(m, "Secret " + ref.getName() + " (created by " + external.get(ref.getName()).createdBy()
                    + ") has no key " + ref.getKey() + "; it has " + new TreeSet<>(external.get(ref.getName()).keys()));
        }
    }

    /** Reports a Secret that is neither in the manifests nor a known external one; true when it is known. */
    private boolean secret(Manifests manifests, Manifest m, String name, Problems problems) {
        if (manifests.find("Secret", name).isPresent() || external.containsKey(name)
                || OperatorResources.secrets(manifests).containsKey(name)) {
            return true;
        }
        problems.add(m, "refers to Secret " + name + ", which is neither in the manifests nor a known external secret " + new TreeSet<>(external.keySet()));
        return false;
    }

    private static Set<String> keys(ConfigMap cm) {
        Set<String> keys = new HashSet<>();
        if (cm.getData() != null) {
            keys.addAll(cm.getData().keySet());
        }
        if (cm.getBinaryData() != null) {
            keys.addAll(cm.getBinaryData().keySet());
        }
        return keys;
    }

    private static boolean isEmpty(Map<String, String> map) {
        return map == null || map.isEmpty();
    }
}
