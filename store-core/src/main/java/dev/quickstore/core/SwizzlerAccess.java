package dev.quickstore.core;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.software.Swizzler;
import dev.quickstore.core.software.SwizzlingFrames;

/**
 * Software persistence's page access over a store (FramesMode.SOFTWARE; docs/software-mode.md; {@link
 * Store#swizzler}): the {@link Swizzler}'s residency check reads a missing page through the store's buffer pool,
 * and the running transaction's first write to a page fixes it for writing there, which captures its pre-image.
 * Each access is one store operation under the latch; a write outside a transaction is refused.
 */
final class SwizzlerAccess implements Swizzler.PageAccess {
    private final Store store;
    private final SwizzlingFrames frames;

    SwizzlerAccess(Store store, SwizzlingFrames frames) {
        this.store = store;
        this.frames = frames;
    }

    @Override
    public long read(long pageId) {
        return store.run(() -> {
            store.pool.fix(pageId);
            return frames.frameOffset(pageId);
        });
    }

    @Override
    public void writing(long pageId) {
        store.run(() -> {
            if (store.running() == null) {
                throw new StoreException("store " + store.dir + ": a write to page " + pageId
                        + " outside a transaction (begin one first)");
            }
            store.pool.fixForWrite(pageId);
            return null;
        });
    }
}
