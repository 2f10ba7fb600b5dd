package dev.quickstore.core.software;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.ServedStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.testkit.ChildJvm;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Software persistence over a real store ({@code FramesMode.SOFTWARE}): a graph of objects whose references
 * are OIDs is traversed through {@link Swizzler} with a buffer pool far smaller than the graph (so resolution
 * reads pages explicitly and eviction must unswizzle referrers) and with a pool that holds it all (so every
 * reference ends up swizzled in place); software-marked writes are committed through the WAL, and the volume
 * never holds a swizzled pointer, also after a SIGKILL with a stolen uncommitted transaction.
 */
class SwizzlingStoreTest {
    static final int N = 1200;
    static final int SIZE = 512; // about 15 objects per 8 KiB page: 80 pages of objects
    static final int TAG = 0x5a5a_0e01;
    static final int VALUE = 4;
    static final int NEXT = 8;
    static final int OTHER = 16;
    static final int SMALL_POOL = 8;

    @TempDir
    Path dir;

    static StoreOptions software(int poolPages) {
        return StoreOptions.builder()
                .frames(FramesMode.SOFTWARE)
                .bufferPoolPages(poolPages)
                .build();
    }

    /** The graph: object i's next is object (i + 1) % N, its other is object (i * 7 + 3) % N. */
    static long[] build(Path db) throws Exception {
        long[] refs = new long[N];
        long[] oids = new long[N];
        try (Store s = Store.create(db, 8192, software(64))) {
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < N; i++) {
                    refs[i] = tx.allocate(SIZE, 0, NEXT, OTHER);
                    tx.write(refs[i], 0, ints(TAG, i));
                }
                tx.commit();
            }
            byte[] page = new byte[s.pageSize()];
            for (int i = 0; i < N; i++) {
                long rel = refs[i] - s.arenaBase();
                long pageId = rel / s.pageSize();
                ServedStore.of(s).readCommittedPage(pageId, page);
                int slot = SlottedPage.slotAt(MemorySegment.ofArray(page), (int) (rel % s.pageSize()));
                oids[i] = Oid.of(pageId, slot, TAG);
            }
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < N; i++) {
                    tx.putLong(refs[i], NEXT, oids[(i + 1) % N]);
                    tx.putLong(refs[i], OTHER, oids[(i * 7 + 3) % N]);
                }
                tx.commit();
            }
        }
        return oids;
    }

    static byte[] ints(int a, int b) {
        byte[] out = new byte[8];
        MemorySegment.ofArray(out).set(PageHeader.INT, 0, a);
        MemorySegment.ofArray(out).set(PageHeader.INT, 4, b);
        return out;
    }

    /**
     * Follows next from object 0 for N steps; checks every value (and its other's) against {@code expected}.
     * The current object is re-resolved by OID after the other's dereference, which may have evicted its page.
     */
    static void traverse(Swizzler sw, long[] oids, int[] expected) {
        MemorySegment region = sw.region();
        long cur = oids[0];
        for (int step = 0; step < N; step++) {
            long at = sw.resolve(-1, cur);
            assertEquals(expected[step], region.get(JAVA_INT, at + VALUE), "value of object " + step);
            long other = sw.deref(at + OTHER);
            assertEquals(expected[(step * 7 + 3) % N], region.get(JAVA_INT, other + VALUE), "other of " + step);
            at = sw.resolve(-1, cur);
            long next = sw.deref(at + NEXT);
            cur = sw.frames().oidAt(next);
            assertEquals(oids[(step + 1) % N], cur, "next of object " + step);
        }
    }

    static int[] identity() {
        int[] v = new int[N];
        for (int i = 0; i < N; i++) {
            v[i] = i;
        }
        return v;
    }

    @Test
    void traversalInASmallPoolReadsPagesAndUnswizzlesAtEviction() throws Exception {
        Path db = dir.resolve("db");
        long[] oids = build(db);
        try (Store s = Store.open(db, software(SMALL_POOL))) {
            Swizzler sw = s.swizzler();
            try (Transaction tx = s.begin()) {
                traverse(sw, oids, identity());
                tx.commit();
            }
            assertTrue(sw.pageReads() > 80, "every page of objects read at least once: " + sw.pageReads());
            assertTrue(sw.swizzles() > 0, "references swizzled in place");
            assertTrue(sw.frames().unswizzledAtEviction() > 0, "evictions unswizzled references into their pages");
        }
        assertVolumeHoldsOnlyOids(db, oids);
    }

    @Test
    void aPoolThatHoldsTheGraphEndsWithEveryReferenceSwizzledAndReadsNothingTheSecondTime() throws Exception {
        Path db = dir.resolve("db");
        long[] oids = build(db);
        try (Store s = Store.open(db, software(256))) {
            Swizzler sw = s.swizzler();
            try (Transaction tx = s.begin()) {
                traverse(sw, oids, identity());
                long reads = sw.pageReads();
                long swizzles = sw.swizzles();
                MemorySegment region = sw.region();
                for (long oid : oids) {
                    long at = sw.frames().lookup(oid);
                    assertNotEquals(SwizzlingFrames.NOT_RESIDENT, at);
                    long next = region.get(JAVA_LONG, at + NEXT);
                    long other = region.get(JAVA_LONG, at + OTHER);
                    assertTrue(!Oid.isOid(next) && next != 0, "next swizzled in place: " + Oid.toString(next));
                    assertTrue(!Oid.isOid(other) && other != 0, "other swizzled in place");
                }
                traverse(sw, oids, identity());
                assertEquals(reads, sw.pageReads(), "second traversal: no page read");
                assertEquals(swizzles, sw.swizzles(), "second traversal: every dereference took the in-line path");
                assertEquals(0, sw.frames().unswizzledAtEviction());
                tx.commit();
            }
        }
        assertVolumeHoldsOnlyOids(db, oids);
    }

    /** Writes marked in software are committed through the WAL; a pre-image in disk form makes abort exact. */
    @Test
    void softwareMarkedWritesCommitAndAbortWithoutSwizzledPointersInTheLog() throws Exception {
        Path db = dir.resolve("db");
        long[] oids = build(db);
        int[] tripled = new int[N];
        try (Store s = Store.open(db, software(SMALL_POOL))) {
            Swizzler sw = s.swizzler();
            MemorySegment region = sw.region();
            try (Transaction tx = s.begin()) {
                traverse(sw, oids, identity()); // swizzles references in pages later written
                for (int i = 0; i < N; i++) {
                    long at = sw.resolve(-1, oids[i]);
                    sw.markWrite(at + VALUE);
                    at = sw.resolve(-1, oids[i]); // markWrite does not read, but stay honest
                    region.set(JAVA_INT, at + VALUE, i * 3 + 1);
                    tripled[i] = i * 3 + 1;
                }
                tx.commit(); // many pages were stolen on the way (pool of 8): logged in disk form
            }
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < N; i += 2) {
                    long at = sw.resolve(-1, oids[i]);
                    sw.markWrite(at + VALUE);
                    region.set(JAVA_INT, sw.resolve(-1, oids[i]) + VALUE, -1);
                }
                tx.abort();
            }
            try (Transaction tx = s.begin()) {
                traverse(sw, oids, tripled);
                tx.commit();
            }
            assertThrows(StoreException.class, () -> sw.markWrite(sw.resolve(-1, oids[5]) + VALUE));
        }
        try (Store s = Store.open(db, software(SMALL_POOL));
                Transaction tx = s.begin()) {
            traverse(s.swizzler(), oids, tripled);
            tx.commit();
        }
        assertVolumeHoldsOnlyOids(db, oids);
    }

    /**
     * The clock sees dereferences: an out-of-line resolution (an OID-table hit included) sets its page's frame
     * reference bit, which the clock's hand reads and clears once ({@code ClockReplacerTest} gives it its second
     * chance); an eviction clears it.
     */
    @Test
    void aResolutionSetsItsFramesReferenceBitForTheClock() throws Exception {
        Path db = dir.resolve("db");
        long[] oids = build(db);
        try (Store s = Store.open(db, software(SMALL_POOL));
                Transaction tx = s.begin()) {
            Swizzler sw = s.swizzler();
            long page = Oid.page(oids[0]);
            sw.resolve(-1, oids[0]); // a page read
            assertTrue(sw.frames().takeReference(page), "set by the resolution that read the page");
            assertFalse(sw.frames().takeReference(page), "read and cleared by the hand");
            sw.resolve(-1, oids[1]); // an OID-table hit on the same page
            assertTrue(sw.frames().takeReference(page), "set by a table hit too");
            sw.resolve(-1, oids[1]);
            for (int i = 0; i < N && sw.frames().frameOffset(page) != SwizzlingFrames.NOT_RESIDENT; i++) {
                sw.resolve(-1, oids[i]); // read other pages until this one is evicted
            }
            assertFalse(sw.frames().takeReference(page), "an evicted page has no reference bit");
            tx.commit();
        }
    }

    @Test
    void aDanglingOidIsRefusedNamingPageAndSlot() throws Exception {
        Path db = dir.resolve("db");
        long[] oids = build(db);
        try (Store s = Store.open(db, software(SMALL_POOL));
                Transaction tx = s.begin()) {
            long wrongType = Oid.of(Oid.page(oids[0]), Oid.slot(oids[0]), TAG + 2);
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> s.swizzler().resolve(-1, wrongType));
            assertTrue(e.getMessage().contains("page " + Oid.page(oids[0])), e.getMessage());
            long noSlot = Oid.of(Oid.page(oids[0]), 4000, TAG);
            e = assertThrows(IllegalArgumentException.class, () -> s.swizzler().resolve(-1, noSlot));
            assertTrue(e.getMessage().contains("slots"), e.getMessage());
            tx.commit();
        }
    }

    /**
     * The volume records the mode (format version 3: references are OIDs): a software store is never opened by a
     * hardware mode and a hardware store never by software mode; the error names the file and both modes, and the
     * refused open releases the store.
     */
    @Test
    void aVolumeOpensOnlyInTheModeOfItsReferences() throws Exception {
        Path soft = dir.resolve("soft");
        Store.create(soft, 8192, software(64)).close();
        assertEquals(3, dev.quickstore.core.volume.VolumeFile.readHeader(soft).formatVersion());
        assertEquals(
                dev.quickstore.core.volume.VolumeHeader.POINTERS_OID,
                dev.quickstore.core.volume.VolumeFile.readHeader(soft).pointerFormat());
        for (FramesMode hardware : new FramesMode[] {FramesMode.MAPPED, FramesMode.EXPLICIT}) {
            StoreOptions o = StoreOptions.builder().frames(hardware).build();
            var e = assertThrows(dev.quickstore.core.error.StoreFormatException.class, () -> Store.open(soft, o));
            assertTrue(e.getMessage().contains("volume.qs"), e.getMessage());
            assertTrue(e.getMessage().contains("FramesMode." + hardware), e.getMessage());
            assertTrue(e.getMessage().contains("a FramesMode.SOFTWARE store"), e.getMessage());
        }
        Path hard = dir.resolve("hard");
        Store.create(
                        hard,
                        8192,
                        StoreOptions.builder().frames(FramesMode.EXPLICIT).build())
                .close();
        assertEquals(2, dev.quickstore.core.volume.VolumeFile.readHeader(hard).formatVersion());
        var e = assertThrows(
                dev.quickstore.core.error.StoreFormatException.class, () -> Store.open(hard, software(64)));
        assertTrue(e.getMessage().contains("expected 2 (FramesMode.SOFTWARE"), e.getMessage());
        assertTrue(e.getMessage().contains("open it with FramesMode.MAPPED or EXPLICIT"), e.getMessage());
        try (Store again = Store.open(soft, software(64))) { // the refused opens released the store's lock
            assertThrows(StoreException.class, again::view);
        }
    }

    /** Reads every page as stored (a fresh pool: nothing swizzled yet) and checks each reference word. */
    static void assertVolumeHoldsOnlyOids(Path db, long[] oids) throws Exception {
        try (Store s = Store.open(db, software(SMALL_POOL))) {
            byte[] page = new byte[s.pageSize()];
            int refs = 0;
            for (long i = 0; i < N; i++) {
                long oid = oids[(int) i];
                ServedStore.of(s).readCommittedPage(Oid.page(oid), page);
                MemorySegment p = MemorySegment.ofArray(page);
                int off = SlottedPage.slotOffset(p, Oid.slot(oid));
                assertEquals(
                        oids[(int) ((i + 1) % N)], p.get(PageHeader.LONG, off + NEXT), "next of " + i + " on disk");
                assertEquals(oids[(int) ((i * 7 + 3) % N)], p.get(PageHeader.LONG, off + OTHER), "other of " + i);
                refs += 2;
            }
            assertEquals(2 * N, refs);
            assertTrue(s.verify().ok(), "store verifies");
        }
    }

    // ---- crash: a SIGKILL after a commit, during an uncommitted transaction whose pages were stolen ----

    public static final class CrashChild {
        public static void main(String[] args) throws Exception {
            Path db = Path.of(args[0]);
            long[] oids = build(db);
            Store s = Store.open(db, software(SMALL_POOL));
            Swizzler sw = s.swizzler();
            try (Transaction tx = s.begin()) {
                traverse(sw, oids, identity());
                for (int i = 0; i < N; i++) {
                    sw.markWrite(sw.resolve(-1, oids[i]) + VALUE);
                    sw.region().set(JAVA_INT, sw.resolve(-1, oids[i]) + VALUE, i + 100);
                }
                tx.commit();
            }
            System.out.println("committed");
            System.out.flush();
            Transaction tx = s.begin();
            int[] expected = new int[N];
            for (int i = 0; i < N; i++) {
                expected[i] = i + 100;
            }
            traverse(sw, oids, expected);
            for (int i = 0; i < N; i++) {
                sw.markWrite(sw.resolve(-1, oids[i]) + VALUE);
                sw.region().set(JAVA_INT, sw.resolve(-1, oids[i]) + VALUE, -7);
            }
            System.out.println("uncommitted");
            System.out.flush();
            while (true) {
                java.util.concurrent.locks.LockSupport.park(tx); // until SIGKILL
            }
        }
    }

    @Test
    void recoveryAfterSigkillKeepsTheCommitAndUndoesTheStolenUncommittedWrites() throws Exception {
        Path db = dir.resolve("db");
        try (ChildJvm.Running child = ChildJvm.main(CrashChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args(db.toString())
                .start()) {
            String l1 = child.nextLine(Duration.ofSeconds(120));
            String l2 = l1 == null ? null : child.nextLine(Duration.ofSeconds(120));
            if (!"committed".equals(l1) || !"uncommitted".equals(l2)) {
                fail("child said " + l1 + " / " + l2 + "; " + child.describe());
            }
            child.kill();
            assertEquals(137, child.exitCode(), "killed by SIGKILL (128 + 9)");
        }
        assertTrue(Files.exists(db));
        long[] oids = new long[N];
        try (Store s = Store.open(db, software(256))) {
            // the OIDs as the child built them: object 0 is the first object of the first object page
            long first = firstObjectOid(s);
            Swizzler sw = s.swizzler();
            try (Transaction tx = s.begin()) {
                long cur = first;
                for (int i = 0; i < N; i++) {
                    oids[i] = cur;
                    cur = sw.frames().oidAt(sw.deref(sw.resolve(-1, cur) + NEXT));
                }
                assertEquals(first, cur, "the next chain is a cycle of N objects");
                int[] expected = new int[N];
                for (int i = 0; i < N; i++) {
                    expected[i] = i + 100;
                }
                traverse(sw, oids, expected);
                tx.commit();
            }
        }
        assertVolumeHoldsOnlyOids(db, oids);
    }

    /** The object with value 0: slot 0 of the first slotted page holding objects of the test's tag. */
    static long firstObjectOid(Store s) {
        byte[] page = new byte[s.pageSize()];
        for (long p = 1; ; p++) {
            ServedStore.of(s).readCommittedPage(p, page);
            MemorySegment m = MemorySegment.ofArray(page);
            if (PageHeader.type(m) == PageHeader.SLOTTED && SlottedPage.slotCount(m) > 0) {
                int off = SlottedPage.slotOffset(m, 0);
                if (m.get(PageHeader.INT, off) == TAG && m.get(PageHeader.INT, off + VALUE) == 100) {
                    return Oid.of(p, 0, TAG);
                }
            }
        }
    }
}
