package dev.quickstore.core.buffer;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * The pages pinned by the running store operation ({@link BufferPool}'s pins), without boxing: a set of page ids
 * (open addressing, linear probing, deletion by backward shift) plus the order in which pins were taken, so a
 * nested operation can release the pins it took ({@link #mark}, {@link #releaseSince}).
 *
 * <p>Why not {@code HashSet<Long>} and {@code ArrayList<Long>}: every {@link BufferPool#fix} of a page not yet
 * pinned boxed its id twice, and a JFR profile of hot OO7 Q8 after the index paths stopped allocating (docs/results.md
 * "Hot path, second landing") put the boxed pin set at a fifth of the samples.
 *
 * <p>Invariants (asserted by {@code PagePinsTest} against {@code java.util} models): the set holds exactly the page
 * ids added and not removed since the last {@link #clear}; the order list holds every successful {@link #add} since
 * the last clear, in order (a page unpinned and pinned again appears twice; releasing a page not pinned is a
 * no-op); the table is at most half full. Page ids are never {@link Long#MIN_VALUE} (the empty marker).
 */
final class PagePins {
    private static final long EMPTY = Long.MIN_VALUE;
    private static final int SMALL = 16;

    private long[] table = emptyTable(SMALL);
    private int size;
    private long[] order = new long[SMALL];
    private int orderSize;

    private static long[] emptyTable(int capacity) {
        long[] t = new long[capacity];
        Arrays.fill(t, EMPTY);
        return t;
    }

    private static int home(long pageId, int mask) {
        return (int) ((pageId * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    }

    /** Pins {@code pageId}: true if it was not pinned (then it is appended to the order). */
    boolean add(long pageId) {
        assert pageId != EMPTY;
        if ((size + 1) * 2 > table.length) {
            rehash(table.length * 2);
        }
        int mask = table.length - 1;
        int i = home(pageId, mask);
        for (long k; (k = table[i]) != EMPTY; i = (i + 1) & mask) {
            if (k == pageId) {
                return false;
            }
        }
        table[i] = pageId;
        size++;
        if (orderSize == order.length) {
            order = Arrays.copyOf(order, orderSize * 2);
        }
        order[orderSize++] = pageId;
        return true;
    }

    boolean contains(long pageId) {
        int mask = table.length - 1;
        for (int i = home(pageId, mask); ; i = (i + 1) & mask) {
            long k = table[i];
            if (k == pageId) {
                return true;
            }
            if (k == EMPTY) {
                return false;
            }
        }
    }

    /** Unpins {@code pageId}: true if it was pinned. Its entries in the order stay (releasing them is a no-op). */
    boolean remove(long pageId) {
        int mask = table.length - 1;
        int i = home(pageId, mask);
        for (long k; (k = table[i]) != pageId; i = (i + 1) & mask) {
            if (k == EMPTY) {
                return false;
            }
        }
        // backward shift: move later entries of the probe run into the gap unless their home lies after it
        int gap = i;
        for (int j = (gap + 1) & mask; table[j] != EMPTY; j = (j + 1) & mask) {
            int h = home(table[j], mask);
            boolean homeInGapToJ = gap <= j ? (h > gap && h <= j) : (h > gap || h <= j);
            if (!homeInGapToJ) {
                table[gap] = table[j];
                gap = j;
            }
        }
        table[gap] = EMPTY;
        size--;
        return true;
    }

    int size() {
        return size;
    }

    /** A position in the order: the pins taken after it are released by {@link #releaseSince}. */
    int mark() {
        return orderSize;
    }

    /** Calls {@code unpin} for the order's entries after {@code mark}, newest first, and drops them from the order. */
    void releaseSince(int mark, LongConsumer unpin) {
        while (orderSize > mark) {
            unpin.accept(order[--orderSize]);
        }
    }

    /**
     * Rewrites the order as the pinned pages, each once: a set kept across operations ({@link
     * BufferPool#endOperation}) does not let the order grow with the duplicates of pages unpinned and pinned again.
     */
    void compactOrder() {
        if (orderSize == size) {
            return; // every entry is a distinct pinned page already (the usual case)
        }
        orderSize = 0;
        for (long k : table) {
            if (k != EMPTY) {
                order[orderSize++] = k;
            }
        }
    }

    /** Calls {@code action} for every pinned page (any order). */
    void forEach(LongConsumer action) {
        for (long k : table) {
            if (k != EMPTY) {
                action.accept(k);
            }
        }
    }

    /** Unpins everything and forgets the order; a table grown by a large operation shrinks back. */
    void clear() {
        if (table.length > 64 * SMALL) {
            table = emptyTable(SMALL);
            order = new long[SMALL];
        } else if (size > 0) {
            Arrays.fill(table, EMPTY);
        }
        size = 0;
        orderSize = 0;
    }

    private void rehash(int capacity) {
        long[] old = table;
        table = emptyTable(capacity);
        int mask = capacity - 1;
        for (long k : old) {
            if (k != EMPTY) {
                int i = home(k, mask);
                while (table[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                table[i] = k;
            }
        }
    }
}
