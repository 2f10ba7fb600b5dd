package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.mmu.NativeLibrary;
import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that opens a store in a JVM whose native library cannot be loaded ends as the shell documents it: one
 * line naming the library that is missing and exit code 5, not a stack trace. A real second JVM, because a JVM
 * loads the library once: this one already has it.
 */
class MissingNativeLibraryTest {
    @TempDir
    Path tmp;

    @Test
    @Timeout(300)
    void aStoreCommandWithoutItsLibraryIsOneLineAndExitCodeFive() throws Exception {
        Path nowhere = tmp.resolve("no-native-library-here");
        ChildJvm.Result r = ChildJvm.main(Qs.class)
                .workDir(tmp)
                .jvmArgs("-Xmx128m", "-D" + NativeLibrary.DIR_PROPERTY + "=" + nowhere)
                .args("create", tmp.resolve("db").toString())
                .timeout(Duration.ofSeconds(240))
                .run();
        assertFalse(r.timedOut(), r.describe());
        assertEquals(ExitCodes.NATIVE, r.exitCode(), r.describe());
        assertEquals(1, r.stderr().lines().count(), r.describe());
        assertTrue(r.stderr().startsWith("qs: error: "), r.describe());
        assertTrue(r.stderr().contains(nowhere.resolve("libquickstore.so").toString()), r.describe());
        assertFalse(r.stderr().contains("Exception") || r.stderr().contains("\tat "), r.describe());
    }
}
