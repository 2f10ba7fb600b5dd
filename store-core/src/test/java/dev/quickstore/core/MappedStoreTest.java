package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quickstore.core.error.PageFaultRefusedException;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.RefusalReason;
import dev.quickstore.testkit.ChildJvm;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage manager on store-native's mapped arena (FramesMode.MAPPED): plain stores through
 * {@link Store#view()} - no markDirty, no store API - are detected by page protection, logged,
 * committed, undone and recovered; refused faults surface as {@link PageFaultRefusedException}.
 */
class MappedStoreTest {
    static final StoreOptions OPTS = new StoreOptions(16, 1 << 18, 1 << 20).withFrames(FramesMode.MAPPED);
    static final int OBJECT = 3000; // two objects per 8 KiB page
    /** {@link #OPTS} with a pool of 256 frames: every page of a test's store stays resident. */
    static final StoreOptions POOL_OF_ALL = new StoreOptions(256, 1 << 18, 1 << 20).withFrames(FramesMode.MAPPED);

    @TempDir
    Path dir;

    /** Allocates n objects (about n/2 pages), each with its index in word 0, committed. */
    static long[] populate(Store s, int n) {
        long[] refs = new long[n];
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < n; i++) {
                refs[i] = tx.allocate(OBJECT);
                tx.putLong(refs[i], 0, i);
            }
            long list = tx.allocateLarge(8L * n, 0);
            byte[] b = new byte[8 * n];
            java.nio.ByteBuffer.wrap(b)
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .asLongBuffer()
                    .put(refs);
            tx.writeLarge(list, 0, b, 0, b.length);
            tx.setRoot("objects", list);
            tx.commit();
        }
        return refs;
    }

    static long[] refs(Store s) {
        try (Transaction tx = s.begin()) {
            long list = tx.root("objects");
            int n = (int) (tx.largeSize(list) / 8);
            byte[] b = new byte[8 * n];
            tx.readLarge(list, 0, b, 0, b.length);
            long[] r = new long[n];
            java.nio.ByteBuffer.wrap(b)
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .asLongBuffer()
                    .get(r);
            tx.commit();
            return r;
        }
    }

    static void put(Store s, long ref, int off, long v) {
        s.view().set(PageHeader.LONG, ref - s.arenaBase() + off, v);
    }

    static long get(Store s, long ref, int off) {
        return s.view().get(PageHeader.LONG, ref - s.arenaBase() + off);
    }

    @Test
    void viewStoresAreDetectedLoggedAndSurviveReopen() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        try (Store s = Store.create(db, 8192, OPTS)) {
            refs = populate(s, 40);
            assertEquals(VolumeFile.DEFAULT_ARENA_BASE, s.arenaBase(), "mapped at the preferred base");
            long writeFaults = s.mappedFrames().arena().counters().writeFaults();
            long redo = s.txns.redoRecords();
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    put(s, refs[i], 8, 1000L + i); // a plain store: no markDirty, no store API
                }
                s.checkPending();
                tx.commit();
            }
            FaultCounters c = s.mappedFrames().arena().counters();
            assertTrue(c.writeFaults() - writeFaults >= refs.length / 2, "write faults " + c);
            assertTrue(s.txns.redoRecords() - redo >= refs.length / 2, "one REDO record per dirtied page");
        }
        try (Store s = Store.open(db, OPTS)) {
            assertEquals(0, s.recoveryStats().losersUndone());
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(1000L + i, tx.getLong(refs[i], 8), "object " + i + " through the store API");
                    assertEquals(1000L + i, get(s, refs[i], 8), "object " + i + " through the view");
                    assertEquals(i, get(s, refs[i], 0));
                }
                tx.commit();
            }
            assertTrue(s.verify().ok(), s.verify().toString());
        }
    }

    /**
     * A reopened store's cold loads are mapped by userfaultfd minor faults where the kernel allows it ({@code
     * qs_minor.c}, {@code qs.minorFaults} true by default): the loads of 80 objects' pages take fewer minor faults
     * of the reading thread than half the loads (loads by mprotect take one or more each: the restarted access
     * maps the page); the values read are the committed ones.
     */
    @Test
    void coldLoadsAreMappedByMinorFaultsWhereTheKernelAllowsIt() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        try (Store s = Store.create(db, 8192, POOL_OF_ALL)) {
            refs = populate(s, 120);
        }
        try (Store s = Store.open(db, POOL_OF_ALL)) {
            if (!s.mappedFrames().arena().loading().minorFaults()) {
                try (MappedArena probe = MappedArena.open(1L << 20)) {
                    int rc = probe.loading().selectMinorFaults();
                    assumeTrue(rc != 0, "minor faults refused here: " + rc);
                }
                fail("this process may use minor faults, but the store did not select them");
            }
            try (Transaction tx = s.begin()) {
                int warm = 40; // the first objects' reads run the code once: its own first-touch faults are not loads'
                for (int i = 0; i < warm; i++) {
                    assertEquals(i, get(s, refs[i], 0), "object " + i + " through the view");
                }
                FaultCounters before = s.mappedFrames().arena().counters();
                long minor = threadMinorFaults();
                for (int i = warm; i < refs.length; i++) {
                    assertEquals(i, get(s, refs[i], 0), "object " + i + " through the view");
                }
                minor = threadMinorFaults() - minor;
                FaultCounters after = s.mappedFrames().arena().counters();
                long loads = after.readFaults() - before.readFaults();
                assertTrue(loads >= 30, "cold loads: " + loads);
                assertTrue(minor < loads / 2, minor + " minor faults for " + loads + " cold loads");
                // a first load after the open leaves the view's protection as the selection made it (no mprotect):
                // with a pool that holds every page no clock reprotects, evicts or releases a frame before its load
                assertEquals(
                        loads,
                        after.untouchedLoads() - before.untouchedLoads(),
                        "cold loads without an mprotect, of " + loads);
                tx.commit();
            }
        }
    }

    /** The calling thread's minor page faults ({@code /proc/thread-self/stat}, field 10). */
    private static long threadMinorFaults() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
    }

    @Test
    void abortRestoresViewStores() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 8192, OPTS)) {
            long[] refs = populate(s, 20);
            try (Transaction tx = s.begin()) {
                for (long r : refs) {
                    put(s, r, 0, -1);
                }
                tx.putLong(refs[0], 16, 77); // the store's own write (alias view + native markDirty) on a dirty page
                assertEquals(-1, tx.getLong(refs[3], 0), "the store sees the application's stores");
                tx.abort();
            }
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(i, get(s, refs[i], 0));
                    assertEquals(i, tx.getLong(refs[i], 0));
                }
                assertEquals(0, tx.getLong(refs[0], 16));
                tx.commit();
            }
            assertEquals(0, s.mappedFrames().arena().preimages().dirtyFrames().length);
        }
    }

    @Test
    void storeOutsideTransactionIsRefusedAndReported() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 8192, OPTS)) {
            long[] refs = populate(s, 4);
            put(s, refs[1], 8, 42); // no transaction: refused, lands on a private scratch copy
            PageFaultRefusedException e = assertThrows(PageFaultRefusedException.class, s::checkPending);
            assertEquals(RefusalReason.NO_TRANSACTION, e.reason());
            assertEquals(refs[1] + 8, e.address());
            assertEquals(s.addresses.pageOf(refs[1]), e.page());
            assertTrue(e.getMessage().contains("page " + e.page()), e.getMessage());
            s.checkPending(); // thrown exactly once

            // not checked explicitly: the next begin reports it instead of starting on garbage
            put(s, refs[2], 8, 43);
            assertThrows(PageFaultRefusedException.class, s::begin);
            try (Transaction tx = s.begin()) {
                assertEquals(0, tx.getLong(refs[1], 8), "the refused stores never reached the page");
                assertEquals(0, tx.getLong(refs[2], 8));
                put(s, refs[1], 8, 44); // the frame was repaired: inside a transaction this store counts
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                assertEquals(44, tx.getLong(refs[1], 8));
                tx.commit();
            }
        }
    }

    @Test
    void refusalInsideTransactionDoomsIt() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 8192, OPTS)) {
            long[] refs = populate(s, 4);
            long beyond = s.mappedFrames().reservedPages() + 5; // no page of the volume: NOT_RESERVED
            Transaction tx = s.begin();
            put(s, refs[0], 8, 5);
            long garbage = s.view().get(PageHeader.LONG, beyond * 8192);
            assertEquals(0, garbage, "a refused load reads zeros");
            put(s, refs[0], 16, garbage + 1); // computed from the scratch page
            StoreException e = assertThrows(StoreException.class, tx::commit);
            PageFaultRefusedException r = assertInstanceOf(PageFaultRefusedException.class, e.getCause());
            assertEquals(RefusalReason.NOT_RESERVED, r.reason());
            assertEquals(beyond, r.page());
            assertTrue(!tx.isActive());
            try (Transaction t2 = s.begin()) {
                assertEquals(0, t2.getLong(refs[0], 8), "nothing of the doomed transaction committed");
                assertEquals(0, t2.getLong(refs[0], 16));
                t2.commit();
            }
            // a store-API call after the refusal fails at once
            Transaction t3 = s.begin();
            s.view().get(PageHeader.LONG, beyond * 8192);
            assertThrows(PageFaultRefusedException.class, () -> t3.getLong(refs[0], 0));
            assertThrows(StoreException.class, () -> t3.putLong(refs[0], 0, 1));
            t3.abort();
        }
    }

    @Test
    void corruptPageOnDiskIsRefusedNamingThePage() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        try (Store s = Store.create(db, 8192, OPTS)) {
            refs = populate(s, 10);
        }
        long page = (refs[6] - VolumeFile.DEFAULT_ARENA_BASE) / 8192;
        try (Store s = Store.open(db, OPTS)) {
            // damaged on disk while the store is open and the page is not resident (at open, the
            // double-write buffer would have repaired it from its intact copy)
            try (RandomAccessFile f =
                    new RandomAccessFile(VolumeFile.volumePath(db).toFile(), "rw")) {
                long pos = page * 8192 + 5000;
                f.seek(pos);
                int b = f.read();
                f.seek(pos);
                f.write(b ^ 0x40);
            }
            Transaction tx = s.begin();
            assertEquals(0, get(s, refs[6], 0), "a page failing its CRC32C reads as zeros");
            PageFaultRefusedException e = assertThrows(PageFaultRefusedException.class, s::checkPending);
            assertEquals(RefusalReason.CHECKSUM, e.reason());
            assertEquals(page, e.page());
            assertTrue(e.getMessage().contains("page " + page), e.getMessage());
            assertThrows(StoreException.class, tx::commit, "a doomed transaction cannot commit");
            try (Transaction t2 = s.begin()) {
                assertEquals(0, get(s, refs[0], 0), "other pages still load");
                StoreException viaApi = assertThrows(StoreException.class, () -> t2.getLong(refs[6], 0));
                assertTrue(viaApi.getMessage().contains("checksum"), viaApi.getMessage());
            }
        }
    }

    @Test
    void transactionDirtyingMorePagesThanThePoolSteals() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        try (Store s = Store.create(db, 8192, OPTS)) {
            refs = populate(s, 120); // about 60 pages, the pool holds 16
        }
        try (Store s = Store.open(db, OPTS)) {
            long stealsBefore = s.pool.steals();
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    put(s, refs[i], 8, 5000L + i); // native loads + write faults, unknown to the pool so far
                }
                for (int i = 0; i < 40; i++) {
                    tx.allocate(OBJECT); // pool misses: adopt the faulted pages, steal dirty ones
                }
                assertTrue(s.pool.steals() > stealsBefore, "steals " + s.pool.steals());
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(5000L + i, get(s, refs[i], 8), "object " + i + " after its page was stolen");
                }
                tx.commit();
            }
            // steal then abort: the logged UPDATEs are undone
            try (Transaction tx = s.begin()) {
                for (long r : refs) {
                    put(s, r, 8, -7);
                }
                for (int i = 0; i < 40; i++) {
                    tx.allocate(OBJECT);
                }
                tx.abort();
            }
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(5000L + i, get(s, refs[i], 8));
                }
                tx.commit();
            }
        }
        try (Store s = Store.open(db, OPTS)) {
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(5000L + i, tx.getLong(refs[i], 8));
                }
                tx.commit();
            }
            assertTrue(s.verify().ok(), s.verify().toString());
        }
    }

    @Test
    void explicitModeHasNoView() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 8192, OPTS.withFrames(FramesMode.EXPLICIT))) {
            assertThrows(StoreException.class, s::view);
            s.checkPending();
            long[] refs = populate(s, 4);
            try (Transaction tx = s.begin()) {
                assertEquals(3, tx.getLong(refs[3], 0));
                tx.commit();
            }
        }
    }

    /** SIGKILL after a commit of view stores and during a transaction whose view stores were stolen. */
    @Test
    void viewStoresSurviveSigkillAndUncommittedOnesDoNot() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        try (Store s = Store.create(db, 8192, OPTS)) {
            refs = populate(s, 120);
        }
        try (ChildJvm.Running child = ChildJvm.main(MappedCrashChild.class)
                .workDir(dir)
                .jvmArgs("-ea", "-Xmx256m")
                .args(db.toString())
                .timeout(Duration.ofSeconds(300))
                .start()) {
            String l1 = child.nextLine(Duration.ofSeconds(90)); // watchdog: 90 s, or the child died
            String l2 = l1 == null ? null : child.nextLine(Duration.ofSeconds(90));
            if (!"committed".equals(l1) || l2 == null || !l2.startsWith("uncommitted steals=")) {
                fail("child said " + l1 + " / " + l2 + "; " + child.describe());
            }
            assertTrue(Long.parseLong(l2.substring(19)) > 0, "the uncommitted stores were stolen to disk: " + l2);
            child.kill(); // SIGKILL
            assertEquals(137, child.exitCode(), "killed by SIGKILL (128 + 9)");
        }
        try (Store s = Store.open(db, OPTS)) {
            assertTrue(s.recoveryStats().losersUndone() >= 1, "recovery: " + s.recoveryStats());
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(9000L + i, get(s, refs[i], 8), "committed view store of object " + i);
                    assertEquals(0, get(s, refs[i], 16), "uncommitted view store of object " + i);
                }
                tx.commit();
            }
            assertTrue(s.verify().ok(), s.verify().toString());
        }
    }
}
