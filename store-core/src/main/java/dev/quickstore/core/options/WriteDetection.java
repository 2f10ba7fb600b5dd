package dev.quickstore.core.options;

/**
 * How application stores through {@code Store.view()} are detected (MAPPED mode; docs/architecture-core.md,
 * "Write detection"). The five schemes of Hosking and Moss, "Lightweight write detection and checkpointing for
 * fine-grained persistence" (Purdue TR 1995, section 3, Table I; hosking-moss-write-detection.txt): pages,
 * cards, objects, remsets and scan. All five log the same page-diff REDO records (the log, recovery and the
 * files do not depend on the scheme); they differ in what the barrier records and how much commit compares.
 *
 * <ul>
 *   <li>{@link #PAGE_PROTECTION} (default, QuickStore; the paper's "pages"): clean resident pages are mapped
 *       READ; the first store to a page takes a write fault whose C handler captures the pre-image; commit diffs
 *       every dirty page and write-protects it again.</li>
 *   <li>{@link #CARD_MARKING} ("cards"): clean resident pages are mapped READ|WRITE (no write faults); every
 *       write of the object API calls a software barrier ({@code View.mark}) that marks the 2^k-byte card it
 *       writes and, on a page's first mark in the transaction, captures the pre-image. Commit diffs only the
 *       dirty cards and does not write-protect. A store through the view that bypasses the barrier is not
 *       detected (not logged).</li>
 *   <li>{@link #OBJECT_MARKING} ("objects"): the barrier marks the object it writes to (the object found by
 *       the page's slot array; a per-page bitmap of 8-byte granules is its "dirty bit"); commit diffs only the
 *       marked objects against their pre-images. No write faults; the same barrier-bypass caveat as cards.</li>
 *   <li>{@link #REMEMBERED_SETS} ("remsets"): the barrier records the 8-byte word it writes in a sequential
 *       store buffer, drained into a hash set that drops duplicates; commit diffs exactly those words. No write
 *       faults; the same caveat.</li>
 *   <li>{@link #SCANNING} ("scan", the paper's worst case): no barrier and no write fault on resident pages:
 *       every resident page gets a pre-image when the transaction begins or when a fault loads it, and commit
 *       diffs every resident page.</li>
 *   <li>{@link #KERNEL_TRACKING} ("kernel", a sixth scheme; Linux 6.7 or later): page protection until a page's
 *       first commit, after which the page stays writable with a twin (its image as logged) and the kernel records
 *       its stores (userfaultfd write-protection, asynchronous mode: no signal, no {@code mprotect}); commit asks
 *       {@code PAGEMAP_SCAN} which pages were written, diffs those against their twins and refreshes the twins. No
 *       barrier: every store through the view is detected, as under page protection. Costs a twin (one page of
 *       memory) per committed resident page. A store outside a transaction to such a page is not refused at once:
 *       the next {@code begin} undoes it and fails (docs/architecture-core.md, "Write detection").</li>
 * </ul>
 * The default can be changed with the system property {@code qs.writeDetection} ({@code pages}, {@code cards},
 * {@code objects}, {@code remsets}, {@code scan} or {@code kernel}), the card size with {@code qs.cardBytes} (a power of two,
 * default 512).
 */
public enum WriteDetection {
    PAGE_PROTECTION,
    CARD_MARKING,
    OBJECT_MARKING,
    REMEMBERED_SETS,
    SCANNING,
    KERNEL_TRACKING;
}
