package dev.quickstore.lab.cricket;

/**
 * The numbers of Shekita and Zwilling, "Cricket: A Mapped, Persistent Object Store" (1990), section 6, measured on
 * a DEC MicroVax 3200 (16 MB, Mach 2.5, 4 KB pages), that the lab prints beside its own.
 */
public final class CricketPaper {
    private CricketPaper() {}

    /** Table 4, non-persistent tree: one depth-first pass over the 16,105 nodes, ms. */
    public static final double HEAP_ONE_PASS_MS = 789;

    /** Table 4, non-persistent tree: two passes, ms. */
    public static final double HEAP_TWO_PASSES_MS = 1599;

    /** Table 4, Cricket: one pass (every page faulted and its exception handled once), ms. */
    public static final double CRICKET_ONE_PASS_MS = 5680;

    /** Table 4, Cricket: two passes, ms. */
    public static final double CRICKET_TWO_PASSES_MS = 6515;

    /** Table 4, EXODUS Storage Manager (ReadObject/ReleaseObject per node): one pass, ms. */
    public static final double EXODUS_ONE_PASS_MS = 6230;

    /** Table 4, EXODUS: two passes, ms. */
    public static final double EXODUS_TWO_PASSES_MS = 12467;

    /** Table 3 (4): first access to a page cached in kernel memory (page fault + address exception), us. */
    public static final double FAULT_CACHED_US = 3605;

    /** Table 3 (5): first access to a page not cached in kernel memory (+ data request/provided), us. */
    public static final double FAULT_UNCACHED_US = 6845;

    /** Table 3 (1): a page fault handled completely in the kernel, us. */
    public static final double KERNEL_FAULT_US = 420;

    /** Pages of the paper's tree. */
    public static final int TREE_PAGES = 1343;
}
