package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.BitSet;

/**
 * Pointer relocation at fault time ({@code qs_xlate.c}; White and DeWitt, "QuickStore", SIGMOD 1994,
 * section 3.4, and Texas's swizzling at page-fault time, Kakkad and Wilson 1999): when a page marked for
 * relocation is loaded, the fault path rewrites its pointer words through a translation table before the
 * application sees the page. One per {@link MappedArena} ({@link MappedArena#translation()}).
 */
public final class PointerTranslation {
    private final MappedArena arena;
    private final long handle;

    PointerTranslation(MappedArena arena, long handle) {
        this.arena = arena;
        this.handle = handle;
    }

    /**
     * Registers a translation table: a pointer value v in [lo[k], hi[k]) becomes v + delta[k] when a
     * relocated page is loaded. Ranges must be non-empty and disjoint. Returns the table id.
     */
    public int addTable(long[] lo, long[] hi, long[] delta) {
        if (lo.length != hi.length || lo.length != delta.length) {
            throw new IllegalArgumentException("lo, hi and delta must have the same length");
        }
        return Downcall.checkedInt(
                "qs_xlate_table_add",
                () -> "adding a translation table (ranges must be non-empty and disjoint)",
                () -> {
                    try (Arena tmp = Arena.ofConfined()) {
                        return (int) NativeCalls.XlateTableAdd.H.invokeExact(
                                handle,
                                tmp.allocateFrom(JAVA_LONG, lo),
                                tmp.allocateFrom(JAVA_LONG, hi),
                                tmp.allocateFrom(JAVA_LONG, delta),
                                lo.length);
                    }
                });
    }

    /**
     * Declares that a non-resident frame's page must be relocated when loaded: bit k of {@code pointerWords}
     * set = the little-endian 8-byte word at offset 8k is a pointer translated through table {@code table};
     * {@code table < 0} removes the relocation.
     */
    public void setRelocation(long frame, BitSet pointerWords, int table) {
        int frameSize = arena.frameSize();
        if (pointerWords.length() > frameSize / 8) {
            throw new IllegalArgumentException("pointer map has bits beyond the frame's " + frameSize / 8 + " words");
        }
        byte[] bits = Arrays.copyOf(pointerWords.toByteArray(), frameSize / 64);
        Downcall.checkedInt("qs_frame_set_relocation", () -> "setting the relocation of frame " + frame, () -> {
            try (Arena tmp = Arena.ofConfined()) {
                return (int) NativeCalls.FrameSetRelocation.H.invokeExact(
                        handle, frame, tmp.allocateFrom(JAVA_BYTE, bits), table);
            }
        });
    }
}
