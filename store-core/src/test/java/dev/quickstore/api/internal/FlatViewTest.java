package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link FlatView}, the generated accessors' loads and stores: arena addresses land on the bound segment's bytes
 * (its native address differs from the arena base, as the copying view's does), every binding is followed by
 * code compiled against the previous one, and an access that is not wholly inside the bound view (one byte past
 * the end, before the start, unbound) throws before touching memory.
 */
class FlatViewTest {
    private static final long BASE = 0x10_0000_0000L;
    private static final int BYTES = 4096;
    private static final int WORDS = BYTES / 8;

    private static long sum(long base) {
        long s = 0;
        for (int i = 0; i < WORDS; i++) {
            s += FlatView.getLong(base + 8L * i);
        }
        return s;
    }

    @Test
    void accessesLandOnTheBoundSegmentAtItsArenaAddresses() {
        Object owner = new Object();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(BYTES, 4096);
            View.bind(owner, seg, BASE, 8192);
            try {
                SplittableRandom r = new SplittableRandom(13);
                for (int i = 0; i < 2_000; i++) {
                    long off = r.nextInt(BYTES / 8) * 8L;
                    long v = r.nextLong();
                    switch (i % 4) {
                        case 0 -> {
                            FlatView.setLong(BASE + off, v);
                            assertEquals(v, seg.get(JAVA_LONG, off));
                            assertEquals(v, FlatView.getLong(BASE + off));
                        }
                        case 1 -> {
                            FlatView.setInt(BASE + off + 4, (int) v);
                            assertEquals((int) v, seg.get(JAVA_INT, off + 4));
                            assertEquals((int) v, FlatView.getInt(BASE + off + 4));
                        }
                        case 2 -> {
                            seg.set(JAVA_SHORT, off + 6, (short) v);
                            assertEquals((short) v, FlatView.getShort(BASE + off + 6));
                            FlatView.setByte(BASE + off + 7, (byte) v);
                            assertEquals((byte) v, seg.get(JAVA_BYTE, off + 7));
                        }
                        default -> {
                            double d = Double.longBitsToDouble(v);
                            FlatView.setDouble(BASE + off, d);
                            assertEquals(v, seg.get(JAVA_LONG, off));
                            assertEquals(
                                    Double.doubleToRawLongBits(d),
                                    Double.doubleToRawLongBits(FlatView.getDouble(BASE + off)));
                            assertEquals(d, seg.get(JAVA_DOUBLE, off));
                        }
                    }
                }
            } finally {
                View.unbind(owner);
            }
        }
    }

    @Test
    void accessesOutsideTheViewAreRefusedToTheLastByte() {
        Object owner = new Object();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(BYTES, 4096);
            seg.set(JAVA_LONG, BYTES - 8, 0x0102030405060708L);
            View.bind(owner, seg, BASE, 8192);
            try {
                long end = BASE + BYTES;
                assertEquals(0x0102030405060708L, FlatView.getLong(end - 8));
                assertEquals(0x01020304, FlatView.getInt(end - 4));
                assertEquals(0x01, FlatView.getByte(end - 1));
                assertEquals(0, FlatView.getLong(BASE));
                IndexOutOfBoundsException e =
                        assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getLong(end - 4));
                assertTrue(e.getMessage().contains("0x" + Long.toHexString(end - 4)), e.getMessage());
                assertTrue(e.getMessage().contains("outside the bound view"), e.getMessage());
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getInt(end - 2));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getByte(end));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getByte(BASE - 1));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getLong(0));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.setLong(end, 1));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getLong(Long.MIN_VALUE));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getLong(Long.MAX_VALUE));
                assertEquals(0x0102030405060708L, seg.get(JAVA_LONG, BYTES - 8), "a refused store wrote nothing");
            } finally {
                View.unbind(owner);
            }
        }
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getLong(BASE));
        assertTrue(e.getMessage().contains("no store is bound"), e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> FlatView.getByte(0));
    }

    /**
     * A cursor's arrival check ({@code tagOf}, {@code checkObject}) covers the object's whole layout: an object
     * ending at the view's last byte is accepted, one crossing it by a byte (whose first word is inside) refused;
     * the unchecked {@code ...In} loads then land on the bound segment's bytes (native address != arena base).
     */
    @Test
    void theArrivalCheckCoversTheWholeObjectAndTheInLoadsLandOnTheSegment() {
        Object owner = new Object();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(BYTES, 4096);
            View.bind(owner, seg, BASE, 8192);
            try {
                long end = BASE + BYTES;
                seg.set(JAVA_INT, BYTES - 40, 0x5eed);
                seg.set(JAVA_LONG, BYTES - 8, 0x0102030405060708L);
                seg.set(JAVA_SHORT, BYTES - 12, (short) 0x0a0b);
                seg.set(JAVA_DOUBLE, BYTES - 24, 2.5);
                seg.set(JAVA_BYTE, BYTES - 13, (byte) 0x7f);
                assertEquals(0x5eed, FlatView.tagOf(end - 40, 40));
                FlatView.checkObject(end - 40, 40);
                assertEquals(0x0102030405060708L, FlatView.getLongIn(end - 8));
                assertEquals(0x01020304, FlatView.getIntIn(end - 4));
                assertEquals((short) 0x0a0b, FlatView.getShortIn(end - 12));
                assertEquals((char) 0x0a0b, FlatView.getCharIn(end - 12));
                assertEquals((byte) 0x7f, FlatView.getByteIn(end - 13));
                assertEquals(2.5, FlatView.getDoubleIn(end - 24));
                assertEquals(Float.intBitsToFloat(0x01020304), FlatView.getFloatIn(end - 4));
                assertEquals(0x5eed, FlatView.getInt(end - 40), "the first word of the crossing object is inside");
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.tagOf(end - 39, 40));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.checkObject(end - 39, 40));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.tagOf(BASE - 8, 16));
                assertThrows(IndexOutOfBoundsException.class, () -> FlatView.tagOf(0, 8));
            } finally {
                View.unbind(owner);
            }
        }
        assertThrows(IndexOutOfBoundsException.class, () -> FlatView.tagOf(BASE, 8), "unbound");
    }

    @Test
    void compiledReadsFollowEveryBinding() {
        Object owner = new Object();
        long base2 = 0x20_0000_0000L;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment one = arena.allocate(BYTES, 8).fill((byte) 0);
            MemorySegment two = arena.allocate(BYTES, 8).fill((byte) 0);
            for (int i = 0; i < WORDS; i++) {
                one.setAtIndex(JAVA_LONG, i, 1);
                two.setAtIndex(JAVA_LONG, i, 2);
            }
            View.bind(owner, one, BASE, 8192);
            try {
                for (int round = 0; round < 200; round++) { // enough calls for C1 and C2 to compile sum
                    assertEquals(WORDS, sum(BASE), "round " + round + " on the first binding");
                    View.rebind(owner, two); // the copying view grows: same base, new segment
                    assertEquals(2L * WORDS, sum(BASE), "round " + round + " after rebind");
                    View.unbind(owner);
                    assertThrows(IndexOutOfBoundsException.class, () -> sum(BASE), "unbound view");
                    View.bind(owner, one, base2, 8192); // another store at another base
                    assertEquals(WORDS, sum(base2), "round " + round + " on the second store");
                    assertThrows(IndexOutOfBoundsException.class, () -> sum(BASE), "the old base");
                    View.unbind(owner);
                    View.bind(owner, one, BASE, 8192);
                }
            } finally {
                View.unbind(owner);
            }
        }
    }
}
