package dev.quickstore.core;

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
    private static final Map<Long, byte[]> NO_LARGE = Map.of();

    @TempDir
    Path dir;

    /** What one committed transaction of {@code n} allocations did: pages allocated, made new, pre-image bytes. */
    private record Allocation(long allocated, long madeNew, long copied) {
        static Allocation commit(Store s, SplittableRandom rnd, int n, Map<Long, byte[]> model) {
            FaultCounters before = s.faultCounters();
            long records = s.txns.newPageRecords();
            try (Transaction tx = s.begin()) {
                NewPagesTest.allocate(tx, rnd, n, model);
                tx.commit();
            }
            FaultCounters after = s.faultCounters();
            return new Allocation(
                    s.txns.newPageRecords() - records,
                    after.newPages() - before.newPages(),
                    after.preimageBytes() - before.preimageBytes());
        }
    }

    private static void delete(Store s, List<Long> refs, Map<Long, byte[]> model) {
        try (Transaction tx = s.begin()) {
            for (long ref : refs) {
                tx.delete(ref);
                model.remove(ref);
            }
            tx.commit();
        }
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
            // 1. a stream of objects on fresh pages; only the pages changed without being allocated (the space
            // map's) copy their pre-images
            Allocation fresh = Allocation.commit(s, rnd, 1500, model);
            assertTrue(fresh.allocated() >= 40, "pages allocated: " + fresh);
            assertTrue(fresh.madeNew() >= fresh.allocated(), "every allocated page made new: " + fresh);
            assertTrue(fresh.copied() <= 4L * PAGE, "pre-image bytes copied: " + fresh);
            NewPagesTest.check(s, base, model, NO_LARGE, "after the fresh pages");

            // 2. an aborted allocation: its pages become free again, the committed objects stay
            try (Transaction tx = s.begin()) {
                NewPagesTest.allocate(tx, rnd, 600, new HashMap<>());
                tx.abort();
            }
            NewPagesTest.check(s, base, model, NO_LARGE, "after the abort");

            // 3. free three quarters (whole pages become free) and allocate on them again while their committed
            // images are not written back yet (disk-dirty): those frames keep their images as pre-images (zeros
            // written back in their place would be the page with an LSN gone backwards), so they are not made new;
            // the pages the abort freed were never disk-dirty and are
            List<Long> refs = new ArrayList<>(model.keySet());
            refs.sort(null);
            delete(s, refs.subList(0, refs.size() * 3 / 4), model);
            Allocation diskDirty = Allocation.commit(s, rnd, 300, model);
            assertTrue(
                    diskDirty.allocated() >= 8 && diskDirty.madeNew() < diskDirty.allocated() / 2,
                    "disk-dirty pages made new: " + diskDirty);
            assertTrue(
                    diskDirty.copied() >= (diskDirty.allocated() - diskDirty.madeNew()) * PAGE,
                    "the disk-dirty ones' pre-images copied: " + diskDirty);
            NewPagesTest.check(s, base, model, NO_LARGE, "after the disk-dirty reuse");

            // 4. once written back (a checkpoint), freed pages are resident, clean and made new: nothing copied
            s.checkpoint();
            delete(s, refs.subList(refs.size() * 3 / 4, refs.size() * 7 / 8), model);
            s.checkpoint();
            Allocation reused = Allocation.commit(s, rnd, 700, model);
            assertTrue(reused.allocated() >= 15, "freed pages allocated again: " + reused);
            assertTrue(reused.madeNew() >= reused.allocated(), "made new: " + reused);
            assertTrue(reused.copied() <= 8L * PAGE, "pre-image bytes copied: " + reused);
            NewPagesTest.check(s, base, model, NO_LARGE, "after the reuse");
        }
        try (Store s = Store.open(db, opts)) {
            NewPagesTest.check(s, base, model, NO_LARGE, "reopened");
            assertEquals(0, s.recoveryStats().losersUndone());
        }
    }
}
