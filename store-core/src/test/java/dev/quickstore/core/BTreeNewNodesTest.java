package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.FaultCounters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A B+tree's nodes allocated by a transaction (a split's new leaf or inner node, a new root, a new tree's meta page and
 * root) are fixed by {@code BufferPool.fixNew}: not read, made new against the arena's zero page without a pre-image
 * copy, and logged as NEW_PAGE records. Random inserts that split a leaf a dozen times copy the pre-images of the pages
 * that existed before only; an aborted transaction's splits leave the committed tree as it was; after a power cut
 * ({@link FaultInjectingFileIO}) recovery redoes the new nodes and the tree holds exactly the committed entries.
 */
class BTreeNewNodesTest {
    private static final Path DIR = Path.of("/mem/btnew");
    private static final int PAGE = 8192;
    /** Mapped frames under page protection; a pool larger than the data and no checkpoint (recovery redoes all). */
    private static final StoreOptions OPTS = new StoreOptions(2048, 1 << 20, 1L << 30)
            .withFrames(FramesMode.MAPPED)
            .withWriteDetection(WriteDetection.PAGE_PROTECTION);

    private static void insert(Transaction tx, SplittableRandom rnd, int n, TreeMap<Long, Long> into) {
        Index ix = tx.index("k");
        for (int i = 0; i < n; i++) {
            long key = rnd.nextLong(1L << 40);
            if (into.containsKey(key)) {
                continue;
            }
            ix.insertNumeric(key, key ^ 0x5a5a5a5aL);
            into.put(key, key ^ 0x5a5a5a5aL);
        }
    }

    private static void check(Store s, TreeMap<Long, Long> model, String context) {
        List<long[]> got = new ArrayList<>();
        try (Transaction tx = s.begin()) {
            Index ix = tx.index("k");
            ix.scanNumeric(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> got.add(new long[] {k, v}));
            assertEquals(model.size(), ix.size(), context + ": entry count");
        }
        assertEquals(model.size(), got.size(), context + ": entries scanned");
        int i = 0;
        for (var e : model.entrySet()) {
            long[] kv = got.get(i++);
            assertEquals(e.getKey(), kv[0], context + ": key " + (i - 1));
            assertEquals(e.getValue(), kv[1], context + ": value of key " + e.getKey());
        }
        assertTrue(s.verify().ok(), context + ": verify " + s.verify());
    }

    @Test
    void splitNodesAreMadeNewLoggedAsNewPagesAndRedoneAfterAPowerCut() throws Exception {
        SplittableRandom rnd = new SplittableRandom(20261129L);
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store.create(fs, DIR, PAGE, OPTS).close();
        Store store = Store.open(fs, DIR, OPTS);
        TreeMap<Long, Long> model = new TreeMap<>();
        try (Transaction tx = store.begin()) {
            tx.createIndex("k", KeyType.LONG, 0, false);
            insert(tx, rnd, 10, model);
            tx.commit();
        }
        // 1. random inserts: a leaf holds about 500 entries, so 6,000 of them split leaves a dozen times
        FaultCounters before = store.faultCounters();
        long records = store.txns.newPageRecords();
        try (Transaction tx = store.begin()) {
            insert(tx, rnd, 6000, model);
            tx.commit();
        }
        FaultCounters after = store.faultCounters();
        long newRecords = store.txns.newPageRecords() - records;
        assertTrue(newRecords >= 11, "new nodes logged as NEW_PAGE records: " + newRecords);
        assertTrue(after.newPages() - before.newPages() >= newRecords, "made new: " + after + " against " + before);
        // pre-images: the old root leaf, the meta page and the space map's pages at most (a pre-image per new node
        // before: 11 or more pages)
        long copied = after.preimageBytes() - before.preimageBytes();
        assertTrue(copied <= 5L * PAGE, "pre-image bytes copied for 6,000 inserts: " + copied);
        check(store, model, "after the splits");
        // 2. more splits, aborted: the committed tree is left as it was
        try (Transaction tx = store.begin()) {
            insert(tx, rnd, 3000, new TreeMap<>(model));
            tx.abort();
        }
        check(store, model, "after the abort");
        // 3. committed again, then a power cut: recovery redoes the new nodes
        try (Transaction tx = store.begin()) {
            insert(tx, rnd, 3000, model);
            tx.commit();
        }
        check(store, model, "before the power cut");
        fs.crash(rnd); // never closed: no checkpoint, no write-back
        try (Store s = Store.open(fs, DIR, OPTS)) {
            assertEquals(0, s.recoveryStats().losersUndone());
            check(s, model, "after recovery");
        }
        try {
            store.close(); // the crashed store's arena
        } catch (java.io.IOException e) {
            // its files died with the power cut; the arena is released all the same
        }
    }
}
