package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quickstore.oo7.heap.HeapOo7Store;
import org.junit.jupiter.api.Test;

/** The small-database contract over the Java-heap store, plus the heap store's own transaction checks. */
class HeapOo7StoreTest extends Oo7SmallContract {
    @Override
    protected Oo7Store newStore() {
        return new HeapOo7Store();
    }

    static HeapOo7Store buildHeap(long seed) {
        HeapOo7Store store = new HeapOo7Store();
        new Oo7Builder(Oo7Config.SMALL, seed).build(store, Oo7Builder.Progress.NONE);
        return store;
    }

    @Test
    void transactionsAreBracketedAndAbortIsRefused() {
        try (HeapOo7Store store = new HeapOo7Store()) {
            assertThrows(IllegalStateException.class, store::commit);
            store.begin();
            assertThrows(IllegalStateException.class, store::begin);
            assertThrows(UnsupportedOperationException.class, store::abort);
            store.begin(); // abort ended the transaction even though it could not undo it
            store.commit();
        }
    }

    @Test
    void duplicateKeysAreRejected() {
        try (HeapOo7Store store = new HeapOo7Store()) {
            store.createCompositePart(1, "type000", 0, null);
            assertThrows(IllegalArgumentException.class, () -> store.createCompositePart(1, "type001", 0, null));
            assertThrows(IllegalArgumentException.class, () -> store.createCompositePart(2, "type0000000", 0, null));
        }
    }
}
