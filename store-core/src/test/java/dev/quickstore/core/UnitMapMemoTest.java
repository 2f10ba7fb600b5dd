package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.io.TempDir;

/**
 * The object allocator keeps a {@code UnitMap} of each page with gaps it placed an object on, and places the next
 * objects on that page from the map ({@code ObjectAllocator.unitMaps}): OO7 SM1 placing objects where SM2 deleted
 * others; and the slot index of the page it deletes from ({@code ObjectAllocator.deleteIndex}), learned when a delete
 * next to the last missed. A seeded model over committed and aborted transactions, with objects deleted (gaps made, maps dropped) and
 * created near live ones (gaps filled from kept maps) in the same transactions: every object the model holds keeps its
 * bytes, no two objects overlap ({@code verify}), and, with assertions on (as the tests run), every placement from a
 * kept map is checked against a pass over the page ({@code SlottedPage.allocateAt}).
 */
@ExtendWith(SeedExtension.class)
class UnitMapMemoTest {
    @TempDir
    Path dir;

    private static byte[] pattern(int size, long id) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (id * 131 + i * 7 + 1);
        }
        return b;
    }

    @Test
    void objectsPlacedFromKeptMapsKeepEveryObjectIntact(Seed seed) throws Exception {
        SplittableRandom rnd = seed.splittable();
        try (Store store = Store.create(dir.resolve("db"))) {
            Map<Long, byte[]> live = new HashMap<>(); // committed objects and their bytes
            long ids = 0;
            try (Transaction tx = store.begin()) {
                long near = 0;
                for (int i = 0; i < 3000; i++) {
                    int size = 8 + rnd.nextInt(rnd.nextInt(6) == 0 ? 400 : 56);
                    byte[] bytes = pattern(size, ids++);
                    long a = tx.allocate(size, near);
                    tx.write(a, 0, bytes);
                    live.put(a, bytes);
                    near = rnd.nextInt(8) == 0 ? 0 : a;
                }
                tx.commit();
            }
            long mappedBefore = store.objects.mappedPlacements();
            long indexedBefore = store.objects.indexedDeletes();
            for (int t = 0; t < 24; t++) {
                boolean abort = t % 4 == 3;
                Map<Long, byte[]> now = new HashMap<>(live);
                try (Transaction tx = store.begin()) {
                    List<Long> addresses = new ArrayList<>(now.keySet());
                    addresses.sort(null);
                    for (int op = 0; op < 600; op++) {
                        if (rnd.nextInt(3) == 0 && !addresses.isEmpty()) {
                            // a run of deletes near each other (a graph freed together): in address order, a gap or
                            // several; or scattered over the neighbourhood, as slots reused out of order are freed
                            int at = rnd.nextInt(addresses.size());
                            boolean scattered = rnd.nextBoolean();
                            for (int k = 0, n = 1 + rnd.nextInt(scattered ? 12 : 4); k < n; k++) {
                                int i = scattered ? at + rnd.nextInt(-40, 41) : at;
                                if (i < 0 || i >= addresses.size()) {
                                    continue;
                                }
                                long a = addresses.remove(i);
                                tx.delete(a);
                                now.remove(a);
                            }
                        } else {
                            long near = addresses.isEmpty() ? 0 : addresses.get(rnd.nextInt(addresses.size()));
                            int size = 8 + rnd.nextInt(rnd.nextInt(6) == 0 ? 400 : 56);
                            byte[] bytes = pattern(size, ids++);
                            long a = tx.allocate(size, near);
                            tx.write(a, 0, bytes);
                            now.put(a, bytes);
                            addresses.add(a);
                        }
                    }
                    for (Map.Entry<Long, byte[]> e : now.entrySet()) {
                        assertArrayEquals(
                                e.getValue(), tx.read(e.getKey()), "object 0x" + Long.toHexString(e.getKey()));
                    }
                    if (abort) {
                        tx.abort();
                    } else {
                        tx.commit();
                        live = now;
                    }
                }
                assertTrue(store.verify().ok(), "transaction " + t + ": " + store.verify());
            }
            try (Transaction tx = store.begin()) {
                for (Map.Entry<Long, byte[]> e : live.entrySet()) {
                    assertArrayEquals(e.getValue(), tx.read(e.getKey()), "object 0x" + Long.toHexString(e.getKey()));
                }
            }
            long mapped = store.objects.mappedPlacements() - mappedBefore;
            assertTrue(mapped > 500, "only " + mapped + " objects were placed from a kept unit map");
            long indexed = store.objects.indexedDeletes() - indexedBefore;
            assertTrue(indexed > 200, "only " + indexed + " deletes found their slot by the delete page's index");
        }
    }
}
