package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The allocator's placement memos of a page outlive a commit and follow deletes, and an abort drops them: a page
 * filled by appending keeps its dense tail into the next transaction, where its first delete turns it into the page's
 * unit map without a pass over the page; a delete frees its object's units and slot on the map (the next object of
 * that size lands exactly there, one that no hole holds right after the page's last object); a committed
 * transaction's map places the next transaction's objects without a pass; and after an abort that left the page's
 * counts as they were (a delete and a placement) the page is learned again, so the next object lands in the first
 * hole, not in the place of the object the abort brought back. Counted by the allocator ({@code learnedMaps}, {@code
 * mappedPlacements}); the placements are also checked against a pass over the page when assertions are on.
 */
class PlacementMemosAcrossCommitsTest {
    private static final int SIZE = 40;

    @TempDir
    Path dir;

    @Test
    void mapsOutliveACommitFollowDeletesAndAnAbortDropsThem() throws Exception {
        try (Store s = Store.create(dir.resolve("db"))) {
            long hint;
            List<Long> onHintPage = new ArrayList<>();
            try (Transaction tx = s.begin()) {
                hint = tx.allocate(SIZE);
                for (int i = 0; i < 100; i++) { // about half the page: free space after the last one
                    onHintPage.add(tx.allocate(SIZE, hint));
                }
                tx.commit();
            }
            for (long r : onHintPage) {
                assertEquals(s.addresses.pageOf(hint), s.addresses.pageOf(r), "all on the hint's page");
            }
            long learned0 = s.objects.learnedMaps();
            try (Transaction tx = s.begin()) { // holes on the hint's page: every third object but the last
                for (int i = 0; i < onHintPage.size() - 1; i += 3) {
                    tx.delete(onHintPage.get(i));
                }
                tx.commit();
            }
            long first = placeOne(s, hint, true);
            assertEquals(onHintPage.get(0), first, "first fit: the first hole");
            assertEquals(
                    learned0,
                    s.objects.learnedMaps(),
                    "the page filled by appending in the first transaction: its dense tail became its map at the first"
                            + " delete of the next one, which the deletes and this placement advanced");

            long learned1 = s.objects.learnedMaps();
            long mapped1 = s.objects.mappedPlacements();
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < 10; i++) {
                    assertEquals(onHintPage.get(3 * (i + 1)), tx.allocate(SIZE, hint), "hole " + (i + 1));
                }
                long last = onHintPage.get(onHintPage.size() - 1);
                assertEquals(last + SIZE, tx.allocate(2 * SIZE, hint), "no hole holds it: after the last object");
                tx.commit();
            }
            assertEquals(learned1, s.objects.learnedMaps(), "the committed map served the next transaction");
            assertEquals(mapped1 + 11, s.objects.mappedPlacements());

            TreeSet<Long> freed = new TreeSet<>();
            try (Transaction tx = s.begin()) { // deletes inside the page's objects: the map frees them
                for (int i = 1; i <= 5; i++) {
                    long r = onHintPage.get(3 * i + 1);
                    tx.delete(r);
                    freed.add(r);
                }
                TreeSet<Long> placed = new TreeSet<>();
                for (int i = 0; i < 5; i++) {
                    placed.add(tx.allocate(SIZE, hint));
                }
                assertEquals(freed, placed, "the next objects fill exactly the freed objects' bytes");
                tx.commit();
            }
            assertEquals(learned1, s.objects.learnedMaps(), "the deletes advanced the map, nothing learned again");

            long learned2 = s.objects.learnedMaps();
            try (Transaction tx =
                    s.begin()) { // undone: a delete and a placement that leave the page's counts as they were
                tx.delete(onHintPage.get(1));
                tx.allocate(2 * SIZE, hint); // no hole holds it: after the last objects, in the slot just freed
                tx.abort();
            }
            // holes 0 and 3..30 were filled above: the first one left is 33, and object 1 is live again
            assertEquals(onHintPage.get(33), placeOne(s, hint, true), "first fit after the abort: the first hole");
            assertEquals(learned2 + 1, s.objects.learnedMaps(), "an abort drops the maps: the page is learned again");
            assertTrue(s.verify().ok(), s.verify().toString());
        }
    }

    /** One object of {@link #SIZE} bytes near {@code hint}, in a transaction of its own, committed or aborted. */
    private static long placeOne(Store s, long hint, boolean commit) {
        try (Transaction tx = s.begin()) {
            long r = tx.allocate(SIZE, hint);
            if (commit) {
                tx.commit();
            } else {
                tx.abort();
            }
            return r;
        }
    }
}
