package dev.quickstore.core.software;

/**
 * The object identifier stored in reference fields of a software-persistence store (E / EPVM 3.0, White and
 * DeWitt 1994, section 4.5.1: references on disk are ESM OIDs, never virtual addresses), and how a reference
 * word tells an OID from a swizzled pointer. OID format version 1 (docs/software-mode.md, docs/formats.md):
 *
 * <pre>
 * bits   field
 * 63..32 page        u32 volume page id of the object's slotted page
 * 31..16 slot        u16 slot number in that page (SlottedPage's slot array)
 * 15..1  uniquifier  the low 15 bits of the object's 32-bit type tag (its first 4 bytes)
 *      0 1           the OID bit: set in every OID, clear in every swizzled pointer
 * </pre>
 *
 * A reference word is 0 (null), an OID (bit 0 set: the disk form, and the unswizzled run-time form), or a
 * swizzled pointer (bit 0 clear, not 0: the object's byte offset in the frame region; objects are 8-byte
 * aligned, so the bit is free). The uniquifier is checked when an OID is resolved: a reference to a slot that
 * now holds an object of another type fails with an error naming the page and slot. It does not catch reuse by
 * an object of the same type (the slotted page keeps no per-slot generation; a later page format could).
 */
public final class Oid {
    /** Bit 0 of a reference word: set = OID, clear = swizzled pointer (or null when the word is 0). */
    public static final long OID_BIT = 1L;

    private static final int UNIQUIFIER_BITS = 15;
    private static final int UNIQUIFIER_MASK = (1 << UNIQUIFIER_BITS) - 1;

    private Oid() {}

    /** The OID of the object in {@code slot} of {@code page} whose type tag is {@code typeTag}. */
    public static long of(long page, int slot, int typeTag) {
        if (page <= 0 || page > 0xffff_ffffL) {
            throw new IllegalArgumentException(
                    "page " + page + " outside an OID's 32-bit page field (1.." + 0xffff_ffffL + ")");
        }
        if (slot < 0 || slot > 0xffff) {
            throw new IllegalArgumentException("slot " + slot + " outside an OID's 16-bit slot field");
        }
        return page << 32 | (long) slot << 16 | (long) (typeTag & UNIQUIFIER_MASK) << 1 | OID_BIT;
    }

    /** Whether a reference word holds an OID (not null and not a swizzled pointer). */
    public static boolean isOid(long word) {
        return (word & OID_BIT) != 0;
    }

    public static long page(long oid) {
        return oid >>> 32;
    }

    public static int slot(long oid) {
        return (int) (oid >>> 16) & 0xffff;
    }

    public static int uniquifier(long oid) {
        return (int) (oid >>> 1) & UNIQUIFIER_MASK;
    }

    /** Whether {@code typeTag} matches the OID's uniquifier. */
    public static boolean matches(long oid, int typeTag) {
        return uniquifier(oid) == (typeTag & UNIQUIFIER_MASK);
    }

    public static String toString(long oid) {
        return isOid(oid)
                ? "oid(page " + page(oid) + ", slot " + slot(oid) + ", uniquifier 0x"
                        + Integer.toHexString(uniquifier(oid)) + ")"
                : "0x" + Long.toHexString(oid) + " (not an OID)";
    }
}
