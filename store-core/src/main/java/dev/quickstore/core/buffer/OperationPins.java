package dev.quickstore.core.buffer;

import dev.quickstore.mmu.ReplacementClock;
import java.util.function.LongConsumer;

/**
 * The pins of the {@link BufferPool}: the pages the running store operation fixed ({@link PagePins}) and how long they
 * stay pinned. A pin keeps a frame from eviction - in Java's victim choice and, with a data-plane clock, as a hold on
 * the frame that the fault path's clock respects - so segments handed out during an operation stay valid; holding a
 * pin longer changes no content, only when a frame may be evicted. Pins end with the operation, except a few kept for
 * the next operation ({@link #endOperation}) and those of nested operations kept for the next nested one ({@link
 * #endNestedOperation}): each pin and unpin is a call into the data plane ({@code qs_frame_hold}).
 */
final class OperationPins {
    /** Pages the nested operations of one outer operation may leave pinned for each other ({@link #nestedBound}). */
    static final int NESTED_PINS = 16;

    /**
     * Pages a transaction's operation may leave pinned for the next one ({@link #endOperation}): the allocator's
     * current page, the page of the object just created, an index leaf and its meta page.
     */
    static final int RETAINED_PINS = 4;

    private final PagePins pinned = new PagePins();
    private final Replacer clock;
    private final int capacity;
    /** {@link #unpin}, bound once: a method reference made per operation's end would allocate on that path. */
    private final LongConsumer unpinEach = this::unpin;

    OperationPins(Replacer clock, int capacity) {
        this.clock = clock;
        this.capacity = capacity;
    }

    /** Pins {@code pageId} (a hold in the data plane the first time); the caller checks residency after it. */
    void pin(long pageId) {
        if (pinned.add(pageId)) {
            clock.hold(pageId, ReplacementClock.HOLD_PINNED, true);
        }
    }

    boolean contains(long pageId) {
        return pinned.contains(pageId);
    }

    void unpin(long pageId) {
        if (pinned.remove(pageId)) {
            clock.hold(pageId, ReplacementClock.HOLD_PINNED, false);
        }
    }

    void unpinAll() {
        if (clock.inDataPlane()) {
            pinned.forEach(p -> clock.hold(p, ReplacementClock.HOLD_PINNED, false));
        }
        pinned.clear();
    }

    /** A mark for {@link #releaseSince}: pins taken after it can be released together. */
    int mark() {
        return pinned.mark();
    }

    /** Unpins the pages pinned since {@code mark} (the end of a nested operation). */
    void releaseSince(int mark) {
        pinned.releaseSince(mark, unpinEach);
    }

    /** {@link #NESTED_PINS}, at most an eighth of the frames (a small pool keeps its frames evictable). */
    int nestedBound() {
        return Math.min(NESTED_PINS, capacity / 8);
    }

    /**
     * Ends a nested store operation (an index-scan visitor's lookup). While the pool holds at most {@link
     * #nestedBound()} pins, the pages it pinned stay pinned until the outer operation ends, so the next visitor's
     * lookup - typically the same meta page, root and leaf - pins nothing again: pinning and unpinning each were a
     * call into the data plane per page and lookup, a quarter of an index-nested-loops lookup (OO7 Q8, issue 13,
     * docs/results.md "fifth landing"). Beyond that bound its pins are released as {@link #releaseSince} does, so a
     * scan whose visitors touch many pages never holds more than the bound plus one operation's pins.
     */
    void endNestedOperation(int mark) {
        if (pinned.size() > nestedBound()) {
            releaseSince(mark);
        }
    }

    /**
     * Ends the outermost store operation. Inside a running transaction ({@code retain}) an operation that pinned at
     * most {@link #RETAINED_PINS} pages leaves them pinned, so the next operation - typically the next object created
     * on the same page - does not pin them again: each pin and unpin was, with the pin set's bookkeeping, a sixth of
     * the creation loop's CPU (issue #20, docs/results.md "Write path, fourth landing"). An operation that pinned
     * more, and every operation outside a running transaction (its end included), releases them all.
     */
    void endOperation(boolean retain) {
        if (retain && pinned.size() <= RETAINED_PINS) {
            pinned.compactOrder();
        } else {
            releaseSince(0);
        }
    }

    /** Pages pinned now. */
    int count() {
        return pinned.size();
    }
}
