package dev.quickstore.mmu;

/**
 * The persistent pointer format of Texas mode, version {@value #FORMAT_VERSION} (Kakkad and Wilson 1999, section
 * 3: pointers are stored on disk in a persistent format and translated to virtual addresses when their page is
 * faulted in). One little-endian 64-bit word, encoded here and in {@code qs_texas.c}; docs/formats.md, "Texas
 * persistent pointers".
 *
 * <pre>
 * bits 63..60  0x9: bit 63 set (never a user-space address on x86-64, whose bits 63..47 are clear) and the
 *              format version 1 in bits 62..60
 * bits 59..0   pageId * pageSize + offset within the page
 * 0            null (stays 0 in both forms)
 * </pre>
 *
 * <p>Only words that a slotted page's pointer map marks are pointers; any other word is data, whatever its
 * bits. The word carries no checksum of its own: it lives inside a page whose CRC32C covers it.
 */
public final class TexasPointers {
    /** The format version carried in bits 62..60. */
    public static final int FORMAT_VERSION = 1;

    static final int TAG_SHIFT = 60;
    static final long TAG = 0x9L;
    static final long LOW = (1L << TAG_SHIFT) - 1;

    private TexasPointers() {}

    /** The persistent word for byte {@code offset} of page {@code pageId} (pages of {@code pageSize} bytes). */
    public static long encode(long pageId, int offset, int pageSize) {
        if (offset < 0 || offset >= pageSize || pageId < 0) {
            throw new IllegalArgumentException(
                    "page " + pageId + " offset " + offset + " (page size " + pageSize + ")");
        }
        long low = pageId * pageSize + offset;
        if (low / pageSize != pageId || (low & ~LOW) != 0) {
            throw new IllegalArgumentException("page " + pageId + " does not fit a persistent pointer (60 bits)");
        }
        return (TAG << TAG_SHIFT) | low;
    }

    /** Whether {@code word} is a persistent pointer of this format (null is not). */
    public static boolean isPersistent(long word) {
        return (word >>> TAG_SHIFT) == TAG;
    }

    /** The page id of a persistent pointer. */
    public static long pageOf(long word, int pageSize) {
        check(word);
        return (word & LOW) / pageSize;
    }

    /** The offset within its page of a persistent pointer. */
    public static int offsetOf(long word, int pageSize) {
        check(word);
        return (int) ((word & LOW) % pageSize);
    }

    private static void check(long word) {
        if (!isPersistent(word)) {
            throw new IllegalArgumentException(String.format(
                    "0x%x is not a Texas persistent pointer (format %d: top bits 0x9)", word, FORMAT_VERSION));
        }
    }
}
