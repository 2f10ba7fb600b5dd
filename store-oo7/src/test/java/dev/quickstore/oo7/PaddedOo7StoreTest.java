package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.oo7.Oo7Runner.Options;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * QS-B (White and DeWitt 1994 section 4: objects padded to the size of an OID-based layout): the same OO7
 * code builds the same database on a padded store, every operation of a round returns the heap's count, and
 * the padded database takes more pages than the unpadded one built from the same seed. (The full small
 * contract runs on the unpadded store in {@link MappedOo7StoreTest}; the padding changes allocation sizes
 * only.)
 */
class PaddedOo7StoreTest {
    @TempDir
    Path tmp;

    @Test
    void qsBHoldsTheHeapsDatabaseAnswersEveryOperationAlikeAndIsLarger() throws IOException {
        long seed = Oo7SmallContract.SEED;
        long plainPages;
        try (MappedOo7Store plain = MappedOo7Store.create(tmp.resolve("qs"), false)) {
            new Oo7Builder(Oo7Config.SMALL, seed).build(plain, Oo7Builder.Progress.NONE);
            plain.makeCold(); // a checkpoint writes the header's page count
            plainPages = plain.databasePages();
            assertEquals("qs", plain.name());
        }
        HeapOo7Store heap = HeapOo7StoreTest.buildHeap(seed);
        List<Oo7Operation> all = Oo7Runner.defaultOperations(Oo7Config.SMALL);
        Oo7Operations heapOps = Oo7SmallContract.ops(heap);
        List<Oo7Result> heapResults = new java.util.ArrayList<>(Oo7Runner.run(heapOps, new Options(all, 1, 0)));
        heapResults.addAll(Oo7Runner.run(heapOps, new Options(all, 1, 0))); // the same random choices
        try (MappedOo7Store padded = MappedOo7Store.create(tmp.resolve("qs-b"), false, ObjectPadding.OID_LAYOUT)) {
            new Oo7Builder(Oo7Config.SMALL, seed).build(padded, Oo7Builder.Progress.NONE);
            assertEquals("qs-b", padded.name());
            assertEquals(Oo7Digest.of(heap), Oo7SmallContract.digest(padded), "same database as the heap");
            padded.makeCold();
            long paddedPages = padded.databasePages();
            assertTrue(
                    paddedPages > plainPages * 5 / 4,
                    "QS-B " + paddedPages + " pages vs QS " + plainPages + ": at least 25% larger");
            List<Oo7Result> results = Oo7Runner.run(Oo7SmallContract.ops(padded), new Options(all, 1, 0));
            // a cold round (reopen, SM1 inserts padded objects again) then a hot one, each as the heap's round
            assertEquals(2 * all.size(), results.size());
            for (int i = 0; i < results.size(); i++) {
                Oo7Result r = results.get(i);
                Oo7Result h = heapResults.get(i);
                assertEquals(h.operation(), r.operation());
                assertEquals(h.count(), r.count(), r.operation() + " " + r.phase());
            }
            assertEquals(Oo7Digest.of(heap), Oo7SmallContract.digest(padded), "rounds leave both databases alike");
            assertTrue(padded.persistentStore().storageManager().verify().ok());
        }
    }
}
