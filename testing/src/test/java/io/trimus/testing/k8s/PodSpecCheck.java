package io.trimus.testing.k8s;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Each workload's pods: the selector matches the template, the service account exists and no token is mounted, and
 * every container has a pinned image, startup/liveness/readiness probes on ports it has, cpu and memory requests and
 * limits, and the "restricted" security context (non-root, read-only root, no privilege escalation, all capabilities
 * dropped, seccomp RuntimeDefault), at pod or container level where Kubernetes allows either.
 */
public final class PodSpecCheck implements ManifestCheck {

    private static final List<String> RESOURCES = List.of("cpu", "memory");
    private static final Set<String> SECCOMP_TYPES = Set.of("RuntimeDefault", "Localhost");

    @Override
    public void check(Manifests manifests, Problems problems) {
        for (Workload w : manifests.workloads()) {
            Manifest m = w.manifest();
            if (w.selector() == null || LabelSelectors.isEmpty(w.selector())) {
                problems.add(m, "has no selector");
            } else if (!LabelSelectors.matches(w.selector(), w.podLabels())) {
                problems.add(m, "selector does not match its pod template's labels " + w.podLabels());
            }
            serviceAccount(manifests, w, problems);
            Set<String> volumes = w.pod().getVolumes().stream().map(Volume::getName).collect(Collectors.toSet());
            for (Container c : w.allContainers()) {
                container(m, w.pod().getSecurityContext(), c, problems);
                for (VolumeMount mount : c.getVolumeMounts()) {
                    if (!volumes.contains(mount.getName())) {
                        problems.add(m, "container " + c.getName() + " mounts volume " + mount.getName() + ", which the pod does not have");
                    }
                }
            }
            for (Container c : w.pod().getContainers()) {
                probe(m, c, "startupProbe", c.getStartupProbe(), problems);
                probe(m, c, "livenessProbe", c.getLivenessProbe(), problems);
                probe(m, c, "readinessProbe", c.getReadinessProbe(), problems);
            }
        }
    }

    private static void serviceAccount(Manifests manifests, Workload w, Problems problems) {
        String name = w.pod().getServiceAccountName();
        if (name == null) {
            problems.add(w.manifest(), "has no serviceAccountName (each service gets its own)");
            return;
        }
        var account = manifests.find("ServiceAccount", name);
        if (account.isEmpty()) {
            problems.add(w.manifest(), "serviceAccountName " + name + " is not a ServiceAccount of these manifests");
        }
        boolean accountMounts = account.map(a -> !Boolean.FALSE.equals(a.as(ServiceAccount.class).getAutomountServiceAccountToken())).orElse(true);
        Boolean podMounts = w.pod().getAutomountServiceAccountToken();
        if (podMounts == null ? accountMounts : podMounts) {
            problems.add(w.manifest(), "mounts a service account token (automountServiceAccountToken: false)");
        }
    }

    private static void container(Manifest m, PodSecurityContext pod, Container c, Problems problems) {
        String where = "container " + c.getName() + " ";
        String image = Objects.requireNonNullElse(c.getImage(), "");
        String lastPart = image.substring(image.lastIndexOf('/') + 1);
        if (!image.contains("@") && (!lastPart.contains(":") || lastPart.endsWith(":latest"))) {
            problems.add(m, where + "image " + image + " is not pinned to a tag (no tag means :latest)");
        }
        resources(m, where, "requests", c.getResources() == null ? null : c.getResources().getRequests(), problems);
        resources(m, where, "limits", c.getResources() == null ? null : c.getResources().getLimits(), problems);
        SecurityContext sc = c.getSecurityContext() == null ? new SecurityContext() : c.getSecurityContext();
        PodSecurityContext psc = pod == null ? new PodSecurityContext() : pod;
        if (!Boolean.TRUE.equals(either(sc.getRunAsNonRoot(), psc.getRunAsNonRoot()))) {
            problems.add(m, where + "may run as root (runAsNonRoot: true)");
        }
        SeccompProfile seccomp = either(sc.getSeccompProfile(), psc.getSeccompProfile());
        if (seccomp == null || !SECCOMP_TYPES.contains(seccomp.getType())) {
            problems.add(m, where + "has no seccomp profile (seccompProfile.type: RuntimeDefault)");
        }
        if (!Boolean.TRUE.equals(sc.getReadOnlyRootFilesystem())) {
            problems.add(m, where + "has a writable root filesystem (readOnlyRootFilesystem: true)");
        }
        if (!Boolean.FALSE.equals(sc.getAllowPrivilegeEscalation())) {
            problems.add(m, where + "may escalate privileges (allowPrivilegeEscalation: false)");
        }
        Capabilities caps = sc.getCapabilities();
        if (caps == null || !caps.getDrop().contains("ALL") || !caps.getAdd().isEmpty()) {
            problems.add(m, where + "keeps capabilities (capabilities: {drop: [ALL]}, nothing added)");
        }
    }

    private static void resources(Manifest m, String where, String kind, Map<String, Quantity> values, Problems problems) {
        for (String resource : RESOURCES) {
            if (values == null || values.get(resource) == null) {
                problems.add(m, where + "has no " + resource + " in resources." + kind);
            }
        }
    }

    private static void probe(Manifest m, Container c, String kind, Probe probe, Problems problems) {
        if (probe == null) {
            problems.add(m, "container " + c.getName() + " has no " + kind);
            return;
        }
        IntOrString port = probe.getHttpGet() != null ? probe.getHttpGet().getPort()
                : probe.getTcpSocket() != null ? probe.getTcpSocket().getPort()
                : probe.getGrpc() != null ? new IntOrString(probe.getGrpc().getPort()) : null;
        if (probe.getExec() == null && port == null) {
            problems.add(m, "container " + c.getName() + " " + kind + " has no handler (httpGet, tcpSocket, grpc or exec)");
        } else if (port != null && c.getPorts().stream().noneMatch(p -> hasPort(p, port, null))) {
            problems.add(m, "container " + c.getName() + " " + kind + " uses port " + show(port) + ", which the container does not declare");
        }
    }

    /** Whether the container port is {@code port} (by name or number) and, when given, of that protocol. */
    static boolean hasPort(ContainerPort p, IntOrString port, String protocol) {
        boolean same = port.getStrVal() != null ? port.getStrVal().equals(p.getName()) : port.getIntVal().equals(p.getContainerPort());
        return same && (protocol == null || protocol.equals(Objects.requireNonNullElse(p.getProtocol(), "TCP")));
    }

    /** A port as written: its name or its number. */
    static String show(IntOrString port) {
        return port.getStrVal() != null ? port.getStrVal() : String.valueOf(port.getIntVal());
    }

    private static <T> T either(T container, T pod) {
        return container != null ? container : pod;
    }
}
