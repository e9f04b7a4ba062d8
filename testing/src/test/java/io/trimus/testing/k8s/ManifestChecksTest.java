package io.trimus.testing.k8s;

import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The checks can fail: each deliberate mistake in a fixture under test resources manifests/ is reported, by name. */
class ManifestChecksTest {

    private static final List<ExternalSecret> EXTERNAL = List.of(new ExternalSecret("demo-external", Set.of("token"), "the test"));
    private static final ManifestChecks CHECKS = new ManifestChecks(EXTERNAL);

    @Test
    void theValidFixturePassesEveryCheck() {
        assertThat(CHECKS.check(new Manifests(read("valid.yaml")))).isEmpty();
    }

    @Test
    void aMisspelledFieldIsReportedWithItsPathEvenInsideAList() {
        assertThat(problemsWith("misspelled-field")).containsExactly(
                "broken/misspelled-field.yaml: Deployment/demo: unknown field spec.replcas",
                "broken/misspelled-field.yaml: Deployment/demo: unknown field spec.template.spec.containers[0].imagePullPolcy");
    }

    @Test
    void aServiceSelectorThatMatchesNoPodIsReported() {
        assertThat(problemsWith("service-selector-typo")).containsExactly(
                "broken/service-selector-typo.yaml: Service/demo: selector {app.kubernetes.io/name=demo-typo} matches no pod template");
    }

    @Test
    void aServiceTargetPortTheContainerDoesNotDeclareIsReported() {
        assertThat(problemsWith("service-target-port-typo")).containsExactly(
                "broken/service-target-port-typo.yaml: Service/demo: port http targets htp/TCP, which no container of Deployment/demo declares");
    }

    @Test
    void aMissingProbeIsReported() {
        assertThat(problemsWith("missing-probe")).containsExactly(
                "broken/missing-probe.yaml: Deployment/demo: container demo has no readinessProbe");
    }

    @Test
    void aProbeOnAPortTheContainerDoesNotDeclareIsReported() {
        assertThat(problemsWith("probe-on-undeclared-port")).containsExactly(
                "broken/probe-on-undeclared-port.yaml: Deployment/demo: container demo livenessProbe uses port 9000, which the container does not declare");
    }

    @Test
    void aReferenceToAnUnknownSecretIsReported() {
        assertThat(problemsWith("unknown-secret")).containsExactly(
                "broken/unknown-secret.yaml: Deployment/demo: refers to Secret demo-externl, which is neither in the manifests nor a known external secret [demo-external]");
    }

    @Test
    void aConfigMapKeyThatDoesNotExistIsReported() {
        assertThat(problemsWith("missing-config-key")).containsExactly(
                "manifests/valid.yaml: Deployment/demo: ConfigMap demo-config has no key GREETING");
    }

    @Test
    void anAddressWithAPortTheServiceDoesNotHaveIsReported() {
        assertThat(problemsWith("address-typo")).containsExactly(
                "broken/address-typo.yaml: ConfigMap/demo-config: SELF_URL uses port 8081 of demo, which has [8080]");
    }

    @Test
    void anImageWithoutATagIsReported() {
        assertThat(problemsWith("latest-image")).containsExactly(
                "broken/latest-image.yaml: Deployment/demo: container demo image example/demo is not pinned to a tag (no tag means :latest)");
    }

    @Test
    void aContainerWithoutTheRestrictedSecurityContextIsReported() {
        assertThat(problemsWith("root-and-writable")).containsExactly(
                "broken/root-and-writable.yaml: Deployment/demo: container demo has a writable root filesystem (readOnlyRootFilesystem: true)",
                "broken/root-and-writable.yaml: Deployment/demo: container demo may escalate privileges (allowPrivilegeEscalation: false)",
                "broken/root-and-writable.yaml: Deployment/demo: container demo keeps capabilities (capabilities: {drop: [ALL]}, nothing added)");
    }

    @Test
    void aSecretWithValuesIsReported() {
        assertThat(problemsWith("secret-with-data")).containsExactly(
                "broken/secret-with-data.yaml: Secret/demo-leak: carries secret values in git (data/stringData); create it outside the manifests");
    }

    @Test
    void aNetworkPolicyThatSelectsNoPodIsReported() {
        assertThat(problemsWith("policy-selects-nothing")).containsExactly(
                "broken/policy-selects-nothing.yaml: NetworkPolicy/demo: podSelector {app.kubernetes.io/name=dmeo} selects no pod of these manifests");
    }

    @Test
    void aNetworkPolicyForPodsNoManifestStartsIsReportedUnlessThosePodsAreDeclared() {
        RuntimePod workers = new RuntimePod("worker", Map.of("demo/worker", "true"), "the test");

        assertThat(problemsWith("policy-for-runtime-pods")).containsExactly(
                "broken/policy-for-runtime-pods.yaml: NetworkPolicy/demo-workers: podSelector {demo/worker=true} selects no pod of these manifests");
        assertThat(problemsWith("policy-for-runtime-pods", new ManifestChecks(EXTERNAL, List.of(workers)))).isEmpty();
        assertThat(new ManifestChecks(EXTERNAL, List.of(workers)).check(ManifestTree.at(fixture("broken-tree")))).contains(
                "broken-tree/README.md: does not tell that worker pods carry the label demo/worker=true (started by the test)");
    }

    @Test
    void aMissingDefaultDenyIsReported() {
        assertThat(problemsWith("no-default-deny")).containsExactly(
                "manifests: no default-deny NetworkPolicy (podSelector: {}, policyTypes Ingress and Egress, no rules)");
    }

    @Test
    void aKindOutsideTheModelAndTheOperatorsIsReported() {
        assertThat(problemsWith("unknown-kind")).containsExactly(
                "broken/unknown-kind.yaml: Deployment/other: unknown apiVersion/kind app/v1 Deployment");
    }

    @Test
    void aKafkaWithoutKraftAndANodePoolOfAnotherClusterAreReported() {
        assertThat(problemsWith("kafka-misconfigured")).containsExactly(
                "broken/kafka-misconfigured.yaml: Kafka/demo-kafka: needs the annotation strimzi.io/kraft: enabled",
                "broken/kafka-misconfigured.yaml: Kafka/demo-kafka: needs the annotation strimzi.io/node-pools: enabled",
                "broken/kafka-misconfigured.yaml: Kafka/demo-kafka: its node pools have roles []; KRaft needs controller and broker nodes",
                "broken/kafka-misconfigured.yaml: KafkaNodePool/brokers: label strimzi.io/cluster=demo-kafak names no Kafka of these manifests",
                "broken/kafka-misconfigured.yaml: KafkaNodePool/brokers: spec.roles [brokr] must be controller and/or broker",
                "broken/kafka-misconfigured.yaml: KafkaNodePool/brokers: spec.storage must be persistent-claim with a size (or jbod of such volumes)");
    }

    @Test
    void aDisruptionBudgetThatHoldsEveryPodSelectsNothingOrIsMisspelledIsReported() {
        assertThat(problemsWith("budget-misconfigured")).containsExactly(
                "broken/budget-misconfigured.yaml: PodDisruptionBudget/demo-keeps-all: keeps 1 of the 1 pods of Deployment/demo available: no node that runs one could be drained",
                "broken/budget-misconfigured.yaml: PodDisruptionBudget/demo-typo: selector {app.kubernetes.io/name=dmeo} selects no pod of these manifests",
                "broken/budget-misconfigured.yaml: PodDisruptionBudget/demo-misspelled: unknown field spec.minAvailble",
                "broken/budget-misconfigured.yaml: PodDisruptionBudget/demo-both: needs exactly one of spec.minAvailable and spec.maxUnavailable");
    }

    @Test
    void aKafkaUserNothingCreatesLogsInOrEnforcesAndAKeyItsSecretLacksAreReported() {
        assertThat(problemsWith("kafka-user-misconfigured")).containsExactly(
                "broken/kafka-user-misconfigured.yaml: Deployment/demo: Secret demo-user (created by Strimzi for the KafkaUser demo-user) has no key sasl.jaas.confg; it has [password, sasl.jaas.config]",
                "broken/kafka-user-misconfigured.yaml: KafkaUser/demo-user: Kafka/demo-kafka has no spec.entityOperator.userOperator to create it",
                "broken/kafka-user-misconfigured.yaml: KafkaUser/demo-user: authentication scram-sha-512 is accepted by no listener of Kafka/demo-kafka",
                "broken/kafka-user-misconfigured.yaml: KafkaUser/demo-user: has ACLs, but Kafka/demo-kafka has no spec.kafka.authorization to enforce them");
    }

    @Test
    void kustomizationMistakesAreReported() {
        List<String> problems = CHECKS.check(ManifestTree.at(fixture("broken-tree")));

        assertThat(problems).contains(
                "broken-tree/base/kustomization.yaml: unknown field patchs",
                "broken-tree/base/kustomization.yaml: resource missing.yaml does not exist",
                "broken-tree/base/app.yaml: Namespace/other: is not the kustomization's namespace demo",
                "broken-tree/overlays/dev/patch.yaml: Deployment/nope: unknown field spec.replcas",
                "broken-tree/overlays/dev/patch.yaml: Deployment/nope: patch of broken-tree/overlays/dev/kustomization.yaml targets Deployment/nope, which its resources do not have",
                "broken-tree/overlays/dev/kustomization.yaml: images entry example/nope matches no container image []",
                "broken-tree/overlays/dev/kustomization.yaml: images entry example/nope pins newTag latest",
                "broken-tree/base/stray.yaml: is listed by no kustomization (resources or patches)",
                "broken-tree/README.md: does not tell how demo-external comes about (created by the test)");
    }

    /** Problems of valid.yaml with the resources of broken/{name}.yaml in place of the same kind and name, or added. */
    private static List<String> problemsWith(String name) {
        return problemsWith(name, CHECKS);
    }

    private static List<String> problemsWith(String name, ManifestChecks checks) {
        List<Manifest> manifests = new ArrayList<>(read("valid.yaml"));
        for (Manifest broken : ManifestReader.read(fixture("broken/" + name + ".yaml"), "broken/" + name + ".yaml")) {
            manifests.removeIf(m -> m.id().equals(broken.id()));
            manifests.add(broken);
        }
        return checks.check(new Manifests(manifests));
    }

    private static List<Manifest> read(String file) {
        return ManifestReader.read(fixture(file), "manifests/" + file);
    }

    private static Path fixture(String path) {
        try {
            return Path.of(ManifestChecksTest.class.getResource("/manifests/" + path).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
