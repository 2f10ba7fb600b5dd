package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Objects placed near one hint on pages with holes (objects freed from them in earlier transactions, as OO7's SM2
 * leaves the pages SM1 then inserts into) land where first fit puts them (the allocator's placement is checked
 * against a fresh pass when assertions are on, as in this suite) and never on each other: after runs of
 * placements and deletes interleaved in one transaction, committed or aborted, every live object still holds its
 * own bytes, before and after a reopen, and the store verifies clean. The allocator's memos for such pages are used
 * and checked on the way: the {@code UnitMap} kept per page with gaps (the next placements there without a pass over
 * its slot array) and the slot index of the page of the last delete (a delete far from the last one on that page).
 */
@ExtendWith(SeedExtension.class)
class HoledPagePlacementTest {
    @TempDir
    Path dir;

    private static byte[] body(long id, int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) (id * 31 + 7));
        b[0] = (byte) id;
        b[size - 1] = (byte) (id >>> 8);
        return b;
    }

    @Test
    void placementsAndDeletesOnHoledPagesNeverOverlap(Seed seed) throws Exception {
        SplittableRandom rnd = seed.splittable();
        Map<Long, byte[]> live = new HashMap<>();
        List<Long> order = new ArrayList<>();
        long id = 0;
        long hint;
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                hint = tx.allocate(24);
                for (int i = 0; i < 3000; i++) {
                    order.add(place(tx, rnd, hint, ++id, live));
                }
                tx.commit();
            }
            try (Transaction tx = s.begin()) { // holes: every third object
                for (int i = 0; i < order.size(); i += 3) {
                    tx.delete(order.get(i));
                    live.remove(order.get(i));
                }
                tx.commit();
            }
            order.removeIf(r -> !live.containsKey(r));
            Set<Long> pagesPlacedOn = new HashSet<>();
            for (int round = 0; round < 3; round++) {
                boolean abort = round == 1;
                Map<Long, byte[]> added = new HashMap<>();
                Set<Long> removed = new HashSet<>();
                long lastPlaced = 0;
                try (Transaction tx = s.begin()) {
                    for (int i = 0; i < 2500; i++) {
                        if (rnd.nextInt(4) == 0 && !order.isEmpty()) {
                            // one delete, or a run scattered over its neighbours in address order, as a graph's
                            // objects on pages whose slots were reused out of order are freed (OO7 SM2)
                            List<Long> near = new ArrayList<>(order);
                            near.sort(null);
                            // half the runs around the object placed last: deletes on the page placements go to,
                            // between them, so the page's slot index goes stale (it must miss, never mislead)
                            int last = lastPlaced == 0 ? -1 : Collections.binarySearch(near, lastPlaced);
                            int at = rnd.nextBoolean() && last >= 0 ? last : rnd.nextInt(near.size());
                            for (int k = 0, n = rnd.nextBoolean() ? 1 : 2 + rnd.nextInt(10); k < n; k++) {
                                int j = Math.clamp(at + rnd.nextInt(-30, 31), 0, near.size() - 1);
                                long r = near.get(j);
                                if (!order.remove(r)) {
                                    continue; // deleted earlier in this run
                                }
                                tx.delete(r);
                                if (added.remove(r) == null) {
                                    removed.add(r);
                                }
                            }
                        } else {
                            long r = place(tx, rnd, hint, ++id, added);
                            lastPlaced = r;
                            order.add(r);
                            pagesPlacedOn.add(s.addresses.pageOf(r));
                        }
                    }
                    for (var e : added.entrySet()) {
                        assertArrayEquals(e.getValue(), tx.read(e.getKey()), "object placed in round " + round);
                    }
                    if (abort) {
                        tx.abort();
                    } else {
                        tx.commit();
                    }
                }
                if (abort) {
                    order.removeIf(added::containsKey);
                    order.addAll(removed);
                } else {
                    removed.forEach(live::remove);
                    live.putAll(added);
                }
                assertTrue(s.verify().ok(), "round " + round + ": " + s.verify());
            }
            assertTrue(pagesPlacedOn.size() > 5, "placed on " + pagesPlacedOn.size() + " pages");
            // the two memos this test drives: placements from a page's kept unit map, deletes by its slot index
            assertTrue(s.objects.mappedPlacements() > 500, "placed from a kept map " + s.objects.mappedPlacements());
            assertTrue(
                    s.objects.indexedDeletes() > 50, "deletes found by the slot index " + s.objects.indexedDeletes());
            check(s, live);
        }
        try (Store s = Store.open(dir.resolve("db"))) {
            check(s, live);
            assertTrue(s.verify().ok(), s.verify().toString());
        }
    }

    /** Places object {@code id} (8 to 407 bytes, mostly small) near {@code hint}, writes its bytes, records them. */
    private static long place(Transaction tx, SplittableRandom rnd, long hint, long id, Map<Long, byte[]> into) {
        int size = 8 + rnd.nextInt(rnd.nextInt(8) == 0 ? 400 : 56);
        long r = tx.allocate(size, hint);
        byte[] b = body(id, size);
        tx.write(r, 0, b);
        into.put(r, b);
        return r;
    }

    private static void check(Store s, Map<Long, byte[]> live) {
        try (Transaction tx = s.begin()) {
            for (var e : live.entrySet()) {
                assertArrayEquals(e.getValue(), tx.read(e.getKey()), "object at 0x" + Long.toHexString(e.getKey()));
            }
            tx.commit();
        }
    }
}
