package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
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
 * Issue #6: T2 and T3 changes are visible after a crash-restart. A forked JVM runs the update on the built
 * store and commits; the test kills it with SIGKILL as soon as the commit has returned (no close, no
 * checkpoint), reopens the store (recovery redoes the committed transaction from the log) and checks that the
 * database equals the heap model after the same operation (the {@link Oo7Digest} covers x, y and buildDate of
 * every atomic part) and, for T3, that the buildDate index agrees with a full scan.
 *
 * <p>On {@code qs} (the mapped store) and on {@code e} (software persistence, docs/software-mode.md): there the
 * child opens the store with {@code -Dqs.frames=SOFTWARE} and a buffer pool of 256 pages, far smaller than the
 * database, so the update steals dirty pages (logged in disk form, OIDs only).
 */
class Oo7CrashRestartTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({"qs, T2B, INCREMENT", "qs, T2A, SWAP", "qs, T3B, SWAP", "e, T2B, INCREMENT", "e, T3B, SWAP"})
    void committedUpdateSurvivesSigkillAndRecovery(String system, String op, String t2) throws Exception {
        Path dir = tmp.resolve("oo7");
        StoreOptions options = system.equals("e") ? SoftwareOo7StoreTest.E : null; // null: the defaults, as qs runs
        try (MappedOo7Store store = MappedOo7Store.create(dir, false, options)) {
            new Oo7Builder(Oo7Config.SMALL, Oo7SmallContract.SEED).build(store, Oo7Builder.Progress.NONE);
        }
        HeapOo7Store heap = HeapOo7StoreTest.buildHeap(Oo7SmallContract.SEED);
        String before = Oo7Digest.of(heap);
        Oo7Operations.Parameters params = new Oo7Operations.Parameters(Oo7Operations.T2Update.valueOf(t2), 10, 5);
        int expectedCount = new Oo7Operations(heap, Oo7Config.SMALL, 7, params).run(Oo7Operation.valueOf(op));
        String expected = Oo7Digest.of(heap);
        assertTrue(!expected.equals(before), op + " changes the database");

        String line = runAndKill(dir, op, t2, system.equals("e"));
        assertEquals("committed " + expectedCount, line, "the child committed " + op);

        try (MappedOo7Store reopened = MappedOo7Store.open(dir, false, options)) {
            assertEquals(system, reopened.name());
            StoreStats stats = reopened.persistentStore().storageManager().stats();
            assertTrue(stats.recoveryRedoApplied() > 0, "recovery redid the committed update: " + stats);
            assertEquals(expected, Oo7SmallContract.digest(reopened), op + " visible after the crash-restart");
            Oo7SmallContract.tx(reopened, () -> Oo7SmallContract.assertIndexMatchesScanInTx(reopened));
            assertTrue(reopened.persistentStore().storageManager().verify().ok(), "verify after recovery");
        }
    }

    /** Starts the child, waits for its "committed" line, SIGKILLs it and returns the line. */
    private String runAndKill(Path dir, String op, String t2, boolean software)
            throws IOException, InterruptedException {
        String[] jvmArgs = software
                ? new String[] {"-Xmx1g", "-Dqs.frames=SOFTWARE", "-Dqs.poolPages=256"}
                : new String[] {"-Xmx1g"};
        try (ChildJvm.Running child = ChildJvm.main(Oo7CrashChild.class)
                .workDir(tmp)
                .jvmArgs(jvmArgs)
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
