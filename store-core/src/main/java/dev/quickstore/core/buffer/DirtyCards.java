package dev.quickstore.core.buffer;

import dev.quickstore.mmu.CardTable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The dirty cards of one page as a bit mask, read from store-native's {@link CardTable} (Hosking and Moss 1993,
 * section 3): bit k set iff card k of the page's frame is marked. With 8 cards per page one word read covers them.
 */
final class DirtyCards {
    private static final ValueLayout.OfLong CARD_WORD =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private DirtyCards() {}

    /**
     * The mask of frame {@code frame}'s marked cards, or -1 if the whole page must be taken as changed (page
     * protection, or the store dirtied the frame itself).
     */
    static long of(CardTable table, long frame, int pageSize) {
        int shift = table.shift();
        if (shift == 0 || table.dirtiedWhole(frame)) {
            return -1L;
        }
        int per = pageSize >>> shift;
        MemorySegment cards = table.bytes();
        long first = frame * per;
        long mask = 0;
        if (per == 8) {
            mask = cards.get(CARD_WORD, first) != 0 ? cardBits(cards.get(CARD_WORD, first)) : 0;
        } else {
            for (int k = 0; k < per; k++) {
                if (cards.get(ValueLayout.JAVA_BYTE, first + k) != 0) {
                    mask |= 1L << k;
                }
            }
        }
        return mask;
    }

    /** Bit k set iff byte k of {@code w} is non-zero. */
    private static long cardBits(long w) {
        long m = 0;
        for (int k = 0; k < 8; k++) {
            if (((w >>> (8 * k)) & 0xff) != 0) {
                m |= 1L << k;
            }
        }
        return m;
    }
}
