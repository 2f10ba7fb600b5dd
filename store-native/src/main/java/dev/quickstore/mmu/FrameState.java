package dev.quickstore.mmu;

/**
 * State of a frame (C: {@code enum qs_state}; same ordinals). LOADING and BUSY are transient: they
 * are entered and left inside one native call or one fault, never across a return to Java.
 */
public enum FrameState {
    /** No page assigned, PROT_NONE; a fault is refused. */
    FREE,
    /** Page assigned, not resident, PROT_NONE; a fault reads it. */
    RESERVED,
    /** Transient: a thread is reading the page into the frame. */
    LOADING,
    /** Resident and readable (or PROT_NONE after {@link MappedArena#reprotectAll()}). */
    CLEAN,
    /** Resident, written, pre-image captured. */
    DIRTY,
    /** Transient: a protection change or eviction is in progress. */
    BUSY,
    /** A fault was refused; a scratch page is mapped over the frame until it is reset or released. */
    REFUSED;

    private static final FrameState[] ALL = values();

    static FrameState of(int code) {
        return ALL[code];
    }
}
