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
 * The allocator's unit map of a page with holes outlives a commit and follows deletes, and an abort drops it: a
 * committed transaction's maps place the next transaction's objects without a pass over the page, a delete frees its
 * object's units and slot on the map (the next object of that size lands exactly there), and after an abort the
 * page is learned again, so an object lands where the aborted one was. Counted by the allocator ({@code learnedMaps},
 * {@code mappedPlacements}); the placements are also checked against a pass over the page when assertions are on.
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
                for (int i = 0; i < 400; i++) {
                    long r = tx.allocate(SIZE, hint);
                    if (s.addresses.pageOf(r) == s.addresses.pageOf(hint)) {
                        onHintPage.add(r);
                    }
                }
                tx.commit();
            }
            assertTrue(onHintPage.size() > 100, "objects on the hint's page: " + onHintPage.size());
            try (Transaction tx = s.begin()) { // holes on the hint's page: every third object but the last
                for (int i = 0; i < onHintPage.size() - 1; i += 3) {
                    tx.delete(onHintPage.get(i));
                }
                tx.commit();
            }
            long learned0 = s.objects.learnedMaps();
            long first = placeOne(s, hint, true);
            assertEquals(learned0 + 1, s.objects.learnedMaps(), "the first placement on the page learns its map");
            assertEquals(onHintPage.get(0), first, "first fit: the first hole");

            long learned1 = s.objects.learnedMaps();
            long mapped1 = s.objects.mappedPlacements();
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < 10; i++) {
                    assertEquals(onHintPage.get(3 * (i + 1)), tx.allocate(SIZE, hint), "hole " + (i + 1));
                }
                tx.commit();
            }
            assertEquals(learned1, s.objects.learnedMaps(), "the committed map served the next transaction");
            assertEquals(mapped1 + 10, s.objects.mappedPlacements());

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

            long aborted = placeOne(s, hint, false);
            long learned2 = s.objects.learnedMaps();
            assertEquals(aborted, placeOne(s, hint, true), "the aborted object's place is free again");
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
