package io.trimus.testing.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.trimus.testing.k8s.NetworkPolicyEvaluator.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The Kubernetes deployment under k8s/: well-formed, consistent, and what DESIGN.md §1, §5 and §6 ask for. */
class KubernetesManifestsTest {

    /** The secrets the manifests use but must never contain (k8s/README.md tells how each comes about). */
    static final List<ExternalSecret> EXTERNAL_SECRETS = List.of(
            new ExternalSecret("trimus-encryption-key", Set.of("key"), "the operator, with kubectl create secret"),
            new ExternalSecret("trimus-db-app", Set.of("username", "password", "dbname", "host", "port", "uri", "jdbc-uri", "pgpass"),
                    "CloudNativePG, for the cluster trimus-db"),
            new ExternalSecret("trimus-db-run", Set.of("username", "password"), "the operator, with kubectl create secret"),
            new ExternalSecret("trimus-db-egress", Set.of("username", "password"),
                    "the operator, with kubectl create secret"));

    /** Sandboxes someone runs in the namespace (no manifest here does): the policies keep them to egress-service. */
    static final RuntimePod SANDBOX = new RuntimePod("sandbox", Map.of("trimus.io/sandbox", "true"),
            "whatever runs sandboxes in the namespace (k8s/README.md)");

    /** egress-service's ports a sandbox may reach, as "port/protocol": its resolver, its transparent and explicit proxy. */
    private static final Set<String> SANDBOX_PORTS = Set.of("53/UDP", "53/TCP", "80/TCP", "443/TCP", "3128/TCP");

    private static final String NAMESPACE = "trimus";
    private static final ManifestTree TREE = ManifestTree.locate();
    private static final Manifests BASE = TREE.resources(TREE.kustomization("base"));
    private static final NetworkPolicyEvaluator POLICIES = new NetworkPolicyEvaluator(NAMESPACE, BASE);

    @Test
    void theManifestsHaveNoProblems() {
        List<String> problems = new ManifestChecks(EXTERNAL_SECRETS, List.of(SANDBOX)).check(TREE);

        problems.forEach(p -> System.out.println("k8s problem: " + p));
        assertThat(problems).isEmpty();
    }

    @ParameterizedTest(name = "{0} runs {1} on {2}")
    @CsvSource({
            "run-service,            trimus/run-service:0.1.0,            8081",
            "adapter-lambda-service, trimus/adapter-lambda-service:0.1.0, 8082",
            "egress-service,         trimus/egress-service:0.1.0,         8083",
            "admin-ui,               trimus/admin-ui:0.1.0,               8080"})
    void eachServiceRunsItsImageOnItsPortBehindAClusterIpService(String name, String image, int port) {
        Container container = container(name);
        Service service = BASE.find("Service", name).orElseThrow().as(Service.class);

        assertThat(container.getImage()).isEqualTo(image);
        assertThat(container.getPorts()).extracting(ContainerPort::getName, ContainerPort::getContainerPort).contains(
                tuple("http", port));
        assertThat(service.getSpec().getType()).isEqualTo("ClusterIP");
        assertThat(service.getSpec().getPorts()).extracting(ServicePort::getPort).contains(port);
    }

    @ParameterizedTest(name = "{0} runs two replicas on different nodes where it can and keeps one through a drain")
    @CsvSource({"run-service", "adapter-lambda-service", "egress-service", "admin-ui"})
    void eachServiceRunsTwoReplicasSpreadOverNodesAndKeepsOneThroughADrain(String name) {
        Deployment deployment = BASE.find("Deployment", name).orElseThrow().as(Deployment.class);
        Map<String, String> pods = deployment.getSpec().getTemplate().getMetadata().getLabels();
        DisruptionBudgetCheck.Spec budget = BASE.find(DisruptionBudgetCheck.KIND, name)
                .flatMap(DisruptionBudgetCheck::spec).orElseThrow();
        PodAntiAffinity antiAffinity = deployment.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity();

        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(budget.minAvailable()).isEqualTo(new IntOrString(1));
        assertThat(BASE.workloads()).as("the budget holds %s's pods and no other", name)
                .filteredOn(w -> LabelSelectors.matches(budget.selector(), w.podLabels()))
                .extracting(w -> w.manifest().id()).containsExactly("Deployment/" + name);
        assertThat(antiAffinity.getPreferredDuringSchedulingIgnoredDuringExecution()).singleElement().satisfies(term -> {
            assertThat(term.getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
            assertThat(LabelSelectors.matches(term.getPodAffinityTerm().getLabelSelector(), pods)).isTrue();
        });
        assertThat(antiAffinity.getRequiredDuringSchedulingIgnoredDuringExecution())
                .as("preferred only: a one-node cluster still runs both").isEmpty();
    }

    @Test
    void eachAdapterPodIsADockerInstanceNamedAfterItself() {
        EnvVar instance = container("adapter-lambda-service").getEnv().stream()
                .filter(e -> e.getName().equals("TRIMUS_DOCKER_INSTANCE")).findFirst().orElseThrow();

        assertThat(instance.getValue()).as("a value every replica would share").isNull();
        assertThat(instance.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
    }

    @ParameterizedTest(name = "{0} is built from its Dockerfile.jvm")
    @CsvSource({"run-service", "adapter-lambda-service", "egress-service", "admin-ui"})
    void eachDeploymentMatchesItsDockerfile(String name) throws IOException {
        String dockerfile = Files.readString(module(name).resolve("src/main/docker/Dockerfile.jvm"));
        var pod = BASE.find("Deployment", name).orElseThrow().as(Deployment.class).getSpec().getTemplate().getSpec();
        var http = container(name).getPorts().stream().filter(p -> p.getName().equals("http")).findFirst().orElseThrow();

        assertThat(dockerfile).containsPattern("(?m)^EXPOSE .*\\b" + http.getContainerPort() + "\\b");
        // the image's JVM settings are the pods' (one value: the ConfigMap's replaces the image's as a whole)
        String options = BASE.env(container(name), "JAVA_TOOL_OPTIONS").orElseThrow();
        assertThat(dockerfile).contains("JAVA_TOOL_OPTIONS=\"" + options + "\"")
                .contains("MALLOC_ARENA_MAX=" + BASE.env(container(name), "MALLOC_ARENA_MAX").orElseThrow())
                .doesNotContainPattern("(?m)^ENTRYPOINT .*-XX:");
        assertThat(dockerfile).containsPattern("(?m)^USER " + pod.getSecurityContext().getRunAsUser() + ":" + pod.getSecurityContext().getRunAsGroup() + "$");
    }

    @ParameterizedTest(name = "{0} reads every TRIMUS_ variable it is given")
    @CsvSource({"run-service", "adapter-lambda-service", "egress-service", "admin-ui"})
    void everyTrimusVariableIsOneItsServiceKnows(String name) throws IOException {
        String sources;
        try (var files = Files.walk(module(name).resolve("src/main"))) {
            sources = files.filter(f -> f.toString().matches(".*\\.(java|properties)")).map(KubernetesManifestsTest::read).collect(Collectors.joining("\n"));
        }

        assertThat(container(name).getEnv()).extracting(EnvVar::getName).filteredOn(v -> v.startsWith("TRIMUS_"))
                .isNotEmpty().allSatisfy(v -> assertThat(sources).as("%s in %s/src/main", v, name).contains(v));
    }

    @ParameterizedTest(name = "{0}: {1}={2}")
    @CsvSource({
            "run-service,            TRIMUS_KAFKA_BOOTSTRAP,    trimus-kafka-kafka-bootstrap:9092",
            "run-service,            TRIMUS_DB_REACTIVE_URL,    postgresql://trimus-db-rw:5432/trimus",
            "run-service,            TRIMUS_DB_JDBC_URL,        jdbc:postgresql://trimus-db-rw:5432/trimus",
            "run-service,            TRIMUS_LOCAL_ADAPTERS,     off",
            "run-service,            QUARKUS_HTTP_HOST,         0.0.0.0",
            "adapter-lambda-service, TRIMUS_KAFKA_BOOTSTRAP,    trimus-kafka-kafka-bootstrap:9092",
            "adapter-lambda-service, TRIMUS_EGRESS_SERVICE_URL, http://egress-service:8083",
            "adapter-lambda-service, TRIMUS_DOCKER_ENABLED,     false",
            "adapter-lambda-service, TRIMUS_LOCAL_ADAPTERS,     off",
            "adapter-lambda-service, TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS, true",
            "adapter-lambda-service, QUARKUS_HTTP_HOST,         0.0.0.0",
            "egress-service,         TRIMUS_KAFKA_BOOTSTRAP,    trimus-kafka-kafka-bootstrap:9092",
            "egress-service,         TRIMUS_DB_REACTIVE_URL,    postgresql://trimus-db-rw:5432/trimus",
            "egress-service,         TRIMUS_DB_JDBC_URL,        jdbc:postgresql://trimus-db-rw:5432/trimus",
            "egress-service,         TRIMUS_EGRESS_DNS_ADDR,    0.0.0.0:53",
            "egress-service,         QUARKUS_HTTP_HOST,         0.0.0.0",
            "admin-ui,               TRIMUS_KAFKA_BOOTSTRAP,    trimus-kafka-kafka-bootstrap:9092",
            "admin-ui,               TRIMUS_RUN_SERVICE_URL,    http://run-service:8081",
            "admin-ui,               TRIMUS_EGRESS_SERVICE_URL, http://egress-service:8083",
            "admin-ui,               QUARKUS_HTTP_HOST,         0.0.0.0"})
    void eachServiceGetsItsSettingsFromTheConfigMap(String name, String variable, String value) {
        assertThat(BASE.env(container(name), variable)).contains(value);
    }

    @ParameterizedTest(name = "{0}: {1} from Secret {2} key {3}")
    @CsvSource({
            "run-service,            TRIMUS_DB_MIGRATION_USER,     trimus-db-app,    username",
            "run-service,            TRIMUS_DB_MIGRATION_PASSWORD, trimus-db-app,    password",
            "run-service,            TRIMUS_DB_USER,        trimus-db-run,         username",
            "run-service,            TRIMUS_DB_PASSWORD,    trimus-db-run,         password",
            "run-service,            TRIMUS_ENCRYPTION_KEY, trimus-encryption-key, key",
            "adapter-lambda-service, TRIMUS_ENCRYPTION_KEY, trimus-encryption-key, key",
            "egress-service,         TRIMUS_ENCRYPTION_KEY, trimus-encryption-key, key",
            "egress-service,         TRIMUS_DB_MIGRATION_USER,     trimus-db-app,    username",
            "egress-service,         TRIMUS_DB_MIGRATION_PASSWORD, trimus-db-app,    password",
            "egress-service,         TRIMUS_DB_USER,        trimus-db-egress,      username",
            "egress-service,         TRIMUS_DB_PASSWORD,    trimus-db-egress,      password"})
    void secretsComeFromTheExternalSecrets(String name, String variable, String secret, String key) {
        var ref = container(name).getEnv().stream().filter(e -> e.getName().equals(variable)).findFirst().orElseThrow()
                .getValueFrom().getSecretKeyRef();

        assertThat(ref.getName()).isEqualTo(secret);
        assertThat(ref.getKey()).isEqualTo(key);
    }

    @Test
    void onlyRunServiceTheAdapterAndEgressServiceHoldTheEncryptionKeyAndOnlyTheDatabaseUsersTheDatabasePassword() {
        assertThat(withVariable("TRIMUS_ENCRYPTION_KEY"))
                .containsExactlyInAnyOrder("run-service", "adapter-lambda-service", "egress-service");
        assertThat(withVariable("TRIMUS_DB_PASSWORD")).containsExactlyInAnyOrder("run-service", "egress-service");
    }

    @Test
    void everyJvmSizesItsHeapByTheContainersMemoryLimit() {
        for (var w : BASE.workloads()) {
            for (Container c : w.pod().getContainers()) {
                // half the limit: the other half holds ~100 MiB of class metadata, code and buffers; the native heap
                // trimmed every 5 s (docs/benchmarks.md#memory)
                assertThat(BASE.env(c, "JAVA_TOOL_OPTIONS")).as(c.getName()).hasValueSatisfying(
                        opts -> assertThat(opts).contains("-XX:MaxRAMPercentage=50").contains("-XX:+UseSerialGC")
                                .contains("-XX:TrimNativeHeapInterval=5000"));
                assertThat(c.getResources().getLimits()).as(c.getName()).containsKey("memory");
            }
        }
    }

    @Test
    void everyPodHasAWritableTmpInMemoryAndNothingElseWritable() {
        for (var w : BASE.workloads()) {
            var tmp = w.pod().getVolumes().stream().filter(v -> v.getEmptyDir() != null).toList();
            assertThat(tmp).as(w.manifest().id()).singleElement().satisfies(v -> {
                assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory");
                assertThat(v.getEmptyDir().getSizeLimit().toString()).isEqualTo("64Mi");
            });
            assertThat(w.pod().getContainers()).allSatisfy(c -> assertThat(c.getVolumeMounts())
                    .singleElement().satisfies(m -> assertThat(m.getMountPath()).isEqualTo("/tmp")));
            assertThat(w.pod().getSecurityContext().getRunAsUser()).isEqualTo(185L);
            assertThat(w.pod().getEnableServiceLinks()).isFalse();
        }
    }

    @Test
    void egressServiceExposesExactlyItsApiResolverAndProxyPortsOnThePortsItBinds() {
        Service service = BASE.find("Service", "egress-service").orElseThrow().as(Service.class);
        var pod = BASE.find("Deployment", "egress-service").orElseThrow().as(Deployment.class).getSpec().getTemplate().getSpec();
        Set<String> exposed = new HashSet<>(SANDBOX_PORTS);
        exposed.add("8083/TCP");

        assertThat(service.getSpec().getPorts()).extracting(p -> p.getPort() + "/" + p.getProtocol())
                .containsExactlyInAnyOrderElementsOf(exposed);
        assertThat(container("egress-service").getPorts()).extracting(p -> p.getContainerPort() + "/" + p.getProtocol())
                .as("pod ports equal Service ports, so a NetworkPolicy names the ports a sandbox dials")
                .containsExactlyInAnyOrderElementsOf(exposed);
        assertThat(service.getSpec().getPorts()).allSatisfy(p -> assertThat(container("egress-service").getPorts())
                .anySatisfy(c -> assertThat(c.getName()).isEqualTo(p.getTargetPort().getStrVal())));
        assertThat(BASE.env(container("egress-service"), "TRIMUS_EGRESS_DNS_ADDR")).contains("0.0.0.0:53");
        assertThat(pod.getSecurityContext().getSysctls()).as("uid 185 binds 53, 80 and 443 without a capability")
                .extracting(Sysctl::getName, Sysctl::getValue)
                .containsExactly(tuple("net.ipv4.ip_unprivileged_port_start", "53"));
    }

    @Test
    void aSandboxReachesExactlyEgressServicesResolverAndProxyPorts() {
        Endpoint sandbox = endpoint("sandbox");
        Set<String> allowed = new HashSet<>();
        for (String protocol : List.of("TCP", "UDP")) {
            for (int port = 1; port <= 65535; port++) {
                if (POLICIES.allows(sandbox, endpoint("egress-service"), port, protocol)) {
                    allowed.add(port + "/" + protocol);
                }
            }
        }

        assertThat(allowed).containsExactlyInAnyOrderElementsOf(SANDBOX_PORTS);
    }

    @ParameterizedTest(name = "a sandbox reaches nothing of {0}")
    @CsvSource({"run-service", "adapter-lambda-service", "admin-ui", "kafka", "postgres", "kube-dns", "internet",
            "public-dns", "metadata", "private", "sandbox", "client"})
    void aSandboxReachesNothingButEgressService(String other) {
        for (String protocol : List.of("TCP", "UDP")) {
            for (int port : List.of(22, 53, 80, 443, 3128, 5432, 6443, 8000, 8080, 8081, 8082, 8083, 9091, 9092, 9093)) {
                assertThat(POLICIES.allows(endpoint("sandbox"), endpoint(other), port, protocol))
                        .as("sandbox -> %s:%d/%s", other, port, protocol).isFalse();
            }
        }
    }

    @Test
    void theBaseLivesInARestrictedNamespaceWithThePartOfLabel() {
        Kustomization base = TREE.kustomization("base");

        assertThat(base.namespace()).isEqualTo(NAMESPACE);
        assertThat(base.labels()).containsEntry("app.kubernetes.io/part-of", "trimus");
        assertThat(base.tree().path("labels").path(0).path("includeSelectors").asBoolean(true))
                .as("a common label in selectors would change what the NetworkPolicies select").isFalse();
        assertThat(BASE.find("Namespace", NAMESPACE).orElseThrow().labels())
                .containsEntry("pod-security.kubernetes.io/enforce", "restricted");
    }

    @Test
    void kafkaAndPostgresHaveThreeNodesInTheBaseAndOneInTheDevOverlay() {
        Kustomization dev = TREE.kustomization("overlays/dev");
        List<Manifest> patches = dev.patchFiles().stream().flatMap(f -> TREE.read(TREE.resolve(dev, f)).stream()).toList();

        assertThat(spec(BASE.custom(OperatorResources.STRIMZI, "KafkaNodePool")).path("replicas").asInt()).isEqualTo(3);
        assertThat(spec(BASE.custom(OperatorResources.CNPG, "Cluster")).path("instances").asInt()).isEqualTo(3);
        assertThat(spec(patches.stream().filter(m -> m.kind().equals("KafkaNodePool")).toList()).path("replicas").asInt()).isEqualTo(1);
        assertThat(spec(patches.stream().filter(m -> m.kind().equals("Cluster")).toList()).path("instances").asInt()).isEqualTo(1);
        assertThat(spec(patches.stream().filter(m -> m.kind().equals("Kafka")).toList()).path("kafka").path("config")
                .path("default.replication.factor").asInt()).isEqualTo(1);
    }

    @Test
    void theDatabaseSecretIsTheOneCloudNativePgCreatesForTheCluster() {
        Manifest cluster = BASE.custom(OperatorResources.CNPG, "Cluster").get(0);

        assertThat(EXTERNAL_SECRETS).extracting(ExternalSecret::name).contains(cluster.name() + "-app");
        assertThat(cluster.customFields().path("spec").path("bootstrap").path("initdb").path("database").asText()).isEqualTo("trimus");
    }

    @Test
    void everyTopicOfTheEventsModuleIsAKafkaTopic() throws IOException {
        Path topics = TREE.root().getParent().resolve("events/src/main/java/io/trimus/events/Topics.java");
        Matcher names = Pattern.compile("\"(trimus\\.[a-z.]+)\"").matcher(Files.readString(topics));
        List<String> declared = BASE.custom(OperatorResources.STRIMZI, "KafkaTopic").stream().map(Manifest::name).toList();

        assertThat(names.results().map(r -> r.group(1)).toList()).isNotEmpty().allSatisfy(t -> assertThat(declared).contains(t));
    }

    @ParameterizedTest(name = "{0} -> {1}:{2}/{3} allowed={4}")
    @CsvSource({
            // the arrows of DESIGN.md §1
            "admin-ui,               run-service,            8081, TCP, true",
            "admin-ui,               egress-service,         8083, TCP, true",
            "adapter-lambda-service, egress-service,         8083, TCP, true",
            "run-service,            postgres,               5432, TCP, true",
            "egress-service,         postgres,               5432, TCP, true",
            "run-service,            kafka,                  9092, TCP, true",
            "adapter-lambda-service, kafka,                  9092, TCP, true",
            "egress-service,         kafka,                  9092, TCP, true",
            "admin-ui,               kafka,                  9092, TCP, true",
            "adapter-lambda-service, internet,               443,  TCP, true",
            "egress-service,         internet,               443,  TCP, true",
            "egress-service,         internet,               80,   TCP, true",
            "sandbox,                egress-service,         53,   UDP, true",
            "sandbox,                egress-service,         443,  TCP, true",
            "sandbox,                egress-service,         3128, TCP, true",
            "client,                 run-service,            8081, TCP, true",
            // egress-service asks run-service who each API caller is (GET /api/me)
            "egress-service,         run-service,            8081, TCP, true",
            "client,                 admin-ui,               8080, TCP, true",
            "run-service,            kube-dns,               53,   UDP, true",
            "egress-service,         kube-dns,               53,   UDP, true",
            "egress-service,         kube-dns,               53,   TCP, true",
            "kafka,                  kafka,                  9091, TCP, true",
            "postgres,               postgres,               5432, TCP, true",
            "strimzi-operator,       kafka,                  9091, TCP, true",
            "cnpg-operator,          postgres,               8000, TCP, true",
            // and nothing else
            "adapter-lambda-service, postgres,               5432, TCP, false",
            "admin-ui,               postgres,               5432, TCP, false",
            "client,                 postgres,               5432, TCP, false",
            "client,                 kafka,                  9092, TCP, false",
            "client,                 egress-service,         8083, TCP, false",
            "client,                 adapter-lambda-service, 8082, TCP, false",
            "adapter-lambda-service, run-service,            8081, TCP, false",
            "adapter-lambda-service, egress-service,         53,   UDP, false",
            "adapter-lambda-service, internet,               80,   TCP, false",
            "adapter-lambda-service, metadata,               443,  TCP, false",
            "adapter-lambda-service, private,                443,  TCP, false",
            "run-service,            internet,               443,  TCP, false",
            "admin-ui,               internet,               443,  TCP, false",
            "egress-service,         public-dns,             53,   UDP, false",
            "kafka,                  internet,               443,  TCP, false",
            "sandbox,                kube-dns,               53,   UDP, false",
            "sandbox,                egress-service,         8083, TCP, false",
            "client,                 egress-service,         3128, TCP, false",
            "client,                 egress-service,         53,   UDP, false",
            "adapter-lambda-service, egress-service,         3128, TCP, false",
            "admin-ui,               egress-service,         443,  TCP, false",
            "run-service,            egress-service,         80,   TCP, false",
            "egress-service,         internet,               22,   TCP, false",
            "egress-service,         metadata,               80,   TCP, false",
            "egress-service,         private,                443,  TCP, false",
            "egress-service,         cgnat,                  443,  TCP, false"})
    void networkPoliciesAllowTheDesignsArrowsAndNothingElse(String from, String to, int port, String protocol, boolean allowed) {
        assertThat(POLICIES.allows(endpoint(from), endpoint(to), port, protocol)).isEqualTo(allowed);
    }

    private static Endpoint endpoint(String name) {
        List<Map<String, String>> operatorPods = OperatorResources.pods(BASE);
        return switch (name) {
            case "kafka" -> Endpoint.pod(NAMESPACE, operatorPods.stream().filter(l -> l.containsKey("strimzi.io/broker-role")).findFirst().orElseThrow());
            case "postgres" -> Endpoint.pod(NAMESPACE, operatorPods.stream().filter(l -> l.containsKey(OperatorResources.CNPG_CLUSTER)).findFirst().orElseThrow());
            case "client" -> Endpoint.pod("some-team", Map.of("app", "api-client"));
            case "kube-dns" -> Endpoint.pod("kube-system", Map.of("k8s-app", "kube-dns"));
            case "strimzi-operator" -> Endpoint.pod("strimzi", Map.of("strimzi.io/kind", "cluster-operator"));
            case "cnpg-operator" -> Endpoint.pod("cnpg-system", Map.of("app.kubernetes.io/name", "cloudnative-pg"));
            case "internet" -> Endpoint.external("93.184.215.14");
            case "public-dns" -> Endpoint.external("9.9.9.9");
            case "metadata" -> Endpoint.external("169.254.169.254");
            case "private" -> Endpoint.external("10.20.30.40");
            case "cgnat" -> Endpoint.external("100.64.1.2");
            case "sandbox" -> Endpoint.pod(NAMESPACE, SANDBOX.labels());
            default -> Endpoint.pod(NAMESPACE, BASE.find("Deployment", name).map(m -> Workload.of(m).orElseThrow().podLabels()).orElseThrow());
        };
    }

    private static Path module(String name) {
        return TREE.root().getParent().resolve(name);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Container container(String deployment) {
        return BASE.find("Deployment", deployment).orElseThrow().as(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static List<String> withVariable(String variable) {
        return BASE.workloads().stream()
                .filter(w -> w.allContainers().stream().anyMatch(c -> c.getEnv().stream().anyMatch(e -> e.getName().equals(variable))))
                .map(w -> w.manifest().name()).toList();
    }

    private static JsonNode spec(List<Manifest> single) {
        assertThat(single).hasSize(1);
        return single.get(0).customFields().path("spec");
    }
}
