package io.trimus.adapter;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The adapter service's packages read top-down: rest/messaging/worker/health → service → adapters (run, docker, cli,
 * local, lambda, a2a, remote) → offhost, egress → engine → config. Any cycle or upward import fails here; the CIDR
 * type and the address table are commons' ({@code io.trimus.commons.net}).
 */
class PackageDependencyTest {

    private static final String ROOT = "io.trimus.adapter";
    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void noCycleBetweenTheServicesPackages() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(SERVICE);
    }

    @Test
    void offHostAndConfigSitAtTheBottom() {
        noClasses().that().resideInAPackage(ROOT + ".offhost..")
                .should().dependOnClassesThat().resideInAnyPackage(allBut("offhost"))
                .check(SERVICE);
        noClasses().that().resideInAPackage(ROOT + ".config..")
                .should().dependOnClassesThat().resideInAnyPackage(allBut("config"))
                .check(SERVICE);
    }

    @Test
    void lambdaAndA2aShareOnlyOffHost() {
        noClasses().that().resideInAPackage(ROOT + ".lambda..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".a2a..")
                .check(SERVICE);
        noClasses().that().resideInAPackage(ROOT + ".a2a..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".lambda..")
                .check(SERVICE);
    }

    @Test
    void theEngineDependsOnlyOnConfiguration() {
        noClasses().that().resideInAPackage(ROOT + ".engine..")
                .should().dependOnClassesThat().resideInAnyPackage(allBut("engine", "config"))
                .check(SERVICE);
    }

    @Test
    void egressDependsOnlyOnTheEngineAndConfiguration() {
        noClasses().that().resideInAPackage(ROOT + ".egress..")
                .should().dependOnClassesThat().resideInAnyPackage(allBut("egress", "engine", "config"))
                .check(SERVICE);
    }

    @Test
    void adaptersDoNotReachUpIntoMessagingWorkerServiceOrHealth() {
        noClasses().that().resideInAnyPackage(packages("run", "docker", "cli", "local", "lambda", "a2a", "remote"))
                .should().dependOnClassesThat().resideInAnyPackage(packages("messaging", "worker", "service",
                        "health", "rest"))
                .check(SERVICE);
    }

    @Test
    void theAdapterContractKnowsNoAdapter() {
        noClasses().that().resideInAPackage(ROOT + ".run..")
                .should().dependOnClassesThat().resideInAnyPackage(packages("docker", "cli", "local", "lambda",
                        "a2a", "remote", "offhost", "egress", "engine"))
                .check(SERVICE);
    }

    @Test
    void theServiceLayerDoesNotKnowMessaging() {
        noClasses().that().resideInAPackage(ROOT + ".service..")
                .should().dependOnClassesThat().resideInAnyPackage(packages("messaging", "worker", "health", "rest"))
                .check(SERVICE);
    }

    private static final String[] ALL = {"run", "docker", "cli", "local", "lambda", "a2a", "remote", "offhost", "egress",
            "engine", "config", "service", "messaging", "worker", "health", "rest"};

    private static String[] allBut(String... own) {
        java.util.List<String> others = new java.util.ArrayList<>(java.util.List.of(ALL));
        others.removeAll(java.util.List.of(own));
        return packages(others.toArray(String[]::new));
    }

    private static String[] packages(String... names) {
        return java.util.Arrays.stream(names).map(n -> ROOT + "." + n + "..").toArray(String[]::new);
    }
}
