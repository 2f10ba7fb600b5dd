package dev.quickstore.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package layering of store-core (docs/architecture-core.md, "Packages"), checked on the compiled classes:
 * no cycles between any two packages, the mechanisms never reach up to the facade or the object API, and the
 * vocabulary packages (options, error, stats, index key types, verify) depend on no mechanism.
 */
class LayeringTest {
    private static final String CORE = "dev.quickstore.core";
    private static final String[] MECHANISMS = {
        CORE + ".volume..",
        CORE + ".page..",
        CORE + ".space..",
        CORE + ".buffer..",
        CORE + ".log..",
        CORE + ".recovery..",
        CORE + ".txn..",
        CORE + ".btree..",
        CORE + ".software.."
    };
    private static final String[] VOCABULARY = {
        CORE + ".options..",
        CORE + ".error..",
        CORE + ".stats..",
        CORE + ".index..",
        CORE + ".verify..",
        CORE + ".crashpoint.."
    };

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.quickstore");
    }

    /**
     * Every package is its own slice (the facade package included): the package graph is acyclic. The object
     * API and its runtime for generated code ({@code api.internal}) are one layer, split in two packages only
     * to keep the runtime out of users' sight (PersistentObject and the generated classes call into the
     * runtime, the runtime builds PersistentObjects): they count as one slice.
     */
    @Test
    void noCyclesBetweenPackages() {
        slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass c) {
                        String p = c.getPackageName();
                        if (!p.startsWith("dev.quickstore.")) {
                            return SliceIdentifier.ignore();
                        }
                        return SliceIdentifier.of(p.startsWith("dev.quickstore.api") ? "dev.quickstore.api" : p);
                    }

                    @Override
                    public String getDescription() {
                        return "one slice per package of dev.quickstore";
                    }
                })
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    @Test
    void mechanismsDoNotReachUpToTheFacadeOrTheObjectApi() {
        noClasses()
                .that()
                .resideInAnyPackage(MECHANISMS)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(CORE, CORE + ".inspect..", "dev.quickstore.api..")
                .check(classes);
    }

    @Test
    void vocabularyDependsOnNoMechanism() {
        noClasses()
                .that()
                .resideInAnyPackage(VOCABULARY)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(MECHANISMS)
                .check(classes);
    }

    @Test
    void theNativeDataPlaneKnowsNothingOfTheStore() {
        noClasses()
                .that()
                .resideInAPackage("dev.quickstore.mmu..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(CORE + "..", "dev.quickstore.api..")
                .check(classes);
    }
}
