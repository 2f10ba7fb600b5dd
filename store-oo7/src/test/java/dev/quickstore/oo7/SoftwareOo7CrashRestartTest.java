package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.stats.StoreStats;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.testkit.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Oo7CrashRestartTest} on {@code e} (software persistence, docs/software-mode.md): a child JVM opens the
 * built OO7 store with {@code -Dqs.frames=SOFTWARE} (a buffer pool of 256 pages, far smaller than the database, so
 * the update steals dirty pages: logged in disk form, OIDs only), runs T2 or T3, commits and is SIGKILLed; the
 * reopened store (recovery) equals the heap model after the same operation and its build-date index agrees with
 * a scan.
 */
class SoftwareOo7CrashRestartTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({"T2B, INCREMENT", "T3B, SWAP"})
    void committedUpdateOnESurvivesSigkillAndRecovery(String op, String t2) throws Exception {
        Path dir = tmp.resolve("oo7");
        try (MappedOo7Store store = MappedOo7Store.create(dir, false, SoftwareOo7StoreTest.E)) {
            new Oo7Builder(Oo7Config.SMALL, Oo7SmallContract.SEED).build(store, Oo7Builder.Progress.NONE);
        }
        HeapOo7Store heap = HeapOo7StoreTest.buildHeap(Oo7SmallContract.SEED);
        String before = Oo7Digest.of(heap);
        Oo7Operations.Parameters params = new Oo7Operations.Parameters(Oo7Operations.T2Update.valueOf(t2), 10, 5);
        int expectedCount = new Oo7Operations(heap, Oo7Config.SMALL, 7, params).run(Oo7Operation.valueOf(op));
        String expected = Oo7Digest.of(heap);
        assertTrue(!expected.equals(before), op + " changes the database");

        String line = runAndKill(dir, op, t2);
        assertEquals("committed " + expectedCount, line, "the child committed " + op);

        try (MappedOo7Store reopened = MappedOo7Store.open(dir, false, SoftwareOo7StoreTest.E)) {
            assertEquals("e", reopened.name());
            StoreStats stats = reopened.persistentStore().storageManager().stats();
            assertTrue(stats.recoveryRedoApplied() > 0, "recovery redid the committed update: " + stats);
            assertEquals(expected, Oo7SmallContract.digest(reopened), op + " visible after the crash-restart");
            Oo7SmallContract.tx(reopened, () -> Oo7SmallContract.assertIndexMatchesScanInTx(reopened));
            assertTrue(reopened.persistentStore().storageManager().verify().ok(), "verify after recovery");
        }
    }

    private String runAndKill(Path dir, String op, String t2) throws IOException, InterruptedException {
        try (ChildJvm.Running child = ChildJvm.main(Oo7CrashChild.class)
                .workDir(tmp)
                .jvmArgs("-Xmx1g", "-Dqs.frames=SOFTWARE", "-Dqs.poolPages=256")
                .args(dir.toString(), op, t2)
                .timeout(Duration.ofSeconds(180))
                .start()) {
            String line = child.nextLine(Duration.ofSeconds(180));
            child.kill(); // SIGKILL on Linux: no shutdown hooks, no close, no checkpoint
            assertEquals(137, child.exitCode(), () -> "killed by SIGKILL (128 + 9); " + child.describe());
            return line;
        }
    }
}
