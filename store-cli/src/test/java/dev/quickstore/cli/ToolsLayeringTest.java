package dev.quickstore.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The admin shell and the OO7 harness use the store through what store-core exports (module-info.java): the
 * object API, the storage-manager facade and its vocabulary, inspection and the volume layout; never the
 * mechanisms behind them. (They run on the class path, where nothing else would stop them.)
 */
class ToolsLayeringTest {
    @Test
    void toolsUseOnlyExportedPackagesOfStoreCore() {
        JavaClasses tools = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.quickstore.cli", "dev.quickstore.oo7");
        noClasses()
                .that()
                .resideInAnyPackage("dev.quickstore.cli..", "dev.quickstore.oo7..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.quickstore.core.page..",
                        "dev.quickstore.core.space..",
                        "dev.quickstore.core.buffer..",
                        "dev.quickstore.core.log..",
                        "dev.quickstore.core.recovery..",
                        "dev.quickstore.core.txn..",
                        "dev.quickstore.core.btree..")
                .check(tools);
    }
}
