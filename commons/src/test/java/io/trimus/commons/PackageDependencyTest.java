package io.trimus.commons;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * commons is what the services share, never a way into one of them: it imports no service's code (only the events
 * contracts), and its packages form no cycle (rows reads the caller of access, never the other way round).
 */
class PackageDependencyTest {
    private static final String ROOT = "io.trimus.commons";
    private static final JavaClasses COMMONS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void commonsImportsNoService() {
        noClasses().that().resideInAPackage(ROOT + "..")
                .should().dependOnClassesThat().resideInAnyPackage("io.trimus.run..", "io.trimus.adapter..",
                        "io.trimus.egress..", "io.trimus.admin..", "io.trimus.testing..")
                .check(COMMONS);
    }

    @Test
    void noCycleBetweenThePackages() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(COMMONS);
    }

    @Test
    void theStreamBoundsArePureMutiny() {
        noClasses().that().resideInAPackage(ROOT + ".streams..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".access..", ROOT + ".rows..",
                        "io.vertx..", "jakarta.enterprise..")
                .check(COMMONS);
    }
}
