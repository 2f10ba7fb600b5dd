package dev.quickstore.core.options;

/**
 * How application stores through {@code Store.view()} are detected (MAPPED mode; docs/architecture-core.md,
 * "Write detection"; Hosking and Moss 1993).
 *
 * <ul>
 *   <li>{@link #PAGE_PROTECTION} (default, QuickStore): clean resident pages are mapped READ; the first store
 *       to a page takes a write fault whose C handler captures the pre-image; commit diffs every dirty page
 *       and write-protects it again.</li>
 *   <li>{@link #CARD_MARKING}: clean resident pages are mapped READ|WRITE (no write faults); every write of
 *       the object API calls a software barrier ({@code View.mark}) that marks the 2^k-byte card it writes
 *       and, on a page's first mark in the transaction, captures the pre-image. Commit diffs only the dirty
 *       cards and does not write-protect. A store through the view that bypasses the barrier is not
 *       detected (not logged).</li>
 * </ul>
 * The default can be changed with the system property {@code qs.writeDetection} ({@code cards} or
 * {@code pages}), the card size with {@code qs.cardBytes} (a power of two, default 512).
 */
public enum WriteDetection {
    PAGE_PROTECTION,
    CARD_MARKING;
}
