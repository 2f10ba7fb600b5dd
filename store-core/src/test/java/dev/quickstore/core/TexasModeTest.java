package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.mmu.TexasCounters;
import dev.quickstore.mmu.TexasPointers;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Texas mode (docs/texas-mode.md; Kakkad and Wilson 1999, section 3): seeded random graphs read and updated
 * through the view give the heap model's results, with a pool large enough to hold them and with one so small
 * that pages are evicted and faulted in again; the volume holds only persistent pointers; frames are reserved
 * one step ahead (a cold walk of part of the graph reserves frames for the pages it touched and their
 * neighbours, not for every page as identity placement does); the mode is recorded in the volume header and a
 * mismatch is refused; a SIGKILLed child's committed updates survive and its uncommitted ones do not.
 */
class TexasModeTest {
    @TempDir
    Path dir;

    static StoreOptions opts(int poolPages) {
        return new StoreOptions(poolPages, 1 << 18, 1 << 22)
                .withFrames(FramesMode.MAPPED)
                .withArenaBytes(1L << 30)
                .withRelocation(Relocation.TEXAS, 0);
    }

    private static void check(TexasGraph g, Store s, String when) {
        assertArrayEquals(g.expectedWalk(), g.walk(s), when + ": " + g);
    }

    @Test
    void randomGraphsMatchTheHeapModel() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            for (int pool : new int[] {512, 16}) {
                Path d = dir.resolve("g" + seed + "-" + pool);
                TexasGraph g = new TexasGraph(700 + (int) seed * 150, seed);
                try (Store s = Store.create(d, 8192, opts(pool))) {
                    g.build(s);
                    check(g, s, "after build");
                    g.update(s, seed * 31, 200, true);
                    check(g, s, "after committed updates");
                    g.update(s, seed * 37, 100, false);
                    check(g, s, "after an aborted transaction");
                }
                try (Store s = Store.open(d, opts(pool))) {
                    check(g, s, "reopened (seed " + seed + ", pool " + pool + ")");
                    TexasCounters c = s.mappedFrames().texas().counters();
                    assertTrue(c.pagesSwizzled() > 0 && c.wordsSwizzled() > 0, "pointers swizzled at fault: " + c);
                    assertTrue(c.reservedAhead() > 0, "frames reserved one step ahead: " + c);
                    g.update(s, seed * 41, 150, true);
                    check(g, s, "updated after reopen");
                    assertTrue(s.verify().ok(), s.verify().toString());
                }
                try (Store s = Store.open(d, opts(pool))) {
                    check(g, s, "reopened again");
                }
                assertOnlyPersistentPointers(d);
            }
        }
    }

    /** Every pointer word of every slotted page on disk is null or a persistent pointer, never an address. */
    static void assertOnlyPersistentPointers(Path d) throws Exception {
        byte[] vol = Files.readAllBytes(d.resolve(VolumeFile.VOLUME_FILE));
        MemorySegment all = MemorySegment.ofArray(vol);
        int ps = 8192;
        long persistent = 0;
        for (long p = 1; p < vol.length / ps; p++) {
            MemorySegment page = all.asSlice(p * ps, ps);
            if (PageHeader.type(page) != PageHeader.SLOTTED) {
                continue;
            }
            java.util.BitSet words = java.util.BitSet.valueOf(
                    page.asSlice(PageHeader.SIZE, ps / 64).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            for (int k = words.nextSetBit(0); k >= 0; k = words.nextSetBit(k + 1)) {
                long v = page.get(PageHeader.LONG, 8L * k);
                assertTrue(
                        v == 0 || TexasPointers.isPersistent(v),
                        String.format("page %d word %d holds 0x%x, not a persistent pointer", p, k, v));
                if (v != 0) {
                    assertTrue(TexasPointers.pageOf(v, ps) < vol.length / ps, "target page on the volume");
                    persistent++;
                }
            }
        }
        assertTrue(persistent > 0, "the volume holds persistent pointers");
    }

    @Test
    void framesAreReservedOneStepAheadNotForEveryPage() throws Exception {
        Path d = dir.resolve("ahead");
        TexasGraph g = new TexasGraph(1200, 7);
        try (Store s = Store.create(d, 8192, opts(512))) {
            g.build(s);
        }
        try (Store s = Store.open(d, opts(512))) {
            long pages = s.pageCount();
            TexasCounters before = s.mappedFrames().texas().counters();
            try (Transaction tx = s.begin()) {
                long r = tx.root("g0");
                for (int i = 0; i < 20; i++) { // the first 20 nodes: the first page or two of the chain
                    r = TexasGraph.get(s, r, TexasGraph.A);
                }
                tx.commit();
            }
            TexasCounters after = s.mappedFrames().texas().counters();
            long faulted = s.mappedFrames().arena().counters().readFaults();
            assertTrue(faulted >= 1 && faulted <= 4, "a few pages faulted in: " + faulted);
            assertTrue(after.reservedAhead() > before.reservedAhead(), "B targets reserved at fault: " + after);
            // every B reference of a faulted page may lead to a new page; nothing else is reserved by faults
            assertTrue(
                    after.reservedAhead() - before.reservedAhead() <= after.wordsSwizzled(),
                    "at most one frame per swizzled word: " + after);
            assertTrue(
                    after.framesReserved() < pages,
                    "fewer frames than pages (identity placement reserves all " + pages + "): " + after);
        }
    }

    @Test
    void theModeIsRecordedInTheVolumeHeaderAndAMismatchIsRefused() throws Exception {
        Path texas = dir.resolve("texas");
        Path plain = dir.resolve("plain");
        try (Store s = Store.create(texas, 8192, opts(64))) {
            new TexasGraph(50, 1).build(s);
        }
        try (Store s = Store.create(plain, 8192, opts(64).withRelocation(Relocation.CONTINUAL, 0))) {
            new TexasGraph(50, 1).build(s);
        }
        assertEquals(1, VolumeFile.readHeader(texas).pointerFormat());
        assertEquals(0, VolumeFile.readHeader(plain).pointerFormat());
        StoreException e = assertThrows(
                StoreException.class, () -> Store.open(texas, opts(64).withRelocation(Relocation.CONTINUAL, 0)));
        assertTrue(
                e.getMessage().contains("Texas persistent pointers")
                        && e.getMessage().contains("Relocation.TEXAS"),
                e.getMessage());
        e = assertThrows(StoreException.class, () -> Store.open(plain, opts(64)));
        assertTrue(e.getMessage().contains("virtual addresses"), e.getMessage());
        e = assertThrows(StoreException.class, () -> Store.open(texas, opts(64).withFrames(FramesMode.EXPLICIT)));
        assertTrue(e.getMessage().contains("FramesMode.MAPPED"), e.getMessage());
        try (Store s = Store.open(texas, opts(64));
                Transaction tx = s.begin()) { // multi-page objects need consecutive frames (docs/texas-mode.md)
            e = assertThrows(StoreException.class, () -> tx.allocateLarge(3 * 8192, 0));
            assertTrue(e.getMessage().contains("not supported in Texas mode"), e.getMessage());
            assertTrue(tx.allocateLarge(1000, 0) != 0, "a one-page large object is fine");
        }
    }

    /** A child JVM commits updates, then steals uncommitted ones to disk, and is SIGKILLed (TexasCrashChild). */
    @Test
    void committedDataSurvivesSigkillInTexasMode() throws Exception {
        Path d = dir.resolve("crash");
        TexasGraph g = new TexasGraph(900, 11);
        try (Store s = Store.create(d, 8192, opts(16))) {
            g.build(s);
        }
        try (dev.quickstore.testkit.ChildJvm.Running child = dev.quickstore.testkit.ChildJvm.main(TexasCrashChild.class)
                .workDir(dir)
                .jvmArgs("-ea", "-Xmx256m")
                .args(d.toString())
                .timeout(Duration.ofSeconds(300))
                .start()) {
            String l1 = child.nextLine(Duration.ofSeconds(120));
            String l2 = l1 == null ? null : child.nextLine(Duration.ofSeconds(120));
            if (!"committed".equals(l1) || l2 == null || !l2.startsWith("uncommitted steals=")) {
                throw new AssertionError("child said " + l1 + " / " + l2 + "; " + child.describe());
            }
            assertTrue(Long.parseLong(l2.substring(19)) > 0, "uncommitted updates were stolen to disk: " + l2);
            child.kill();
            assertEquals(137, child.exitCode(), "killed by SIGKILL (128 + 9)");
        }
        g.applyToModel(TexasCrashChild.COMMITTED_SEED, TexasCrashChild.UPDATES);
        try (Store s = Store.open(d, opts(16))) {
            assertTrue(s.recoveryStats().losersUndone() >= 1, "recovery undid the loser: " + s.recoveryStats());
            check(g, s, "after SIGKILL and recovery");
            assertTrue(s.verify().ok(), s.verify().toString());
        }
        assertOnlyPersistentPointers(d);
    }
}
