package dev.quickstore.jmh.oo7;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The systems the OO7 benchmarks compare, by their {@code system} parameter: {@code heap} (plain Java objects),
 * {@code qs} (the mapped store, page protection), {@code qs-cards} (card marking) and {@code qs-b} (QS-B: every
 * object padded to the size an OID-based layout needs, White and DeWitt 1994 section 4). A mapped store is created
 * empty in a new directory under {@code qs.bench.dir} (default: the temporary directory), which the caller deletes.
 */
final class Oo7Systems {
    private Oo7Systems() {}

    /** An empty store of {@code system}; {@code dir} is where a mapped store goes (not yet existing), else unused. */
    static Oo7Store create(String system, Path dir, int poolPages) throws IOException {
        if (system.equals("heap")) {
            return new HeapOo7Store();
        }
        if (!isMapped(system)) {
            throw new IllegalArgumentException("system " + system + ": heap, qs, qs-cards or qs-b");
        }
        StoreOptions options = StoreOptions.defaults();
        if (poolPages > 0) {
            options = options.withBufferPoolPages(poolPages);
        }
        if (system.equals("qs-cards")) {
            options = options.withWriteDetection(WriteDetection.CARD_MARKING);
        }
        ObjectPadding padding = system.equals("qs-b") ? ObjectPadding.OID_LAYOUT : ObjectPadding.NONE;
        return MappedOo7Store.create(dir, false, options, padding);
    }

    /** Whether {@code system} is one of the mapped stores (it needs a directory). */
    static boolean isMapped(String system) {
        return system.equals("qs") || system.equals("qs-cards") || system.equals("qs-b");
    }

    /** A path for a new store under {@code qs.bench.dir}: a fresh name, nothing there yet (the store creates it). */
    static Path newStoreDir(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(
                Path.of(System.getProperty("qs.bench.dir", System.getProperty("java.io.tmpdir"))), prefix);
        Files.delete(dir);
        return dir;
    }
}
