package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * own bytes, before and after a reopen, and the store verifies clean.
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
                try (Transaction tx = s.begin()) {
                    for (int i = 0; i < 2500; i++) {
                        if (rnd.nextInt(4) == 0 && !order.isEmpty()) {
                            long r = order.remove(rnd.nextInt(order.size()));
                            tx.delete(r);
                            if (added.remove(r) == null) {
                                removed.add(r);
                            }
                        } else {
                            long r = place(tx, rnd, hint, ++id, added);
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
