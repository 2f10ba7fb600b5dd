package dev.quickstore.processor;

/** Field kinds; the names and sizes must match {@code dev.quickstore.api.internal.FieldKind}. */
enum Kind {
    BYTE(1),
    SHORT(2),
    CHAR(2),
    INT(4),
    LONG(8),
    FLOAT(4),
    DOUBLE(8),
    BOOLEAN(1),
    /** Fixed-length Latin-1 text, {@code @Chars(n)}: n bytes in the object, zero-padded. */
    CHARS(-1),
    /** Variable-length text: 8-byte address of an out-of-line blob (0 = null). */
    STRING(8),
    /** Variable-length bytes: 8-byte address of an out-of-line blob (0 = null). */
    BYTES(8),
    /** Reference to another persistent object: its 8-byte virtual address (0 = null). */
    REF(8),
    /** List of references: 8-byte address of an out-of-line reference array (0 = empty). */
    LIST(8),
    /** Set of distinct references ({@code java.util.Set}): 8-byte address of a reference array (0 = empty). */
    SET(8),
    /** Bag of references, duplicates allowed ({@code java.util.Collection}): same storage as LIST. */
    BAG(8);

    final int size;

    Kind(int size) {
        this.size = size;
    }

    /** Natural alignment in the object (CHARS: 1). */
    int alignment() {
        return this == CHARS ? 1 : size;
    }

    /** Whether the field is a live collection view of references (no setter; generated per element type). */
    boolean collection() {
        return this == LIST || this == SET || this == BAG;
    }

    /** Whether the field's 8 bytes hold an address, i.e. belong in the page pointer map. */
    boolean pointer() {
        return this == STRING || this == BYTES || this == REF || collection();
    }
}
