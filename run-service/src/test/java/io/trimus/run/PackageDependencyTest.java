package io.trimus.run;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.trimus.run.repository.ClusterLocks;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * run-service's layers read top-down: rest → service → repository, messaging → service, config under all. In a
 * layer the feature packages (service.run, service.identity, repository.secret, …) form no cycle, and nothing imports
 * another service's code (adapter, egress, admin-ui): they talk over Kafka and HTTP only. Any break fails here.
 */
class PackageDependencyTest {
    private static final String ROOT = "io.trimus.run";
    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    /** The Panache repositories and the cluster locks: the classes that reach the database. */
    private static final DescribedPredicate<JavaClass> REPOSITORIES = assignableTo(PanacheRepositoryBase.class)
            .or(assignableTo(ClusterLocks.class)).as("a repository");

    @Test
    void restAndMessagingCallServicesWhichCallRepositories() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("rest").definedBy(ROOT + ".rest..")
                .layer("messaging").definedBy(ROOT + ".messaging..")
                .layer("service").definedBy(ROOT + ".service..")
                .layer("repository").definedBy(ROOT + ".repository..")
                .layer("config").definedBy(ROOT + ".config..")
                .whereLayer("rest").mayNotBeAccessedByAnyLayer()
                .whereLayer("messaging").mayNotBeAccessedByAnyLayer()
                .whereLayer("service").mayOnlyBeAccessedByLayers("rest", "messaging")
                // rest and messaging read the entities a service hands them; the repositories are the next rule's
                .whereLayer("repository").mayOnlyBeAccessedByLayers("service", "rest", "messaging")
                .whereLayer("config").mayOnlyBeAccessedByLayers("rest", "messaging", "service", "repository")
                .check(SERVICE);
    }

    @Test
    void onlyServicesReachTheDatabase() {
        noClasses().that().resideInAnyPackage(ROOT + ".rest..", ROOT + ".messaging..")
                .should().dependOnClassesThat(REPOSITORIES)
                .check(SERVICE);
    }

    @Test
    void servicesAndRepositoriesKnowNoTransport() {
        noClasses().that().resideInAnyPackage(ROOT + ".service..", ROOT + ".repository..", ROOT + ".config..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".rest..", ROOT + ".messaging..")
                .check(SERVICE);
    }

    @Test
    void noCycleBetweenFeaturePackages() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(SERVICE);
    }

    @Test
    void noImportOfAnotherServicesCode() {
        noClasses().that().resideInAPackage(ROOT + "..")
                .should().dependOnClassesThat().resideInAnyPackage("io.trimus.adapter..", "io.trimus.egress..",
                        "io.trimus.admin..")
                .check(SERVICE);
    }
}
