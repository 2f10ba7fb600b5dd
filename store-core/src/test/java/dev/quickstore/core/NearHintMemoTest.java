package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The allocator's memo of extents that no longer hold an object size ({@code ObjectAllocator}'s {@code
 * extentNoFit}) and of pages that are not slotted pages never hides room: objects near a hint fill every page of
 * its extent two by two, a page the allocator adds inside the extent is used, and a deleted object's space is used
 * again, before anything goes to the extent's overflow page.
 */
class NearHintMemoTest {
    private static final int BIG = 3_000; // two per 8 KiB page

    @TempDir
    Path dir;

    private static Map<Long, Integer> perPage(Store s, List<Long> refs) {
        Map<Long, Integer> m = new TreeMap<>();
        for (long r : refs) {
            m.merge(s.addresses.pageOf(r), 1, Integer::sum);
        }
        return m;
    }

    @Test
    void objectsNearAHintFillItsExtentTwoByTwoAndReuseFreedRoom() throws Exception {
        try (Store s = Store.create(dir.resolve("db"));
                Transaction tx = s.begin()) {
            long a = tx.allocate(64);
            long extent = s.addresses.pageOf(a) / 16;
            List<Long> inExtent = new ArrayList<>();
            List<Long> outside = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                long r = tx.allocate(BIG, a);
                if (s.addresses.pageOf(r) / 16 == extent) {
                    assertTrue(outside.isEmpty(), "object " + i + " went back into the extent after it overflowed");
                    inExtent.add(r);
                } else {
                    outside.add(r);
                }
            }
            Map<Long, Integer> pages = perPage(s, inExtent);
            assertTrue(pages.size() >= 10, "the extent's pages were added one by one and used: " + pages);
            for (var e : pages.entrySet()) {
                assertEquals(2, e.getValue(), "page " + e.getKey() + " of the hint's extent: " + pages);
            }
            assertTrue(outside.size() > 0, "the extent filled up");
            // a smaller object still fits on a page of the extent
            assertEquals(extent, s.addresses.pageOf(tx.allocate(64, a)) / 16);
            // room freed on a page of the extent other than the hint's is found again
            long victim = inExtent.get(inExtent.size() - 1);
            long victimPage = s.addresses.pageOf(victim);
            assertTrue(victimPage != s.addresses.pageOf(a));
            tx.delete(victim);
            assertEquals(victimPage, s.addresses.pageOf(tx.allocate(BIG, a)), "the deleted object's room is used");
            assertEquals(extent, s.addresses.pageOf(tx.allocate(64, a)) / 16);
            assertTrue(s.addresses.pageOf(tx.allocate(BIG, a)) / 16 != extent, "full again");
            tx.commit();
            assertTrue(s.verify().ok());
        }
    }
}
