package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Pages a transaction allocates are made resident as zeros without a read and logged at commit as NEW_PAGE records
 * ({@code BufferPool.fixNew}, issue #20). Against a model of the committed objects: commits that allocate, an abort
 * after allocating (its zero frames and freed bits are reused next), deletes that free whole pages and allocations
 * that reuse them in the same and in the next transaction; then a power cut ({@link FaultInjectingFileIO}: the
 * pages never written, unsynced writes dropped or torn) and recovery, which must redo the NEW_PAGE records.
 */
@ExtendWith(SeedExtension.class)
class NewPagesTest {
    private static final Path DIR = Path.of("/mem/db");
    /** A pool larger than the data and no checkpoint: committed pages reach the volume only through recovery. */
    private static final StoreOptions OPTS = new StoreOptions(2048, 1 << 20, 1L << 30);

    private static byte[] bytes(SplittableRandom rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** Allocates {@code n} objects near each other, each recorded in {@code into} (also ZeroPreimageNewPagesTest's). */
    static void allocate(Transaction tx, SplittableRandom rnd, int n, Map<Long, byte[]> into) {
        long prev = 0;
        for (int i = 0; i < n; i++) {
            byte[] b = bytes(rnd, 24 + rnd.nextInt(400));
            long ref = tx.allocate(b.length, prev);
            tx.write(ref, 0, b);
            into.put(ref, b);
            prev = ref;
        }
    }

    /**
     * Checks every object of the models, which hold references as mapped at {@code base} (a store reopened in this
     * JVM maps its arena elsewhere while the crashed one stays mapped).
     */
    static void check(Store s, long base, Map<Long, byte[]> model, Map<Long, byte[]> large, String context) {
        long shift = s.arenaBase() - base;
        try (Transaction tx = s.begin()) {
            model.forEach((ref, b) ->
                    assertArrayEquals(b, tx.read(ref + shift), context + ": object 0x" + Long.toHexString(ref)));
            large.forEach((ref, b) -> {
                byte[] got = new byte[b.length];
                tx.readLarge(ref + shift, 0, got, 0, b.length);
                assertArrayEquals(b, got, context + ": large object 0x" + Long.toHexString(ref));
            });
        }
        assertTrue(s.verify().ok(), context + ": verify " + s.verify());
    }

    private static long newPageRecords(FaultInjectingFileIO fs) throws Exception {
        ControlFile ctl = ControlFile.read(fs, DIR.resolve(VolumeFile.CONTROL_FILE));
        long n = 0;
        try (LogReader r = new LogReader(fs, DIR.resolve(VolumeFile.LOG_DIR), ctl.logSegmentBytes())) {
            LogReader.Scan scan = r.scan(ctl.checkpointLsn(), ctl.checkpointLsn() + 1);
            for (LogRecord rec = scan.next(); rec != null; rec = scan.next()) {
                n += rec.type == LogRecord.NEW_PAGE ? 1 : 0;
            }
        }
        return n;
    }

    @Test
    void allocatedPagesAreRedoneFromNewPageRecordsAfterAPowerCut(Seed seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed.value());
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store.create(fs, DIR, 8192, OPTS).close();
        Store store = Store.open(fs, DIR, OPTS);
        Map<Long, byte[]> model = new HashMap<>();
        Map<Long, byte[]> large = new HashMap<>();
        // 1. objects on fresh pages and a large object (a run of fresh pages), committed
        try (Transaction tx = store.begin()) {
            allocate(tx, rnd, 1500, model);
            byte[] b = bytes(rnd, 30_000);
            long ref = tx.allocateLarge(b.length, 0);
            tx.writeLarge(ref, 0, b, 0, b.length);
            large.put(ref, b);
            tx.commit();
        }
        // 2. allocated, then aborted: the pages and their space-map bits go back
        try (Transaction tx = store.begin()) {
            allocate(tx, rnd, 800, new HashMap<>());
            tx.allocateLarge(20_000, 0);
            tx.abort();
        }
        check(store, store.arenaBase(), model, large, "after the abort");
        // 3. free most objects (whole pages become free) and allocate again in the same transaction
        List<Long> refs = new ArrayList<>(model.keySet());
        refs.sort(null);
        try (Transaction tx = store.begin()) {
            for (long ref : refs.subList(0, refs.size() * 3 / 4)) {
                tx.delete(ref);
                model.remove(ref);
            }
            allocate(tx, rnd, 400, model);
            tx.commit();
        }
        // 4. and in the next one: the pages freed and aborted above are reused
        try (Transaction tx = store.begin()) {
            allocate(tx, rnd, 1500, model);
            tx.commit();
        }
        check(store, store.arenaBase(), model, large, "before the power cut");
        long records = newPageRecords(fs);
        assertTrue(records >= 1500 * 24 / 8192, "NEW_PAGE records logged: " + records);
        long base = store.arenaBase();
        fs.crash(rnd); // the store is never closed: no checkpoint, no write-back
        try (Store s = Store.open(fs, DIR, OPTS)) {
            assertTrue(s.recoveryStats().redoApplied() >= records, "records redone: " + s.recoveryStats());
            assertEquals(0, s.recoveryStats().losersUndone());
            check(s, base, model, large, "after recovery");
        }
        try {
            store.close(); // the crashed store's arena, which later tests in this JVM would find in their way
        } catch (java.io.IOException e) {
            // its files died with the power cut; the arena is released all the same
        }
    }
}
