package dev.quickstore.api.internal;

/**
 * One field of a persistent type's layout.
 *
 * @param offset byte offset in the object (bytes 0..3 are the type tag)
 * @param length bytes in the object
 * @param refType qualified name of the referenced persistent interface (REF, LIST, SET, BAG), else ""
 */
public record FieldDescriptor(String name, FieldKind kind, int offset, int length, String refType) {
    public FieldDescriptor {
        if (offset < 4 || length < 1 || (kind != FieldKind.CHARS && length != kind.size())) {
            throw new IllegalArgumentException(
                    "bad field " + name + " " + kind + " at " + offset + " length " + length);
        }
    }

    /** How the catalog and error messages print the field: {@code x INT at 4 (4 bytes)}. */
    public String describe() {
        return name + " " + kind + (refType.isEmpty() ? "" : "<" + refType + ">") + " at " + offset + " (" + length
                + " bytes)";
    }
}
