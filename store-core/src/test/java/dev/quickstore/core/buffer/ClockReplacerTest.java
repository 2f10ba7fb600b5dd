package dev.quickstore.core.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The second-chance clock of FramesMode.EXPLICIT and SOFTWARE: a page referenced since the hand passed survives
 * the hand once; in software mode a page whose frame reference bit was set by the residency check's
 * out-of-line resolution ({@code SwizzlingFrames.takeReference}) gets that second chance too, and the bit is
 * consumed by it.
 */
class ClockReplacerTest {
    private static ClockReplacer ringOf(ClockReplacer c, long... pages) {
        for (long p : pages) {
            c.add(p);
        }
        return c;
    }

    @Test
    void withoutFrameBitsTheFirstPageUnreferencedSinceTheHandPassedIsTheVictim() {
        ClockReplacer c = ringOf(new ClockReplacer(), 1, 2, 3, 4);
        assertEquals(1, c.victim(p -> true), "all referenced once: the hand clears them and comes back to 1");
        c.remove(1);
        c.add(2); // referenced again
        assertEquals(3, c.victim(p -> true));
    }

    @Test
    void aPageWhoseFrameBitIsSetGetsASecondChanceAndTheBitIsConsumed() {
        Set<Long> frameBits = new HashSet<>(Set.of(1L));
        ClockReplacer c = ringOf(new ClockReplacer(frameBits::remove), 1, 2, 3, 4);
        assertEquals(2, c.victim(p -> true), "page 1 was used through the residency check: 2 goes instead");
        assertTrue(frameBits.isEmpty(), "the hand read and cleared the frame bit");
        c.remove(2);
        frameBits.add(1L);
        assertEquals(1, c.victim(p -> p == 1), "a frame bit is a second chance, not a pin");
        assertTrue(frameBits.isEmpty());
    }

    @Test
    void aVictimIsFoundEvenWhenEveryPageHasBothBitsSet() {
        Set<Long> frameBits = new HashSet<>(Set.of(1L, 2L, 3L));
        ClockReplacer c = ringOf(new ClockReplacer(frameBits::remove), 1, 2, 3);
        assertEquals(1, c.victim(p -> true), "three sweeps: ring bits, frame bits, then a victim");
        assertEquals(-1, ringOf(new ClockReplacer(p -> true), 5, 6).victim(p -> true), "bits that never clear");
    }
}
