package dev.quickstore.api.internal;

import dev.quickstore.core.CopyView;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.FramesMode;
import java.lang.foreign.MemorySegment;

/**
 * The small seam between the object API and the mechanism that makes a store's objects addressable: in
 * MAPPED mode (the default) {@code Store.view()} (pages faulted in by the MMU, pre-images captured by write
 * faults or the card barrier); in EXPLICIT mode a {@link CopyView} (pages copied in, objects diffed back at
 * commit). Either way the process-wide {@link View} is bound to its segment for as long as the store is open.
 */
public interface AppView extends AutoCloseable {
    /** A small object was allocated (its bytes must read as zero). */
    void allocated(long ref, int size);

    /** A large object was allocated (its data must read as zero). */
    void allocatedLarge(long ref, long size);

    /**
     * A small object of {@code size} bytes was freed by the storage manager: its bytes must read as zero through
     * the view, as in the store's page, so that a reference left to it fails its type check (tag 0).
     */
    void deleted(long ref, int size);

    /** Inside the transaction, just before its commit: make the view's changes part of it. */
    void beforeCommit(Transaction tx);

    /** After an abort: the view must show the store's (restored) contents again. */
    void afterAbort();

    /** Throws a typed exception when an access was refused since the last check (a fault could not be served). */
    void checkPending();

    /** Unbinds the process view. */
    @Override
    void close();

    /**
     * The store's own application view ({@code Store.view()}, MAPPED mode: pages faulted in by the MMU, write
     * faults capture pre-images) when it has one, else the copying view (FramesMode.EXPLICIT).
     */
    static AppView of(Object owner, Store store) {
        if (store.options().frames() == FramesMode.SOFTWARE) {
            return new Software(owner, store);
        }
        MemorySegment mapped;
        try {
            mapped = store.view();
        } catch (StoreException explicitMode) {
            return copying(owner, store);
        }
        return new Mapped(owner, store, mapped);
    }

    /** The MMU-driven view: nothing to copy, announce or write back; refused faults are checked at commit. */
    final class Mapped implements AppView {
        private final Object owner;
        private final Store store;

        Mapped(Object owner, Store store, MemorySegment view) {
            this.owner = owner;
            this.store = store;
            View.bind(owner, view, store.arenaBase(), store.pageSize());
            // card marking: the barrier of every object-API write marks the store's card table
            View.bindBarrier(
                    owner,
                    store.cardTable(),
                    store.arenaBase(),
                    store.cardShift(),
                    store::markCard,
                    store.barrierTakesRanges() ? store::markRange : null);
            // page protection: a large object's pages are made writable together before a splice writes them
            View.bindAnnouncer(owner, store::announceWrites);
        }

        @Override
        public void allocated(long ref, int size) {
            // the storage manager zero-fills new objects in the page the view maps
        }

        @Override
        public void allocatedLarge(long ref, long size) {
            // idem
        }

        @Override
        public void deleted(long ref, int size) {
            // the view maps the page in which the storage manager zero-filled the object (SlottedPage.freeSlot)
        }

        @Override
        public void beforeCommit(Transaction tx) {
            // stores through the view were captured by write faults or the card barrier; commit diffs them
        }

        @Override
        public void afterAbort() {
            // abort restored the pages the view maps
        }

        @Override
        public void checkPending() {
            store.checkPending();
        }

        @Override
        public void close() {
            View.unbind(owner);
        }
    }

    /**
     * Software persistence (FramesMode.SOFTWARE, docs/software-mode.md): the generated {@code $Soft} classes
     * read the store's frame region through {@link SoftView}; writes are marked by their software barrier, so
     * there is nothing to copy, announce or write back here.
     */
    final class Software implements AppView {
        private final Object owner;

        Software(Object owner, Store store) {
            this.owner = owner;
            SoftView.bind(owner, store.swizzler(), store.arenaBase(), store.pageSize());
        }

        @Override
        public void allocated(long ref, int size) {
            // the storage manager zero-fills new objects in their frame
        }

        @Override
        public void allocatedLarge(long ref, long size) {
            // idem
        }

        @Override
        public void deleted(long ref, int size) {
            // idem: the frame holds the page the storage manager changed
        }

        @Override
        public void beforeCommit(Transaction tx) {
            // every store went through Swizzler.markWrite: the pages are dirty with disk-form pre-images
        }

        @Override
        public void afterAbort() {
            // abort restored the frames' pages (OIDs); they are swizzled again lazily
        }

        @Override
        public void checkPending() {
            // explicit page reads: nothing is ever refused
        }

        @Override
        public void close() {
            SoftView.unbind(owner);
        }
    }

    /** The copying view over {@code store}, bound to {@link View} on behalf of {@code owner}. */
    static AppView copying(Object owner, Store store) {
        return new Copying(owner, store);
    }

    /** See {@link CopyView}. */
    final class Copying implements AppView {
        private final Object owner;
        private final CopyView copy;

        Copying(Object owner, Store store) {
            this.owner = owner;
            this.copy = CopyView.attach(store);
            View.bind(owner, copy.segment(), copy.base(), store.pageSize());
        }

        private void rebind() {
            View.rebind(owner, copy.segment());
        }

        @Override
        public void allocated(long ref, int size) {
            copy.allocated(ref, size);
            rebind();
        }

        @Override
        public void allocatedLarge(long ref, long size) {
            copy.allocatedLarge(ref, size);
            rebind();
        }

        @Override
        public void deleted(long ref, int size) {
            copy.freed(ref, size);
        }

        @Override
        public void beforeCommit(Transaction tx) {
            copy.writeBack(tx);
        }

        @Override
        public void afterAbort() {
            copy.reload();
            rebind();
        }

        @Override
        public void checkPending() {
            // a copy serves every access: nothing is ever refused
        }

        @Override
        public void close() {
            View.unbind(owner);
        }
    }
}
