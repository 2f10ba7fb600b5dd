package dev.quickstore.mmu;

/** Why the fault path refused an access (C: {@code enum qs_reason} in {@code qs_arena.h}; same codes). */
public enum RefusalReason {
    NONE("no refusal"),
    CHECKSUM("the page's CRC32C does not match its header"),
    IO("reading the page from its source failed"),
    NOT_RESERVED("the frame is not reserved for any page"),
    RELEASED("the frame was released"),
    NO_TRANSACTION("the arena is not in a transaction"),
    VMA_LIMIT("the process reached the kernel limit on memory mappings (sysctl vm.max_map_count)"),
    LOST("refusal records overflowed before they were taken"),
    PREIMAGE("no pre-image space could be mapped"),
    LOCK("the page server refused the page lock (a deadlock, or the lock wait timed out)");

    private final String description;

    RefusalReason(String description) {
        this.description = description;
    }

    /** A human-readable sentence fragment. */
    public String description() {
        return description;
    }

    static RefusalReason of(long code) {
        RefusalReason[] all = values();
        return code >= 0 && code < all.length ? all[(int) code] : LOST;
    }
}
