package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.KernelTracking;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kernel write tracking ({@link WriteDetection#KERNEL_TRACKING}, {@code qs_kwp.c}) through the store: a committed
 * page stays writable with a twin, so later transactions store to it without a write fault and commit still logs
 * exactly their changes (checked after a power cut and recovery, which see only the log); a store outside a
 * transaction is undone when the next one begins, which fails naming the page; and with a pool much smaller than
 * the data (twins evicted, written twins kept, dirty pages stolen and written back) nothing is lost. Skipped, saying
 * why, where the kernel or the process cannot use userfaultfd write-protection.
 */
@ExtendWith(SeedExtension.class)
class KernelTrackingTest {
    private static final Path DIR = Path.of("/mem/db");

    @BeforeEach
    void available() {
        String why = KernelTracking.unavailableReason();
        Assumptions.assumeTrue(why == null, () -> "kernel write tracking: " + why);
    }

    private static StoreOptions options(int poolPages) {
        return new StoreOptions(poolPages, 1 << 20, 1L << 30).withWriteDetection(WriteDetection.KERNEL_TRACKING);
    }

    @Test
    void aCommittedPageIsStoredToWithoutAWriteFaultAndItsChangesAreLogged() throws Exception {
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        StoreOptions o = options(2048);
        Store.create(fs, DIR, 8192, o).close();
        Store store = Store.open(fs, DIR, o);
        try {
            rewrites(fs, o, store);
        } finally {
            CommitCleanPointTest.closeCrashed(
                    store); // also when an assertion failed: its arena would be in later tests' way
        }
    }

    private static void rewrites(FaultInjectingFileIO fs, StoreOptions o, Store store) throws Exception {
        assertEquals(WriteDetection.KERNEL_TRACKING, store.writeDetection());
        assertTrue(
                store.mappedFramesForTest().keepsTwins()
                        && store.mappedFramesForTest().detachLimit() > 0,
                "identity placement: commit keeps twins (is a store of an earlier test still mapped?)");
        long ref = CommitCleanPointTest.allocate(store, 1)[0];
        try (Transaction tx = store.begin()) {
            MappedStoreTest.put(store, ref, 8, 1);
            tx.commit();
        }
        long faults = store.faultCounters().writeFaults();
        long redo = store.txns.redoRecords();
        for (int round = 2; round <= 6; round++) {
            try (Transaction tx = store.begin()) {
                MappedStoreTest.put(store, ref, 8, round); // a plain store through the view
                MappedStoreTest.put(store, ref, 16, 100 + round);
                tx.commit();
            }
        }
        assertEquals(faults, store.faultCounters().writeFaults(), "no write fault on a page with a twin");
        assertEquals(5, store.txns.redoRecords() - redo, "each commit logged its page");
        try (Transaction tx = store.begin()) {
            MappedStoreTest.put(store, ref, 24, 77);
            tx.abort();
        }
        assertEquals(0, MappedStoreTest.get(store, ref, 24), "abort put the twin back");
        try (Transaction tx = store.begin()) {
            tx.commit(); // a commit with nothing written logs nothing
        }
        assertEquals(5, store.txns.redoRecords() - redo, "nothing logged for a read-only commit");
        long base = store.arenaBase();
        fs.crash(new SplittableRandom(3)); // never closed: only the log holds the commits
        try (Store s = Store.open(fs, DIR, o);
                Transaction tx = s.begin()) {
            long at = ref + s.arenaBase() - base;
            assertEquals(6, tx.getLong(at, 8), "the last commit was logged");
            assertEquals(106, tx.getLong(at, 16));
            assertEquals(0, tx.getLong(at, 24), "the aborted store was not");
            tx.commit();
        }
    }

    @Test
    void aStoreOutsideATransactionIsUndoneAndTheNextBeginSaysSo(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        try (Store store = Store.create(dir.resolve("db"), 8192, options(256))) {
            long ref = CommitCleanPointTest.allocate(store, 1)[0];
            try (Transaction tx = store.begin()) {
                MappedStoreTest.put(store, ref, 8, 5);
                tx.commit(); // the page now has a twin: stores to it take no fault
            }
            long page = (ref - store.arenaBase()) / 8192;
            MappedStoreTest.put(store, ref, 8, 666); // outside any transaction: lands, as the kernel resolves it
            StoreException e = assertThrows(StoreException.class, store::begin);
            assertTrue(e.getMessage().contains("[" + page + "]"), e.getMessage());
            assertTrue(e.getMessage().contains("outside a transaction"), e.getMessage());
            try (Transaction tx = store.begin()) {
                assertEquals(5, tx.getLong(ref, 8), "the stray store was undone");
                tx.commit();
            }
        }
    }

    /**
     * 400 objects on 200 pages through a pool of 24 frames: seeded random transactions (some abort, some touch many
     * pages) store through the view and the transaction API; the store must show the model after every tenth
     * transaction and after a reopen. (A real file system: the fault path reads the volume itself.)
     */
    @Test
    void aPoolSmallerThanTheDataLosesNothing(Seed seed, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed.value());
        StoreOptions o = options(24);
        Path db = dir.resolve("db");
        long[] refs;
        long[] model;
        long base;
        try (Store store = Store.create(db, 8192, o)) {
            refs = CommitCleanPointTest.allocate(store, 400);
            model = new long[refs.length];
            for (int t = 0; t < 80; t++) {
                boolean abort = rnd.nextInt(5) == 0;
                int n = rnd.nextInt(6) == 0 ? 40 + rnd.nextInt(60) : 1 + rnd.nextInt(6);
                long[] next = model.clone();
                try (Transaction tx = store.begin()) {
                    for (int k = 0; k < n; k++) {
                        int i = rnd.nextInt(refs.length);
                        long v = rnd.nextLong();
                        if (rnd.nextBoolean()) {
                            MappedStoreTest.put(store, refs[i], 8, v);
                        } else {
                            tx.putLong(refs[i], 8, v);
                        }
                        next[i] = v;
                    }
                    if (abort) {
                        tx.abort();
                    } else {
                        tx.commit();
                        model = next;
                    }
                }
                if (t % 10 == 9) {
                    check(store, refs, 0, model, "after transaction " + t);
                }
            }
            assertTrue(store.faultCounters().evictions() > 0, "the pool evicted: " + store.faultCounters());
            base = store.arenaBase();
        }
        try (Store s = Store.open(db, o)) {
            check(s, refs, s.arenaBase() - base, model, "after reopening");
        }
    }

    private static void check(Store s, long[] refs, long shift, long[] model, String when) {
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < refs.length; i++) {
                assertEquals(model[i], tx.getLong(refs[i] + shift, 8), when + ": object " + i);
            }
            tx.commit();
        }
    }
}
