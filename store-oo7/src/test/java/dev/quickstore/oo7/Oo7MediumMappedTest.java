package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.oo7.Oo7Operations.Parameters;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The medium database (design notes section 6) on the mapped configurations against the heap: every operation of
 * {@link Oo7MediumTest}'s sequence, in the same order with the same seeds, returns the heap's count on {@code qs}, on
 * {@code e} (software persistence, issue 15) and on {@code e} through a buffer pool a third of the database (so
 * traversals evict and unswizzle); after the sequence the databases are equal (digest) and the store verifies after
 * a reopen. Slow (a medium build per configuration), so only with {@code -Dqs.long=true}.
 */
@EnabledIfSystemProperty(named = "qs.long", matches = "true")
class Oo7MediumMappedTest {
    private static final List<Oo7Operation> SEQUENCE = List.of(
            Oo7Operation.Q7,
            Oo7Operation.T1,
            Oo7Operation.T2B,
            Oo7Operation.T3B,
            Oo7Operation.T2A,
            Oo7Operation.T3A,
            Oo7Operation.T6,
            Oo7Operation.T2C,
            Oo7Operation.T3C,
            Oo7Operation.T4,
            Oo7Operation.T8,
            Oo7Operation.T9,
            Oo7Operation.Q1,
            Oo7Operation.Q2,
            Oo7Operation.Q3,
            Oo7Operation.Q4,
            Oo7Operation.Q5,
            Oo7Operation.Q8,
            Oo7Operation.T5DO,
            Oo7Operation.T5UNDO,
            Oo7Operation.SM1,
            Oo7Operation.T1,
            Oo7Operation.SM2,
            Oo7Operation.T1);

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"qs", "e", "e-small-pool"})
    void everyOperationReturnsTheHeapsCount(String system) throws IOException {
        HeapOo7Store heap = new HeapOo7Store();
        new Oo7Builder(Oo7Config.MEDIUM, 42).build(heap, Oo7Builder.Progress.NONE);
        StoreOptions options = switch (system) {
            case "qs" -> StoreOptions.defaults();
            case "e" -> SoftwareOo7StoreTest.E;
            default -> SoftwareOo7StoreTest.E.withBufferPoolPages(2_048);
        };
        Path dir = tmp.resolve(system);
        try (MappedOo7Store built = MappedOo7Store.create(
                dir, false, system.equals("qs") ? StoreOptions.defaults() : SoftwareOo7StoreTest.E)) {
            new Oo7Builder(Oo7Config.MEDIUM, 42).build(built, Oo7Builder.Progress.NONE);
        }
        String digest;
        try (MappedOo7Store store = MappedOo7Store.open(dir, false, options)) {
            if (system.equals("e-small-pool")) {
                long pages = store.databasePages();
                assertTrue(pages > 2 * 2_048, "the database (" + pages + " pages) is larger than the pool");
            }
            Oo7Operations h = new Oo7Operations(heap, Oo7Config.MEDIUM, 7, Parameters.DEFAULTS);
            Oo7Operations m = new Oo7Operations(store, Oo7Config.MEDIUM, 7, Parameters.DEFAULTS);
            for (int i = 0; i < SEQUENCE.size(); i++) {
                Oo7Operation op = SEQUENCE.get(i);
                assertEquals(h.run(op), m.run(op), system + ": operation " + i + " " + op);
            }
            digest = Oo7SmallContract.digest(store);
        }
        assertEquals(Oo7Digest.of(heap), digest, system + ": the database equals the heap's after the sequence");
        try (MappedOo7Store reopened = MappedOo7Store.open(dir, false, options)) {
            assertEquals(digest, Oo7SmallContract.digest(reopened), system + ": the updates survived close and reopen");
            assertTrue(reopened.persistentStore().storageManager().verify().ok(), system + ": the store verifies");
        }
    }
}
