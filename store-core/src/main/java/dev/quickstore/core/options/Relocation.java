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
 * </ul>
 */
public enum Relocation {
    CONTINUAL,
    ONE_TIME
}
