package dev.quickstore.api;

/**
 * Extra bytes allocated after the fields of every object that {@link ObjectTransaction#create} makes, and
 * after the elements of every persistent reference array, so that a store holds objects of the size an
 * OID-based layout would need: the "QS-B" system of White and DeWitt 1994 (section 4, "QuickStore with big
 * objects", and Table 2: "objects in QS-B are padded to the same size as the corresponding objects in the E
 * implementation"). The padding is never read or written by the object API: generated accessors, field
 * offsets, the type catalog and the pointer maps are those of the unpadded type, so the same generated
 * classes and application code run on a padded store; only the space (pages, faults, I/O) grows.
 *
 * <p>The rule: an object gets {@code headerBytes} (the per-object header an OID-based store keeps) plus
 * {@code bytesPerPointer} for each of its address fields (references, lists, strings, byte arrays: each
 * stored address widened, e.g. from an 8-byte virtual address to a 16-byte OID with {@code bytesPerPointer
 * = 8}); every node of a reference collection ({@code RefArray}) gets {@code headerBytes} plus {@code
 * bytesPerPointer} per element of its capacity, capped at the largest small object of a page (a full,
 * page-sized node is not padded further; the collection's fan-out stays that of the unpadded layout).
 * Text and byte blobs are not padded (character data has the same size in both layouts, paper section 5.2).
 *
 * <p>The padding is a property of the opened {@link PersistentStore} (set with {@link
 * PersistentStore#objectPadding(ObjectPadding)}), not of the volume: objects created under another padding
 * keep their size, and a reader needs no knowledge of it.
 *
 * @param headerBytes extra bytes per object and per reference array (a multiple of 8 keeps alignment)
 * @param bytesPerPointer extra bytes per address field or reference-array element
 */
public record ObjectPadding(int headerBytes, int bytesPerPointer) {
    /** No padding: objects are exactly as large as their fields (QuickStore proper). */
    public static final ObjectPadding NONE = new ObjectPadding(0, 0);

    /**
     * The QS-B rule used by the OO7 driver: a 16-byte object header and every 8-byte address widened to a
     * 16-byte OID (EXODUS OIDs are 16 bytes, paper section 4). See docs/results.md for the size ratio this
     * gives against the unpadded store, compared with the paper's Table 2 (QS-B/QS = 1.74 small, 1.82 medium).
     */
    public static final ObjectPadding OID_LAYOUT = new ObjectPadding(16, 8);

    public ObjectPadding {
        if (headerBytes < 0 || bytesPerPointer < 0 || headerBytes > 4096 || bytesPerPointer > 64) {
            throw new IllegalArgumentException(
                    "object padding: header 0..4096 and per-pointer 0..64 bytes expected, got header " + headerBytes
                            + ", per pointer " + bytesPerPointer);
        }
    }

    /** Whether this padding adds nothing. */
    public boolean isNone() {
        return headerBytes == 0 && bytesPerPointer == 0;
    }

    /** Extra bytes for an object with {@code pointers} address fields. */
    public int objectExtra(int pointers) {
        return isNone() ? 0 : headerBytes + bytesPerPointer * pointers;
    }
}
