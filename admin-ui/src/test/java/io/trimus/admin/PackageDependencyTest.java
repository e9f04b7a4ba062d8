package io.trimus.admin;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The dashboard's packages read top-down: rest (the pages, one sub-package per feature) → auth (who calls) and
 * messaging (the live topics) → view (what the templates show) → client (the backends' REST APIs) → config, never
 * upwards, and no cycle between the packages or between the pages' features.
 */
class PackageDependencyTest {
    private static final String ROOT = "io.trimus.admin";
    private static final JavaClasses DASHBOARD = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void noCycleBetweenThePackages() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(DASHBOARD);
    }

    @Test
    void noCycleBetweenThePagesFeatures() {
        slices().matching(ROOT + ".rest.(*)..").should().beFreeOfCycles().check(DASHBOARD);
    }

    @Test
    void onlyThePagesKnowThePages() {
        noClasses().that().resideOutsideOfPackage(ROOT + ".rest..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".rest..")
                .check(DASHBOARD);
    }

    @Test
    void theSignInCheckKnowsNoLiveTopic() {
        noClasses().that().resideInAPackage(ROOT + ".auth..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".messaging..")
                .check(DASHBOARD);
    }

    @Test
    void theViewsKnowNeitherTheCallerNorTheLiveTopics() {
        noClasses().that().resideInAPackage(ROOT + ".view..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".auth..", ROOT + ".messaging..")
                .check(DASHBOARD);
    }

    @Test
    void theLiveTopicsKnowOnlyTheEvents() {
        noClasses().that().resideInAPackage(ROOT + ".messaging..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".auth..", ROOT + ".client..",
                        ROOT + ".view..")
                .check(DASHBOARD);
    }

    @Test
    void theClientsKnowNothingAboveThem() {
        noClasses().that().resideInAPackage(ROOT + ".client..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".auth..", ROOT + ".view..",
                        ROOT + ".messaging..")
                .check(DASHBOARD);
    }

    @Test
    void configurationSitsAtTheBottom() {
        noClasses().that().resideInAPackage(ROOT + ".config..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".auth..", ROOT + ".client..",
                        ROOT + ".view..", ROOT + ".messaging..")
                .check(DASHBOARD);
    }

    @Test
    void noPageImportsAnotherServicesCode() {
        noClasses().that().resideInAPackage(ROOT + "..")
                .should().dependOnClassesThat().resideInAnyPackage("io.trimus.run..", "io.trimus.adapter..",
                        "io.trimus.egress..")
                .check(DASHBOARD);
    }
}
