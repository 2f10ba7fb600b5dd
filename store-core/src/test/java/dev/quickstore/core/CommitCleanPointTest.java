package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.mmu.KernelTracking;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Commit diffs each page against the pre-image it took over at the clean point (store-native's {@code
 * qs_mark_clean_list_detach}, issue #20), in place, and releases it only after the page's record was appended. A
 * store that races with commit after the clean point ({@link MappedFrames#afterCleanPointForTest}: the view is
 * closed then, so the race is a store through the alias, whose {@code markDirty} captures a new pre-image exactly
 * as a write fault would, starting the next dirty period) belongs to the next transaction: it must
 * not be logged by this one, and this one's changes must all be logged (were the taken-over pre-image released
 * early, the racing fault would reuse its slot for the page's clean-point image and the diff would come out
 * empty). Checked against a model after a power cut ({@link FaultInjectingFileIO}) and recovery, which see only
 * the log. Under kernel write tracking too, where commit copies each page before its diff and keeps the copy as the
 * frame's twin (a racing store is then found by the next transaction's collect).
 */
@ExtendWith(SeedExtension.class)
class CommitCleanPointTest {
    private static final Path DIR = Path.of("/mem/db");
    /** A pool larger than the data and no checkpoint: committed pages reach the volume only through recovery. */
    private static final StoreOptions OPTS = new StoreOptions(2048, 1 << 20, 1L << 30);

    /** {@link #OPTS} with write detection {@code d}; kernel tracking only where the kernel allows it. */
    private static StoreOptions opts(WriteDetection d) {
        if (d == WriteDetection.KERNEL_TRACKING) {
            String why = KernelTracking.unavailableReason();
            Assumptions.assumeTrue(why == null, () -> "kernel write tracking: " + why);
        }
        return OPTS.withWriteDetection(d);
    }

    private static final int OBJECT = 3000; // two objects per 8 KiB page
    private static final int WORDS = 4; // words 1..4 of each object are the model's

    /** A store to word {@code off} of object {@code ref} after the clean point: a new pre-image, then the bytes. */
    private static void race(Store s, MappedFrames frames, long ref, int off, long v) {
        long at = ref - s.arenaBase() + off;
        long page = at / frames.pageSize();
        frames.markDirty(page);
        frames.resident(page).set(PageHeader.LONG, at % frames.pageSize(), v);
    }

    static long[] allocate(Store s, int n) {
        long[] refs = new long[n];
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < n; i++) {
                refs[i] = tx.allocate(OBJECT);
            }
            tx.commit();
        }
        return refs;
    }

    private static void check(Store s, long[] refs, long shift, long[][] model, String context) {
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < refs.length; i++) {
                for (int w = 0; w < WORDS; w++) {
                    assertEquals(
                            model[i][w],
                            tx.getLong(refs[i] + shift, 8 * (w + 1)),
                            context + ": object " + i + " word " + (w + 1));
                }
            }
            tx.commit();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WriteDetection.class,
            names = {"PAGE_PROTECTION", "KERNEL_TRACKING"})
    void aStoreRacingWithCommitIsLoggedByTheNextTransactionOnly(WriteDetection d) throws Exception {
        StoreOptions o = opts(d);
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store.create(fs, DIR, 8192, o).close();
        Store store = openMapped(fs, o);
        long ref = allocate(store, 1)[0];
        MappedFrames frames = store.mappedFramesForTest();
        boolean[] raced = {false};
        long redo0;
        try (Transaction tx = store.begin()) {
            MappedStoreTest.put(store, ref, 8, 111); // a plain store: the page's only change
            frames.afterCleanPointForTest(() -> {
                race(store, frames, ref, 16, 222); // after the clean point: a new pre-image, then the store
                raced[0] = true;
            });
            redo0 = store.txns.redoRecords();
            tx.commit();
            frames.afterCleanPointForTest(null);
        }
        assertTrue(raced[0], "the store raced with commit");
        assertEquals(1, store.txns.redoRecords() - redo0, "the committed change was logged");
        assertEquals(222, MappedStoreTest.get(store, ref, 16), "the racing store is in the page");
        try (Transaction tx = store.begin()) {
            tx.abort(); // the racing store's transaction: undone
        }
        assertEquals(0, MappedStoreTest.get(store, ref, 16), "abort restores the image at the clean point");
        assertEquals(111, MappedStoreTest.get(store, ref, 8), "the committed change stays");
        long base = store.arenaBase();
        fs.crash(new SplittableRandom(1)); // never closed: only the log holds the commits
        try (Store s = Store.open(fs, DIR, o)) {
            long shift = s.arenaBase() - base;
            try (Transaction tx = s.begin()) {
                assertEquals(111, tx.getLong(ref + shift, 8), "the commit was logged whole");
                assertEquals(0, tx.getLong(ref + shift, 16), "the racing store was not logged by that commit");
                tx.commit();
            }
        }
        closeCrashed(store);
    }

    /** Releases a store whose files died with a power cut (its arena would be in later tests' way). */
    static void closeCrashed(Store s) {
        try {
            s.close();
        } catch (java.io.IOException e) {
            // the checkpoint of close fails on the dead files; the arena is released all the same
        }
    }

    /** Opens the store at its preferred base: commit hands pre-images over only with identity placement. */
    private static Store openMapped(FaultInjectingFileIO fs, StoreOptions o) throws java.io.IOException {
        Store s = Store.open(fs, DIR, o);
        assertTrue(
                s.mappedFramesForTest().detachLimit() > 0,
                "identity placement (is a store of an earlier test still mapped at the preferred base?)");
        return s;
    }

    /**
     * Many small transactions over 300 objects (150 pages): some write a few objects, some more than a commit batch
     * of pages with gaps between them, some abort; during some commits a store races with the clean point (it joins
     * the next transaction, committed or aborted with it). Then a power cut, recovery and the model.
     */
    @ParameterizedTest
    @EnumSource(
            value = WriteDetection.class,
            names = {"PAGE_PROTECTION", "KERNEL_TRACKING"})
    void manyTransactionsWithRacingStoresMatchTheModelAfterRecovery(WriteDetection d, Seed seed) throws Exception {
        StoreOptions o = opts(d);
        SplittableRandom rnd = new SplittableRandom(seed.value());
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store.create(fs, DIR, 8192, o).close();
        Store store = openMapped(fs, o);
        long[] refs = allocate(store, 300);
        long[][] model = new long[refs.length][WORDS];
        MappedFrames frames = store.mappedFramesForTest();
        List<long[]> racing = new ArrayList<>(); // {object, word, value} of the stores raced into the running txn
        for (int t = 0; t < 120; t++) {
            boolean abort = rnd.nextInt(6) == 0;
            boolean big = rnd.nextInt(8) == 0;
            List<long[]> next = new ArrayList<>();
            try (Transaction tx = store.begin()) {
                List<long[]> writes = new ArrayList<>(racing);
                int n = big ? 100 + rnd.nextInt(150) : 1 + rnd.nextInt(8);
                for (int k = 0; k < n; k++) {
                    int i = big ? rnd.nextInt(refs.length) : rnd.nextInt(40) * 7 % refs.length;
                    int w = rnd.nextInt(WORDS);
                    long v = rnd.nextLong();
                    if (rnd.nextBoolean()) {
                        MappedStoreTest.put(store, refs[i], 8 * (w + 1), v); // page protection catches it
                    } else {
                        tx.putLong(refs[i], 8 * (w + 1), v);
                    }
                    writes.add(new long[] {i, w, v});
                }
                if (abort) {
                    tx.abort();
                } else {
                    if (rnd.nextInt(3) == 0) {
                        int i = rnd.nextInt(refs.length);
                        int w = rnd.nextInt(WORDS);
                        long v = rnd.nextLong();
                        frames.afterCleanPointForTest(() -> {
                            race(store, frames, refs[i], 8 * (w + 1), v);
                            next.add(new long[] {i, w, v});
                        });
                    }
                    tx.commit();
                    frames.afterCleanPointForTest(null);
                    for (long[] x : writes) {
                        model[(int) x[0]][(int) x[1]] = x[2];
                    }
                }
            }
            racing = next;
        }
        try (Transaction tx = store.begin()) { // the last racing store commits
            tx.commit();
        }
        for (long[] x : racing) {
            model[(int) x[0]][(int) x[1]] = x[2];
        }
        check(store, refs, 0, model, "before the power cut");
        long base = store.arenaBase();
        fs.crash(rnd);
        try (Store s = Store.open(fs, DIR, o)) {
            check(s, refs, s.arenaBase() - base, model, "after recovery");
        }
        closeCrashed(store);
    }
}
