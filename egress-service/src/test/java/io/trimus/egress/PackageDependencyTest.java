package io.trimus.egress;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * egress-service's packages, as the package-info of each states them. A pipeline service: sandboxes' traffic enters at
 * {@code dns} (the resolver) and {@code proxy} (the egress proxy), which use the shared state below them (sandbox
 * registry, allowlists, policy, masks, anomaly and connection recording); {@code rest} is the HTTP face over the same
 * services; {@code config}, {@code feed}, {@code audit} and {@code chart} sit at the bottom. Inside the proxy the
 * connection ({@code proxy}) drives the stages in order, admission → destination → intercept, bytes carried by
 * {@code relay}: a stage uses only the verdicts of admission (and intercept the relay), never a later stage nor the
 * connection that drives it. Any cycle or upward import fails here.
 */
class PackageDependencyTest {

    private static final String ROOT = "io.trimus.egress";
    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    private static final String[] ALL = {"access", "allowlist", "anomaly", "audit", "ca", "chart", "config",
            "canary", "connection", "dns", "feed", "masks", "policy", "proxy", "rest", "sandbox", "tunnelling"};

    @Test
    void noCycleBetweenTheTopLevelPackages() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(SERVICE);
    }

    @Test
    void noCycleBetweenAnyTwoPackages() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(SERVICE);
    }

    @Test
    void configurationFeedsAuditAndChartsSitAtTheBottom() {
        for (String bottom : List.of("config", "feed", "audit", "chart")) {
            noClasses().that().resideInAPackage(ROOT + "." + bottom + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(allBut(bottom))
                    .check(SERVICE);
        }
    }

    @Test
    void nothingDependsOnTheHttpFace() {
        noClasses().that().resideInAnyPackage(allBut("rest"))
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".rest..")
                .check(SERVICE);
    }

    @Test
    void theResolverAndTheProxyAreEntryPointsNothingElseUses() {
        noClasses().that().resideInAnyPackage(allBut("proxy"))
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".proxy..")
                .check(SERVICE);
        noClasses().that().resideInAnyPackage(allBut("proxy", "dns"))
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".dns..")
                .check(SERVICE);
    }

    @Test
    void admissionIsTheFirstStageAndUsesNoOther() {
        noClasses().that().resideInAPackage(ROOT + ".proxy.admission..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".proxy", ROOT + ".proxy.destination..",
                        ROOT + ".proxy.intercept..", ROOT + ".proxy.relay..")
                .check(SERVICE);
    }

    @Test
    void destinationUsesOnlyTheVerdictsOfAdmission() {
        noClasses().that().resideInAPackage(ROOT + ".proxy.destination..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".proxy", ROOT + ".proxy.intercept..",
                        ROOT + ".proxy.relay..")
                .check(SERVICE);
    }

    @Test
    void interceptUsesAdmissionAndTheRelayOnly() {
        noClasses().that().resideInAPackage(ROOT + ".proxy.intercept..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".proxy", ROOT + ".proxy.destination..")
                .check(SERVICE);
    }

    @Test
    void theRelayKnowsOnlySockets() {
        noClasses().that().resideInAPackage(ROOT + ".proxy.relay..")
                .should().dependOnClassesThat().resideInAnyPackage(allBut("proxy"))
                .check(SERVICE);
        noClasses().that().resideInAPackage(ROOT + ".proxy.relay..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".proxy", ROOT + ".proxy.admission..",
                        ROOT + ".proxy.destination..", ROOT + ".proxy.intercept..")
                .check(SERVICE);
    }

    @Test
    void theSandboxRegistryKnowsNeitherRegistrationNorReplicas() {
        noClasses().that().resideInAPackage(ROOT + ".sandbox")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".sandbox.registration..",
                        ROOT + ".sandbox.replica..")
                .check(SERVICE);
        noClasses().that().resideInAPackage(ROOT + ".sandbox.registration..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".sandbox.replica..")
                .check(SERVICE);
    }

    @Test
    void thePolicyKnowsNotHowReplicasFollowIt() {
        noClasses().that().resideInAPackage(ROOT + ".policy")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".policy.replica..")
                .check(SERVICE);
    }

    @Test
    void recordingAnomaliesDoesNotKnowTheirStore() {
        noClasses().that().resideInAPackage(ROOT + ".anomaly")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".anomaly.store..")
                .check(SERVICE);
    }

    private static String[] allBut(String... own) {
        List<String> others = new ArrayList<>(List.of(ALL));
        others.removeAll(List.of(own));
        return packages(others.toArray(String[]::new));
    }

    private static String[] packages(String... names) {
        return Arrays.stream(names).map(n -> ROOT + "." + n + "..").toArray(String[]::new);
    }
}
