package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.verify.VerifyReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/** What the tests of a B+tree's kept leaves share: a tree's pages, and a power cut followed by recovery. */
final class KeptLeafFixture {
    private KeptLeafFixture() {}

    /** The pages of index {@code name}'s tree (meta page and nodes), after its structural check passed. */
    static Set<Long> treePages(Store s, String name) {
        return s.run(() -> {
            Set<Long> pages = new HashSet<>();
            VerifyReport r = new VerifyReport();
            s.roots.index(name, false).check(r, pages);
            assertTrue(r.ok(), r.toString());
            return pages;
        });
    }

    /** What a test checks in the store recovered after the power cut. */
    interface Recovered {
        void check(Store recovered) throws Exception;
    }

    /** A store of 4 KiB pages on {@link FaultInjectingFileIO}, and what opening it after a power cut needs. */
    record CutStore(FaultInjectingFileIO fs, Path db, StoreOptions opts, Store store) {
        static CutStore create(StoreOptions opts) throws IOException {
            FaultInjectingFileIO fs = new FaultInjectingFileIO();
            Path db = Path.of("/mem/db");
            Store.create(fs, db, 4096, opts).close();
            return new CutStore(fs, db, opts, Store.open(fs, db, opts));
        }

        /**
         * Cuts the power under the store ({@link FaultInjectingFileIO#crash}: no checkpoint, no write-back), opens it
         * again, runs {@code check} and {@link Store#verify} on it, and releases the crashed store's arena.
         */
        void afterPowerCut(SplittableRandom rnd, Recovered check) throws Exception {
            fs.crash(rnd);
            try (Store r = Store.open(fs, db, opts)) {
                check.check(r);
                assertTrue(r.verify().ok());
            }
            try {
                store.close(); // the crashed store's arena, which later tests in this JVM would find in their way
            } catch (IOException e) {
                // its files died with the power cut; the arena is released all the same
            }
        }
    }
}
