package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The small-database contract on the mapped store with one of Hosking and Moss's other write-detection schemes
 * (every operation must agree with the heap, as on {@code qs}), plus: T2B's updates survive close and reopen, and
 * the barrier schemes take no write fault.
 */
abstract class WriteDetectionOo7Contract extends MappedOo7Contract {
    abstract WriteDetection detection();

    @Override
    StoreOptions options() {
        return StoreOptions.defaults().withWriteDetection(detection());
    }

    @Test
    void t2bUpdatesSurviveReopen() throws IOException {
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        Path dir = store.dir();
        assertEquals(
                43_740,
                ops(store, new Oo7Operations.Parameters(Oo7Operations.T2Update.INCREMENT, 10, 5))
                        .run(Oo7Operation.T2B));
        Map<String, Long> after = store.counters();
        if (detection() != WriteDetection.SCANNING) {
            assertEquals(0, after.get("writeFaults"), detection() + ": no write fault: " + after);
        }
        String digest = digest(store);
        store.close();
        last = null;
        try (MappedOo7Store reopened = MappedOo7Store.open(dir, false, options())) {
            assertEquals(digest, digest(reopened), "T2b's updates survived close and reopen");
        }
    }
}
