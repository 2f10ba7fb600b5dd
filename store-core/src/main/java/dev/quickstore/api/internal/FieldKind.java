package dev.quickstore.api.internal;

/** Field kinds; names and sizes must match the processor's {@code dev.quickstore.processor.Kind}. */
public enum FieldKind {
    BYTE(1),
    SHORT(2),
    CHAR(2),
    INT(4),
    LONG(8),
    FLOAT(4),
    DOUBLE(8),
    BOOLEAN(1),
    /** {@code @Chars(n)}: n ISO-8859-1 bytes in the object, zero-padded. */
    CHARS(-1),
    /** 8-byte address of an out-of-line text blob (0 = null). */
    STRING(8),
    /** 8-byte address of an out-of-line byte blob (0 = null). */
    BYTES(8),
    /** 8-byte virtual address of another persistent object (0 = null). */
    REF(8),
    /** 8-byte address of an out-of-line reference array ({@link RefArray}, 0 = empty list). */
    LIST(8),
    /** 8-byte address of a {@link RefArray} of distinct references (0 = empty set), {@code java.util.Set}. */
    SET(8),
    /** 8-byte address of a {@link RefArray} of references, duplicates allowed (0 = empty bag), {@code Collection}. */
    BAG(8);

    private final int size;

    FieldKind(int size) {
        this.size = size;
    }

    /** Bytes in the object (CHARS: per field). */
    public int size() {
        return size;
    }

    /** Whether the field holds an address (and so is in the page's pointer map). */
    public boolean pointer() {
        return this == STRING || this == BYTES || this == REF || this == LIST || this == SET || this == BAG;
    }
}
