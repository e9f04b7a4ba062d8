package io.trimus.adapter;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The adapter service is a pipeline, one package per stage, and its dependencies point forward only:
 *
 * <pre>
 *   intake, worker (worker mode's intake), status, health      the edges: Kafka in and out, readiness
 *   canary                                                     egress canaries: Kafka in, a probe container, Kafka out
 *     → dispatch                                               which adapter holds a run
 *       → docker, cli, local, remote (and lambda, a2a)         the executors, which never import each other
 *         → container, command                                 what two executors share (container runtime, CLI argv)
 *           → egress (network, registry, probe, ca)            a sandbox's attachment to the egress network
 *             → engine                                         the Docker engine
 *   lease, run (pool, secrets), config, offhost                the bottom every stage may use
 * </pre>
 *
 * A package cycle anywhere, sub-packages included, or an import against the arrows fails here. lambda and a2a never
 * import each other: what they share (the off-host client and the address policy over commons' address table) is
 * {@code offhost}, which imports nothing of the service but its configuration.
 */
class PackageDependencyTest {

    private static final String ROOT = "io.trimus.adapter";
    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    private static final List<String> EXECUTORS = List.of("docker", "cli", "local", "remote");
    private static final String[] BOTTOM = {"run", "config", "offhost"};

    @Test
    void noCycleBetweenStages() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(SERVICE);
    }

    @Test
    void noCycleBetweenAnyPackages() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(SERVICE);
    }

    @Test
    void offHostSitsAtTheBottom() {
        mayOnlyUse("offhost", "config");
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
    void intakeOnlyHandsOnToTheDispatcher() {
        mayOnlyUse("intake", with("dispatch"));
    }

    @Test
    void canariesUseTheContainerRuntimeButNoRunStage() {
        mayOnlyUse("canary", with("dispatch", "container", "egress", "engine", "lease"));
    }

    /**
     * A canary is not a run: neither its stage nor the probe runner may reach the run pool, a company's share, the
     * status topic or the lease on runs.
     */
    @Test
    void aCanaryNeverTouchesTheRunPoolTheStatusTopicOrTheLeases() {
        noClasses().that().resideInAPackage(ROOT + ".canary..")
                .or().haveFullyQualifiedName(ROOT + ".container.ProbeRunner")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".run.pool..", ROOT + ".status..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(ROOT + ".container.RunExecutor")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(ROOT + ".container.DockerContainerRunner")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(ROOT + ".run.RunReporter")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(ROOT + ".run.RunStarts")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(ROOT + ".lease.RunLeases")
                .check(SERVICE);
    }

    @Test
    void theDispatcherKnowsAdaptersOnlyByTheirContract() {
        mayOnlyUse("dispatch", BOTTOM);
    }

    @Test
    void theExecutorsDoNotImportEachOtherNorReachBack() {
        for (String executor : EXECUTORS) {
            String[] allowed = with("container", "command", "egress", "engine");
            if (executor.equals("remote")) {
                allowed = with("container", "command", "egress", "engine", "a2a");   // adapter_config.a2a hands over
            }
            mayOnlyUse(executor, allowed);
        }
    }

    @Test
    void whatExecutorsShareKnowsNoExecutor() {
        mayOnlyUse("container", with("egress", "engine"));
        mayOnlyUse("command", BOTTOM);
    }

    @Test
    void egressAttachmentUsesOnlyTheEngine() {
        mayOnlyUse("egress", with("engine"));
    }

    @Test
    void theEngineDependsOnlyOnConfiguration() {
        mayOnlyUse("engine", "config");
    }

    @Test
    void theBottomImportsNoStage() {
        mayOnlyUse("lease", BOTTOM);
        mayOnlyUse("run", "config");
        mayOnlyUse("config", "config");
    }

    @Test
    void theEdgesUseOnlyWhatTheyTranslate() {
        mayOnlyUse("worker", with("dispatch", "lease"));
        mayOnlyUse("status", with("lease", "worker"));
        mayOnlyUse("health", with("engine", "egress", "worker"));
    }

    @Test
    void theEdgesAreImportedByNobody() {
        noClasses().that().resideOutsideOfPackages(packages("intake", "status", "health", "canary"))
                .should().dependOnClassesThat().resideInAnyPackage(packages("intake", "status", "health", "canary"))
                .check(SERVICE);
        noClasses().that().resideOutsideOfPackages(packages("worker", "status", "health"))
                .should().dependOnClassesThat().resideInAnyPackage(packages("worker"))
                .check(SERVICE);
    }

    /** Classes of {@code stage} (sub-packages included) use no package of this service but their own and these. */
    private static void mayOnlyUse(String stage, String... allowed) {
        String[] own = packages(concat(new String[] {stage}, allowed));
        DescribedPredicate<JavaClass> elsewhereInTheService = resideInAPackage(ROOT + "..")
                .and(not(resideInAnyPackage(own)))
                .as("a package of the service other than " + String.join(", ", concat(new String[] {stage}, allowed)));
        noClasses().that().resideInAPackage(ROOT + "." + stage + "..")
                .should().dependOnClassesThat(elsewhereInTheService)
                .check(SERVICE);
    }

    private static String[] with(String... more) {
        return concat(BOTTOM, more);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static String[] packages(String... names) {
        return Arrays.stream(names).map(n -> ROOT + "." + n + "..").toArray(String[]::new);
    }
}
