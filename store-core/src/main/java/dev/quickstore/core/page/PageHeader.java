package dev.quickstore.core.page;

import dev.quickstore.core.error.StoreFormatException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The common header at the start of every page of a volume (format version {@value #FORMAT_VERSION}).
 * All integers little-endian.
 *
 * <pre>
 * offset size field
 *      0    4 checksum     CRC32C of bytes 4..pageSize-1 (contract shared with store-native)
 *      4    1 type         {@link #FREE}, {@link #VOLUME_HEADER}, {@link #SPACE_MAP}, {@link #SLOTTED},
 *                          {@link #LARGE}, {@link #BTREE_META}, {@link #BTREE_INNER}, {@link #BTREE_LEAF}
 *      5    1 version      page format version, {@value #FORMAT_VERSION}
 *      6    2 reserved     zero
 *      8    8 pageId       the page's own number (detects misdirected writes)
 *     16    8 pageLsn      LSN of the last log record applied to the page (0 = none)
 *     24    8 aux          type-specific (large objects: head page id; B+tree leaves: next leaf)
 * </pre>
 *
 * <p>A page that is entirely zero (checksum 0) has never been written and is valid: it reads as a
 * {@link #FREE} page. The checksum is computed only when a page image is written to a file (never on the
 * in-memory frame, whose header bytes 0..3 are not part of any diff). Invariant: after a page is read
 * from a file and accepted by {@link #check}, its pageId equals its position.
 */
public final class PageHeader {
    public static final int CHECKSUM = 0;
    public static final int TYPE = 4;
    public static final int VERSION = 5;
    static final int PAGE_ID = 8;
    public static final int LSN = 16;
    static final int AUX = 24;
    public static final int SIZE = 32;
    static final byte FORMAT_VERSION = 1;

    public static final byte FREE = 0;
    public static final byte VOLUME_HEADER = 1;
    public static final byte SPACE_MAP = 2;
    public static final byte SLOTTED = 3;
    public static final byte LARGE = 4;
    public static final byte BTREE_META = 5;
    public static final byte BTREE_INNER = 6;
    public static final byte BTREE_LEAF = 7;
    public static final byte MAX_TYPE = BTREE_LEAF;

    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    public PageHeader() {}

    public static String typeName(int type) {
        return switch (type) {
            case FREE -> "free";
            case VOLUME_HEADER -> "volume-header";
            case SPACE_MAP -> "space-map";
            case SLOTTED -> "slotted";
            case LARGE -> "large-object";
            case BTREE_META -> "btree-meta";
            case BTREE_INNER -> "btree-inner";
            case BTREE_LEAF -> "btree-leaf";
            default -> "unknown(" + type + ")";
        };
    }

    /**
     * Zero-fills {@code page} except its checksum and LSN fields (so a reformatted page's LSN never goes
     * backwards and the checksum bytes never appear in a diff) and writes a fresh header.
     */
    public static void format(MemorySegment page, long pageId, byte type) {
        page.asSlice(4, LSN - 4).fill((byte) 0);
        page.asSlice(AUX).fill((byte) 0);
        page.set(ValueLayout.JAVA_BYTE, TYPE, type);
        page.set(ValueLayout.JAVA_BYTE, VERSION, FORMAT_VERSION);
        page.set(LONG, PAGE_ID, pageId);
    }

    public static int type(MemorySegment page) {
        return page.get(ValueLayout.JAVA_BYTE, TYPE);
    }

    public static long pageId(MemorySegment page) {
        return page.get(LONG, PAGE_ID);
    }

    public static long lsn(MemorySegment page) {
        return page.get(LONG, LSN);
    }

    public static void setLsn(MemorySegment page, long lsn) {
        page.set(LONG, LSN, lsn);
    }

    public static long aux(MemorySegment page) {
        return page.get(LONG, AUX);
    }

    public static void setAux(MemorySegment page, long v) {
        page.set(LONG, AUX, v);
    }

    /** CRC32C of bytes 4..size-1. */
    public static int computeChecksum(MemorySegment page) {
        CRC32C crc = new CRC32C();
        crc.update(page.asSlice(4).asByteBuffer());
        return (int) crc.getValue();
    }

    public static int storedChecksum(MemorySegment page) {
        return page.get(INT, CHECKSUM);
    }

    /** Writes the checksum into bytes 0..3 (only on an image about to be written to a file). */
    public static void seal(MemorySegment page) {
        page.set(INT, CHECKSUM, computeChecksum(page));
    }

    /**
     * Prepares a copy of a frame for writing to a file: a page that is not entirely zero always carries
     * its page id and format version (an aborted allocation can leave a free page whose only non-zero
     * bytes are its LSN), then the checksum is sealed. Returns false for an all-zero page (left as is).
     */
    public static boolean prepareForWrite(MemorySegment copy, long pageId) {
        if (isAllZero(copy)) {
            return false;
        }
        copy.set(LONG, PAGE_ID, pageId);
        copy.set(ValueLayout.JAVA_BYTE, VERSION, FORMAT_VERSION);
        seal(copy);
        return true;
    }

    public static boolean isAllZero(MemorySegment page) {
        return page.mismatch(MemorySegment.ofArray(new byte[(int) page.byteSize()])) == -1;
    }

    /** Whether the image is a valid written page of id {@code pageId} or a never-written zero page. */
    public static boolean isValid(MemorySegment page, long pageId) {
        try {
            check("", pageId, page);
            return true;
        } catch (StoreFormatException e) {
            return false;
        }
    }

    /**
     * Validates an image read from a file.
     *
     * @throws StoreFormatException naming file, page, offset, expected and actual values
     */
    public static void check(String file, long pageId, MemorySegment page) {
        int stored = storedChecksum(page);
        if (stored == 0 && isAllZero(page)) {
            return; // never written
        }
        int actual = computeChecksum(page);
        if (stored != actual) {
            throw new StoreFormatException(
                    file,
                    pageId,
                    (pageId * page.byteSize()) + CHECKSUM,
                    "page checksum (CRC32C)",
                    hex(stored),
                    hex(actual) + " computed over bytes 4.." + (page.byteSize() - 1) + " (torn or damaged page)");
        }
        int version = page.get(ValueLayout.JAVA_BYTE, VERSION);
        if (version != FORMAT_VERSION) {
            throw new StoreFormatException(
                    file,
                    pageId,
                    pageId * page.byteSize() + VERSION,
                    "page format version",
                    String.valueOf(FORMAT_VERSION),
                    String.valueOf(version));
        }
        long id = pageId(page);
        if (id != pageId) {
            throw new StoreFormatException(
                    file,
                    pageId,
                    pageId * page.byteSize() + PAGE_ID,
                    "page id",
                    String.valueOf(pageId),
                    id + " (misdirected write)");
        }
        int type = type(page);
        if (type < 0 || type > MAX_TYPE) {
            throw new StoreFormatException(
                    file, pageId, pageId * page.byteSize() + TYPE, "page type", "0.." + MAX_TYPE, String.valueOf(type));
        }
    }

    /** A 32-bit value as {@code 0x%08x}, as every format error message prints checksums. */
    public static String hex(int v) {
        return String.format("0x%08x", v);
    }
}
