package dev.quickstore.core.options;

import dev.quickstore.core.buffer.PlacementFile;

/**
 * What happens when pages cannot live at the addresses their pointers were stored with
 * (docs/architecture-core.md, "Relocation"; White and DeWitt 1994, section 5.5).
 *
 * <ul>
 *   <li>{@link #CONTINUAL} (QS-CR, default): pointers are translated on every load by the fault path and
 *       translated back before a page is diffed, logged or written; the disk keeps the original
 *       addresses.</li>
 *   <li>{@link #ONE_TIME} (QS-OR): the placement is committed ({@link PlacementFile}, written at the open
 *       that relocates) and every page a transaction translated is committed with the new addresses, so
 *       later loads (and later opens) need no translation for it; the first transaction pays for writing
 *       the pages.</li>
 *   <li>{@link #TEXAS}: Texas mode (Kakkad and Wilson 1999, section 3; docs/texas-mode.md): slotted pages store
 *       their references as persistent pointers (page id + offset, {@code dev.quickstore.mmu.TexasPointers});
 *       frames are not placed in advance but reserved by the fault path, one step ahead, for every page a
 *       faulted page refers to, and every pointer is swizzled to its frame's address when its page is loaded.
 *       Recorded in the volume header at creation: a Texas store opens only with TEXAS, and TEXAS only opens a
 *       Texas store (FramesMode.MAPPED, no page server).</li>
 * </ul>
 */
public enum Relocation {
    CONTINUAL,
    ONE_TIME,
    TEXAS
}
