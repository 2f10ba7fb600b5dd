package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.FaultCounters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Write-ahead for new pages ({@code BufferPool.fixNew(page, freeAfter)}, {@code MappedFrames.markDirtyAhead}): pages
 * a transaction freed stay resident and clean after its commit; a later transaction that allocates a run of them
 * again makes the free pages after the second one writable together (counted as write-ahead frames) instead of
 * opening each with its own {@code mprotect}. Pages made writable ahead and never allocated are logged as nothing;
 * commit, abort and reopen keep exactly the objects created, under every write-detection scheme.
 */
class NewPageWriteAheadTest {
    private static final int NODES = 4_000; // 16-byte objects: about ten pages

    @TempDir
    Path dir;

    private static List<Long> create(ObjectTransaction tx, int count, int base) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ListNode n = tx.create(ListNode.class);
            n.value(base + i);
            out.add(tx.addressOf(n));
        }
        return out;
    }

    private static void check(ObjectTransaction tx, List<Long> nodes, int base) {
        for (int i = 0; i < nodes.size(); i++) {
            assertEquals(base + i, tx.get(nodes.get(i), ListNode.class).value(), "node " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(WriteDetection.class)
    void freedPagesAllocatedAgainAreMadeWritableTogether(WriteDetection detection) throws Exception {
        Path db = dir.resolve("db");
        StoreOptions o = StoreOptions.defaults().withWriteDetection(detection);
        List<Long> again;
        try (PersistentStore s = PersistentStore.create(db, o, ListNode.class)) {
            List<Long> first;
            try (ObjectTransaction tx = s.begin()) {
                first = create(tx, NODES, 0);
                tx.commit();
            }
            long pages = s.storageManager().pageCount();
            try (ObjectTransaction tx = s.begin()) { // every page of the run is freed, and stays resident
                for (long a : first) {
                    tx.delete(tx.get(a, ListNode.class));
                }
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) { // allocated again, then given back by the abort
                create(tx, NODES, 10_000);
                tx.abort();
            }
            FaultCounters before = s.storageManager().faultCounters();
            try (ObjectTransaction tx = s.begin()) {
                again = create(tx, NODES, 20_000);
                tx.commit();
            }
            FaultCounters after = s.storageManager().faultCounters();
            assertEquals(pages, s.storageManager().pageCount(), "the freed pages were allocated again");
            if (detection == WriteDetection.PAGE_PROTECTION) {
                assertTrue(
                        after.writeAheadFrames() - before.writeAheadFrames() >= 4,
                        "the reused pages after the second were made writable ahead: " + before + " -> " + after);
            }
            try (ObjectTransaction tx = s.begin()) {
                check(tx, again, 20_000);
            }
            assertTrue(s.storageManager().verify().ok());
        }
        try (PersistentStore s = PersistentStore.open(db, o, ListNode.class);
                ObjectTransaction tx = s.begin()) {
            check(tx, again, 20_000);
            assertTrue(s.storageManager().verify().ok());
        }
    }
}
