package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.space.LargeObjects;
import dev.quickstore.core.volume.VolumeFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relocation with pointer translation at fault time: a linked pointer graph over many pages, built
 * through the Transaction API with pointer offsets and traversed through {@link Store#view()} (every
 * pointer followed was translated by the C fault path, or by the store's own swizzling install), gives
 * identical results with 0 %, 50 % and 100 % of the pages relocated; under QS-CR the committed volume
 * equals an unrelocated run's byte for byte; a taken preferred base relocates instead of failing.
 */
class RelocationTest {
    static final int NODES = 600; // 1000-byte nodes, 8 per 8 KiB page: 75 data pages
    static final int NODE = 1000;
    static final int NEXT = 8;
    static final int OTHER = 16;
    static final int VALUE = 24;

    @TempDir
    Path dir;

    static StoreOptions opts(double fraction) {
        return new StoreOptions(16, 1 << 18, 1 << 22)
                .withFrames(FramesMode.MAPPED)
                .withArenaBytes(1L << 30)
                .withRelocation(Relocation.CONTINUAL, fraction);
    }

    /** A chain through every node (by NEXT) plus a scattered OTHER pointer; root "head", index "byValue". */
    static void build(Store s) {
        try (Transaction tx = s.begin()) {
            long[] n = new long[NODES];
            for (int i = 0; i < NODES; i++) {
                n[i] = tx.allocate(NODE, 0, NEXT, OTHER);
                tx.putLong(n[i], VALUE, i * 7L);
            }
            Index idx = tx.createIndex("byValue", KeyType.LONG, 8, true);
            for (int i = 0; i < NODES; i++) {
                tx.putLong(n[i], NEXT, i + 1 < NODES ? n[i + 1] : 0);
                tx.putLong(n[i], OTHER, n[(i * 37 + 11) % NODES]);
                idx.insert((long) i, n[i]);
            }
            tx.setRoot("head", n[0]);
            tx.commit();
        }
    }

    /** Walks the chain through the view: (value, other's value) per node; also updates through the view. */
    static List<Long> traverse(Store s, boolean update) {
        List<Long> out = new ArrayList<>();
        try (Transaction tx = s.begin()) {
            long a = tx.root("head");
            long prev = 0;
            while (a != 0) {
                long v = MappedStoreTest.get(s, a, VALUE);
                long o = MappedStoreTest.get(s, a, OTHER);
                out.add(v);
                out.add(MappedStoreTest.get(s, o, VALUE));
                if (update && v % 3 == 0 && prev != 0) {
                    MappedStoreTest.put(s, a, OTHER, prev); // a runtime pointer stored by the application
                    MappedStoreTest.put(s, a, VALUE, v + 1);
                }
                prev = a;
                a = MappedStoreTest.get(s, a, NEXT);
            }
            Index idx = tx.index("byValue");
            for (long k = 0; k < NODES; k += 53) {
                long[] r = idx.lookup(k);
                out.add(r.length == 1 ? tx.getLong(r[0], VALUE) : -1);
            }
            s.checkPending();
            tx.commit();
        }
        return out;
    }

    List<Long> runAt(double fraction, Path d) throws Exception {
        try (Store s = Store.create(d, 8192, opts(0))) {
            build(s);
        }
        List<Long> r = new ArrayList<>();
        try (Store s = Store.open(d, opts(fraction))) {
            if (fraction > 0) {
                assertTrue(s.relocatedPages() > 0, "pages relocated at " + fraction);
            }
            r.addAll(traverse(s, true));
            r.addAll(traverse(s, false));
        }
        try (Store s = Store.open(d, opts(0))) { // the committed updates, read without relocation
            r.addAll(traverse(s, false));
            assertTrue(s.verify().ok(), "verify");
        }
        return r;
    }

    @Test
    void traversalIsIdenticalWithNoneHalfAndAllPagesRelocated() throws Exception {
        List<Long> none = runAt(0, dir.resolve("r0"));
        assertEquals(2 * NODES * 3 + 3 * 12, none.size());
        assertEquals(none, runAt(0.5, dir.resolve("r50")));
        assertEquals(none, runAt(1.0, dir.resolve("r100")));
    }

    @Test
    void continualRelocationCommitsTheOriginalAddresses() throws Exception {
        runAt(0, dir.resolve("plain"));
        runAt(1.0, dir.resolve("moved"));
        byte[] a = Files.readAllBytes(dir.resolve("plain").resolve(VolumeFile.VOLUME_FILE));
        byte[] b = Files.readAllBytes(dir.resolve("moved").resolve(VolumeFile.VOLUME_FILE));
        assertEquals(a.length, b.length);
        // Page 0 (volume header) carries the store's identity and creation time. Every other page must match
        // except its checksum and page LSN: LSNs are log positions, and the relocated open starts with an
        // empty pool (the arena is remapped), so the traversal steals other pages (UPDATE records) than the
        // unrelocated run and the log layout differs. Every data, pointer and index byte must be equal.
        StringBuilder diffs = new StringBuilder();
        for (int i = 8192; i < a.length && diffs.length() < 400; i++) {
            int off = i % 8192;
            if (a[i] != b[i] && off >= 4 && (off < PageHeader.LSN || off >= PageHeader.LSN + 8)) {
                diffs.append(" page ").append(i / 8192).append('+').append(off);
            }
        }
        assertEquals("", diffs.toString(), "QS-CR: the disk keeps the unrelocated bytes");
    }

    @Test
    void takenPreferredBaseRelocatesEverything() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        List<Long> expected;
        try (Store s = Store.create(b, 8192, opts(0))) {
            build(s);
        }
        try (Store s = Store.open(b, opts(0))) {
            expected = traverse(s, false);
        }
        try (Store first = Store.create(a, 8192, opts(0))) {
            try (Store s = Store.open(b, opts(0))) { // same preferred base, taken by the first store
                assertNotEquals(first.arenaBase(), s.arenaBase());
                assertTrue(s.mappedFrames().movedArena());
                assertEquals(expected, traverse(s, false));
                assertTrue(s.mappedFrames().arena().counters().readFaults() > 0, "pages faulted in and translated");
            }
        }
    }

    /**
     * A multi-page large object is read through the view as one contiguous run (the object API's blob readers
     * step from page to page by address), so relocation must move its pages together: with half the pages
     * relocated every large object still reads back through the view as written.
     */
    @Test
    void largeObjectsStayContiguousInTheViewWhenHalfThePagesAreRelocated() throws Exception {
        int objects = 12;
        int pages = 6;
        int ps = 8192;
        long size = (ps - LargeObjects.HEAD_DATA) + (long) (pages - 1) * (ps - PageHeader.SIZE);
        Path d = dir.resolve("large");
        try (Store s = Store.create(d, ps, opts(0));
                Transaction tx = s.begin()) {
            for (int o = 0; o < objects; o++) {
                long ref = tx.allocateLarge(size, 0);
                byte[] bytes = new byte[(int) size];
                for (int k = 0; k < bytes.length; k++) {
                    bytes[k] = (byte) (k * 31 + o * 7 + k / 4099);
                }
                tx.writeLarge(ref, 0, bytes, 0, bytes.length);
                tx.setRoot("lo" + o, ref);
            }
            tx.commit();
        }
        try (Store s = Store.open(d, opts(0.5));
                Transaction tx = s.begin()) {
            assertTrue(s.relocatedPages() > 0, "pages relocated");
            java.lang.foreign.MemorySegment v = s.view();
            int wrong = 0;
            for (int o = 0; o < objects; o++) {
                long head = tx.root("lo" + o) - LargeObjects.HEAD_DATA - s.arenaBase(); // view offset of the run
                long k = 0;
                for (int p = 0; p < pages; p++) {
                    long from = head + (long) p * ps + (p == 0 ? LargeObjects.HEAD_DATA : PageHeader.SIZE);
                    long to = head + (long) (p + 1) * ps;
                    for (long a = from; a < to; a++, k++) {
                        if (v.get(java.lang.foreign.ValueLayout.JAVA_BYTE, a) != (byte) (k * 31 + o * 7 + k / 4099)) {
                            wrong++;
                        }
                    }
                }
                assertEquals(size, k);
            }
            assertEquals(0, wrong, "bytes of large objects read through the view at their contiguous addresses");
            tx.commit();
        }
    }
}
