package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The small-database contract on QS-cards: the mapped store with card marking instead of page protection
 * (every operation must agree with the heap, as on {@code qs}), plus: T2's updates take no write fault, are
 * committed by card diffs and survive close and reopen.
 */
class CardsOo7StoreTest extends MappedOo7Contract {
    static final StoreOptions CARDS = StoreOptions.defaults().withWriteDetection(WriteDetection.CARD_MARKING);

    @Override
    StoreOptions options() {
        return CARDS;
    }

    @Test
    void t2UpdatesTakeNoWriteFaultAreCommittedByCardsAndSurviveReopen() throws IOException {
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        assertEquals("qs-cards", store.name());
        Path dir = store.dir();
        Map<String, Long> before = store.counters();
        assertEquals(
                43_740,
                ops(store, new Oo7Operations.Parameters(Oo7Operations.T2Update.INCREMENT, 10, 5))
                        .run(Oo7Operation.T2B));
        Map<String, Long> after = store.counters();
        assertEquals(0, after.get("writeFaults"), "card marking: no write fault, ever: " + after);
        assertTrue(after.get("commitCardPages") > before.get("commitCardPages"), "T2b's pages diffed by cards");
        assertTrue(after.get("cardMarks") > before.get("cardMarks"));
        String digest = digest(store);
        store.close();
        last = null;
        try (MappedOo7Store reopened = MappedOo7Store.open(dir, false, CARDS)) {
            assertEquals(digest, digest(reopened), "T2b's updates survived close and reopen");
        }
    }
}
