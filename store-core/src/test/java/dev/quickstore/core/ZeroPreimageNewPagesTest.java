package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.FaultCounters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pages a transaction allocates are made new against the arena's shared zero pre-image ({@code
 * PageFrames.makeNew}, {@code qs_make_new}): no pre-image bytes are copied for them, whether they were not resident
 * (fresh pages at the volume's end) or resident and clean (pages freed by an earlier transaction and written back),
 * and the free pages after a new one are made new with it; a freed page whose committed image is not written back
 * yet keeps that image as its pre-image instead. What the transactions committed is read back before and after
 * reopening, an aborted allocation leaves the committed objects as they were, and the store verifies. Under page
 * protection and card marking (both take new pages this way).
 */
class ZeroPreimageNewPagesTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;

    private static byte[] bytes(SplittableRandom rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private static void allocate(Transaction tx, SplittableRandom rnd, int n, Map<Long, byte[]> into) {
        long prev = 0;
        for (int i = 0; i < n; i++) {
            byte[] b = bytes(rnd, 24 + rnd.nextInt(400));
            long ref = tx.allocate(b.length, prev);
            tx.write(ref, 0, b);
            into.put(ref, b);
            prev = ref;
        }
    }

    /** Reads back every object of the model, whose references are as mapped at {@code base}. */
    private static void check(Store s, long base, Map<Long, byte[]> model, String context) {
        long shift = s.arenaBase() - base;
        try (Transaction tx = s.begin()) {
            model.forEach(
                    (ref, b) -> assertArrayEquals(b, tx.read(ref + shift), context + ": 0x" + Long.toHexString(ref)));
        }
        assertTrue(s.verify().ok(), context + ": verify " + s.verify());
    }

    @ParameterizedTest
    @EnumSource(
            value = WriteDetection.class,
            names = {"PAGE_PROTECTION", "CARD_MARKING"})
    void newPagesCopyNoPreImageAndHoldWhatWasCommitted(WriteDetection detection) throws Exception {
        StoreOptions opts = new StoreOptions(2048, 1 << 20, 1L << 30)
                .withFrames(FramesMode.MAPPED)
                .withWriteDetection(detection);
        SplittableRandom rnd = new SplittableRandom(20261129L);
        Map<Long, byte[]> model = new HashMap<>();
        Path db = dir.resolve("db");
        long base;
        try (Store s = Store.create(db, PAGE, opts)) {
            base = s.arenaBase();
            // 1. a stream of objects on fresh pages
            FaultCounters c0 = s.faultCounters();
            long newRecords0 = s.txns.newPageRecords();
            try (Transaction tx = s.begin()) {
                allocate(tx, rnd, 1500, model);
                tx.commit();
            }
            FaultCounters c1 = s.faultCounters();
            long allocated = s.txns.newPageRecords() - newRecords0;
            long madeNew = c1.newPages() - c0.newPages();
            long copied = c1.preimageBytes() - c0.preimageBytes();
            assertTrue(allocated >= 40, "pages allocated: " + allocated);
            assertTrue(madeNew >= allocated, "every allocated page made new (" + madeNew + " of " + allocated + ")");
            // the pages the transaction changed without allocating them (the space map's) copy their pre-images
            assertTrue(copied <= 4L * PAGE, "pre-image bytes copied: " + copied + " for " + allocated + " new pages");
            check(s, base, model, "after the fresh pages");

            // 2. an aborted allocation: its pages become free again, the committed objects stay
            try (Transaction tx = s.begin()) {
                allocate(tx, rnd, 600, new HashMap<>());
                tx.abort();
            }
            check(s, base, model, "after the abort");

            // 3. free three quarters (whole pages become free, resident and clean after the commit) ...
            List<Long> refs = new ArrayList<>(model.keySet());
            refs.sort(null);
            try (Transaction tx = s.begin()) {
                for (long ref : refs.subList(0, refs.size() * 3 / 4)) {
                    tx.delete(ref);
                    model.remove(ref);
                }
                tx.commit();
            }
            // ... and allocate on them again while their committed images are not written back yet (disk-dirty):
            // those frames keep their images as pre-images (zeros written back in their place would be the page
            // with an LSN gone backwards), so they are not made new
            FaultCounters c2 = s.faultCounters();
            long newRecords2 = s.txns.newPageRecords();
            try (Transaction tx = s.begin()) {
                allocate(tx, rnd, 300, model);
                tx.commit();
            }
            FaultCounters c3 = s.faultCounters();
            long reused = s.txns.newPageRecords() - newRecords2;
            long notDiskDirty = c3.newPages() - c2.newPages(); // pages the abort freed were never disk-dirty
            assertTrue(
                    reused >= 8 && notDiskDirty < reused / 2,
                    "allocated again: " + reused + ", made new: " + notDiskDirty);
            assertTrue(
                    c3.preimageBytes() - c2.preimageBytes() >= (reused - notDiskDirty) * PAGE,
                    "the disk-dirty ones' pre-images copied: " + (c3.preimageBytes() - c2.preimageBytes()));
            check(s, base, model, "after the disk-dirty reuse");
            // once written back (a checkpoint), the freed pages left are resident, clean and made new: nothing copied
            s.checkpoint();
            try (Transaction tx = s.begin()) {
                for (long ref : refs.subList(refs.size() * 3 / 4, refs.size() * 7 / 8)) {
                    tx.delete(ref);
                    model.remove(ref);
                }
                tx.commit();
            }
            s.checkpoint();
            FaultCounters c4 = s.faultCounters();
            long newRecords4 = s.txns.newPageRecords();
            try (Transaction tx = s.begin()) {
                allocate(tx, rnd, 700, model);
                tx.commit();
            }
            FaultCounters c5 = s.faultCounters();
            reused = s.txns.newPageRecords() - newRecords4;
            assertTrue(reused >= 15, "freed pages allocated again: " + reused);
            assertTrue(c5.newPages() - c4.newPages() >= reused, "made new: " + (c5.newPages() - c4.newPages()));
            assertTrue(
                    c5.preimageBytes() - c4.preimageBytes() <= 8L * PAGE,
                    "pre-image bytes copied: " + (c5.preimageBytes() - c4.preimageBytes()) + " for " + reused
                            + " reused pages");
            check(s, base, model, "after the reuse");
        }
        try (Store s = Store.open(db, opts)) {
            check(s, base, model, "reopened");
            assertEquals(0, s.recoveryStats().losersUndone());
        }
    }
}
