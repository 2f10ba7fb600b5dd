package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.FaultCounters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A delete is the storage manager's own write ({@code Session.delete}, {@code ObjectAllocator.delete}): nothing is
 * stored through the application view, so with page protection a page the transaction only deletes from takes no
 * write fault and keeps its view write-protected; a later store through the view to an object left on the page
 * takes the one fault that opens it. Under every write-detection scheme and the copying view of FramesMode.EXPLICIT,
 * a deleted object reads as zeros, and commit, abort and reopen keep exactly the survivors.
 */
class DeleteWriteProtectionTest {
    private static final int NODES = 300; // 16-byte objects: a few pages

    @TempDir
    Path dir;

    /** "explicit" (the copying view), or the name of a {@link WriteDetection} scheme of the mapped view. */
    private static StoreOptions options(String view) {
        return view.equals("explicit")
                ? StoreOptions.defaults().withFrames(FramesMode.EXPLICIT)
                : StoreOptions.defaults().withWriteDetection(WriteDetection.valueOf(view));
    }

    private static FaultCounters faults(PersistentStore s) {
        return s.storageManager().faultCounters();
    }

    /** Node i holds value i, except node 1 (1001 after the update); even nodes are deleted. */
    private static void checkSurvivors(ObjectTransaction tx, List<Long> nodes) {
        for (int i = 0; i < NODES; i++) {
            long a = nodes.get(i);
            if (i % 2 == 0) {
                assertThrows(IllegalArgumentException.class, () -> tx.get(a, ListNode.class), "node " + i);
            } else {
                assertEquals(i == 1 ? 1001 : i, tx.get(a, ListNode.class).value(), "node " + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "PAGE_PROTECTION",
                "CARD_MARKING",
                "OBJECT_MARKING",
                "REMEMBERED_SETS",
                "SCANNING",
                "KERNEL_TRACKING",
                "explicit"
            })
    void deletesLeaveTheViewProtectedAndKeepExactlyTheSurvivors(String view) throws Exception {
        Path db = dir.resolve("db");
        List<Long> nodes = new ArrayList<>();
        try (PersistentStore s = PersistentStore.create(db, options(view), ListNode.class)) {
            try (ObjectTransaction tx = s.begin()) {
                for (int i = 0; i < NODES; i++) {
                    ListNode n = tx.create(ListNode.class);
                    n.value(i);
                    nodes.add(tx.addressOf(n));
                }
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) { // deleted, then given back by the abort
                for (int i = 1; i < NODES; i += 2) {
                    tx.delete(tx.get(nodes.get(i), ListNode.class));
                }
                tx.abort();
            }
            try (ObjectTransaction tx = s.begin()) {
                for (int i = 1; i < NODES; i += 2) {
                    assertEquals(i, tx.get(nodes.get(i), ListNode.class).value(), "the abort restored node " + i);
                }
                List<ListNode> doomed = new ArrayList<>();
                for (int i = 0; i < NODES; i += 2) {
                    doomed.add(tx.get(nodes.get(i), ListNode.class));
                }
                boolean pages = view.equals("PAGE_PROTECTION");
                FaultCounters before = pages ? faults(s) : null;
                for (ListNode n : doomed) {
                    tx.delete(n);
                }
                FaultCounters deleted = pages ? faults(s) : null;
                if (pages) {
                    assertEquals(
                            before.writeFaults(), deleted.writeFaults(), "a delete stores nothing through the view");
                    assertEquals(before.referenceFaults(), deleted.referenceFaults());
                    assertTrue(deleted.preimageBytes() > before.preimageBytes(), "the deletes took the pre-images");
                }
                for (ListNode n : doomed) {
                    assertEquals(0, n.value(), "a deleted object reads as zeros through the view");
                }
                tx.get(nodes.get(1), ListNode.class).value(1001); // a store to a survivor of a page deleted from
                if (pages) { // the pre-image is there: the fault only opens the view (a reference fault)
                    assertEquals(deleted.writeFaults(), faults(s).writeFaults());
                    assertEquals(
                            deleted.referenceFaults() + 1, faults(s).referenceFaults(), "one fault opened the view");
                }
                assertEquals(1001, tx.get(nodes.get(1), ListNode.class).value());
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                checkSurvivors(tx, nodes);
                tx.get(nodes.get(3), ListNode.class).value(3); // the view of a committed page is writable again
                tx.commit();
            }
            assertTrue(s.storageManager().verify().ok());
        }
        try (PersistentStore s = PersistentStore.open(db, options(view), ListNode.class);
                ObjectTransaction tx = s.begin()) {
            checkSurvivors(tx, nodes);
        }
    }
}
