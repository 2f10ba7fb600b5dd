package dev.quickstore.core.buffer;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.KernelTracking;
import java.util.Arrays;

/**
 * Kernel write tracking ({@link WriteDetection#KERNEL_TRACKING}; the native side is {@code qs_kwp.c}, the arena's
 * {@link KernelTracking}): page protection until a page's first commit, after which the page stays writable with a
 * twin and the kernel records its stores (Hosking and Moss, "Lightweight write detection and checkpointing for
 * fine-grained persistence", 1995, section 3: their "pages" scheme, whose per-page cost - a fault at the first
 * write and a write-protect at every checkpoint - is what the kernel's asynchronous write-protection removes).
 * No write barrier (the object API's table is page protection's); the dirty set is completed by {@link
 * MappedFrames#dirtyPages} (a collect before commit and abort) and the twins are refreshed by commit ({@code
 * DetachedPreimages.keepAsTwin}).
 *
 * <p>A store outside a transaction to a page with a twin takes no fault (page protection refuses it at once): when
 * the next transaction {@linkplain #begin begins}, such stores are undone from the twins and the begin fails naming
 * the pages, so nothing written outside a transaction is ever logged.
 */
public final class KernelDetection extends NoBarrier {
    private final MappedFrames frames;

    public KernelDetection(MappedFrames frames) {
        this.frames = frames;
    }

    /**
     * Selects kernel tracking on {@code frames}' arena before any page is resident.
     *
     * @throws UnsupportedOperationException naming the reason when this kernel or process cannot track writes
     */
    public static void select(MappedFrames frames, StoreOptions options) {
        String why = KernelTracking.unavailableReason();
        if (why != null) {
            throw new UnsupportedOperationException("write detection KERNEL_TRACKING (qs.writeDetection=kernel): " + why
                    + "; use PAGE_PROTECTION (the default) or CARD_MARKING");
        }
        frames.arena().kernelTracking().select();
    }

    @Override
    public WriteDetection detection() {
        return WriteDetection.KERNEL_TRACKING;
    }

    @Override
    public long marks() {
        return 0;
    }

    /**
     * Undoes stores made outside a transaction to pages with a twin, and refuses to begin if there were any.
     *
     * @throws StoreException naming the pages whose stores were undone
     */
    @Override
    public void begin() {
        long[] strays = frames.arena().kernelTracking().restoreStrays();
        if (strays.length > 0) {
            long[] pages = new long[strays.length];
            for (int k = 0; k < strays.length; k++) {
                pages[k] = frames.pageOfFrame(strays[k]);
            }
            throw new StoreException("stores outside a transaction to page(s) " + Arrays.toString(pages)
                    + (strays.length == KernelTracking.NAMED ? " and maybe more" : "")
                    + " were undone: under kernel write tracking such a store is found when the next transaction"
                    + " begins, and this transaction did not begin; begin again");
        }
    }
}
