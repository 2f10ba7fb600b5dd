package dev.quickstore.oo7;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small-database contract on one configuration of the mapped store ({@link #options()}: qs, qs-cards, the
 * other write-detection schemes, e). One mapped store per process at a time (the arena and the application view
 * are process-wide), so {@link #newStore()} closes the previous one; the contract never uses two stores at once
 * (it digests one before building the next).
 */
abstract class MappedOo7Contract extends Oo7SmallContract {
    @TempDir
    Path tmp;

    /**
     * The store made last: closed by the next {@link #newStore()} and after each test; a test that closes it
     * itself sets this to null.
     */
    MappedOo7Store last;

    private int made;

    /** This configuration's options; null for {@link MappedOo7Store#create(Path, boolean)}'s own. */
    abstract StoreOptions options();

    @Override
    protected Oo7Store newStore() {
        if (last != null) {
            last.close();
        }
        try {
            Path dir = tmp.resolve("oo7-" + made++);
            last = options() == null ? MappedOo7Store.create(dir, false) : MappedOo7Store.create(dir, false, options());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return last;
    }

    @AfterEach
    void closeLast() {
        if (last != null) {
            last.close();
            last = null;
        }
    }
}
