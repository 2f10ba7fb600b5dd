package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The object allocator keeps the segment of the page it last deleted from and frees the next object on that page
 * through it, without the fixes that validate the page, while the pool's {@code writeStamp} holds ({@code
 * ObjectAllocator.deletePage}). The kept path must still refuse an object that is not live: one deleted already, or
 * one on a page the transaction freed (and allocated again). Without the slot check on the kept page the second
 * delete of {@code a} is not refused. That a steal ends the kept page: {@link HotPageStealTest}.
 */
class DeletePageMemoTest {
    @Test
    void theKeptPageStillRefusesAnObjectThatIsNotLive() throws Exception {
        try (Store store = HotPageStealTest.freshStore(new FaultInjectingFileIO())) {
            long a;
            long b;
            try (Transaction tx = store.begin()) {
                a = tx.allocate(64, 0);
                b = tx.allocate(64, a);
                tx.commit();
            }
            long page = store.addresses.pageOf(a);
            assertEquals(page, store.addresses.pageOf(b));
            try (Transaction tx = store.begin()) {
                tx.delete(a);
                IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> tx.delete(a));
                assertTrue(twice.getMessage().contains("not a live object"), twice.getMessage());
                tx.delete(b); // the page's last object: the page is freed
                assertThrows(IllegalArgumentException.class, () -> tx.delete(b), "freed page");
                long d = tx.allocate(64, 0); // may take the freed page again, formatted anew
                tx.delete(d);
                assertThrows(IllegalArgumentException.class, () -> tx.delete(d));
                tx.commit();
            }
            assertTrue(store.verify().ok(), "verify: " + store.verify());
        }
    }
}
