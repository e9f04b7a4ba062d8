package io.trimus.events;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The contracts stay contracts: plain Java, the JDK's crypto and Jackson, nothing of a service, of commons or of a
 * framework; the event records at the bottom, {@code adapter}, {@code auth} and {@code secrets} above them, no cycle.
 */
class PackageDependencyTest {
    private static final String ROOT = "io.trimus.events";
    private static final JavaClasses CONTRACTS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void theContractsUseOnlyTheJdkAndJackson() {
        classes().that().resideInAPackage(ROOT + "..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(ROOT + "..", "java..", "javax.crypto..",
                        "com.fasterxml.jackson..")
                .check(CONTRACTS);
    }

    @Test
    void noCycleBetweenThePackages() {
        slices().matching("io.trimus.(**)").should().beFreeOfCycles().check(CONTRACTS);
    }

    @Test
    void theEventRecordsKnowNothingBuiltOnThem() {
        noClasses().that().resideInAPackage(ROOT)
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".adapter..", ROOT + ".auth..",
                        ROOT + ".secrets..")
                .check(CONTRACTS);
    }

    @Test
    void adapterConfigsAndSecretsDoNotDependOnEachOtherOrOnAuth() {
        noClasses().that().resideInAPackage(ROOT + ".adapter..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".auth..", ROOT + ".secrets..")
                .check(CONTRACTS);
        noClasses().that().resideInAPackage(ROOT + ".secrets..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".adapter..", ROOT + ".auth..")
                .check(CONTRACTS);
        noClasses().that().resideInAPackage(ROOT + ".auth..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".adapter..")
                .check(CONTRACTS);
    }
}
