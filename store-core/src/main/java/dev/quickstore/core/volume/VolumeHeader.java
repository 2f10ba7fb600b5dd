package dev.quickstore.core.volume;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The header of a volume file: page 0, format version {@value #FORMAT_VERSION}. Page 0 is an ordinary
 * page: it starts with the common {@link PageHeader} (checksum in bytes 0..3 over bytes 4..pageSize-1,
 * type {@link PageHeader#VOLUME_HEADER}), and changes to it (the page count when the volume grows, the
 * catalog pointers) are logged like any other page. All integers little-endian.
 *
 * <pre>
 * offset size field
 *      0   32 page header           checksum, type 1, page format version 1, page id 0, page LSN, aux 0
 *     32    8 magic                 "QSVOLUME" (ASCII)
 *     40    4 formatVersion         {@value #FORMAT_VERSION}: references are virtual addresses (pointerFormat 0);
 *                                   {@value #POINTER_FORMAT_VERSION}: references are not addresses (pointerFormat 1
 *                                   or 2), so a build that knows only version 2 refuses the volume instead of
 *                                   reading its references as addresses; the layout is the same (version 1 had its
 *                                   own checksum at 124)
 *     44    4 pageSize              bytes per page, a power of two, 4096..65536
 *     48   16 creationId            UUID (most significant 8 bytes first), fixed at creation
 *     64    8 preferredArenaBase    virtual address the store asks to be mapped at (0 = anywhere)
 *     72    8 pageCount             pages in the volume, header page included (the file may be shorter:
 *                                   pages past its end have never been written back and read as zero)
 *     80    8 createdMillis         creation time, ms since the epoch
 *     88    4 extentPages           pages per extent (allocation and growth unit), {@value #DEFAULT_EXTENT_PAGES}
 *     92    4 pointerFormat         how slotted pages store references, fixed at creation: {@link #POINTERS_VIRTUAL}
 *                                   (0, QuickStore: virtual addresses, relocated only when needed; version 2, zero
 *                                   in stores made before the field), {@link #POINTERS_TEXAS} (1, Texas: persistent
 *                                   pointers, dev.quickstore.mmu.TexasPointers, swizzled at page-fault time;
 *                                   version 3) or {@link #POINTERS_OID} (2, software persistence: OIDs,
 *                                   dev.quickstore.core.software.Oid, docs/software-mode.md; version 3)
 *     96    8 rootsMetaPage         meta page of the named-root directory B+tree (0 = not yet created)
 *    104    8 indexesMetaPage       meta page of the index catalog B+tree (0 = not yet created)
 *    112   16 reserved              zero
 * </pre>
 *
 * <p>Invariants: the magic and version match, pageSize is a power of two in range, the page checksum
 * matches. {@link #decode} checks them all and names the failing field, offset, expected and actual
 * value in a {@link StoreFormatException}. store-native reads the same layout (see docs/formats.md).
 */
public record VolumeHeader(
        int formatVersion,
        int pageSize,
        UUID creationId,
        long preferredArenaBase,
        long pageCount,
        long createdMillis,
        int extentPages,
        long rootsMetaPage,
        long indexesMetaPage,
        int pointerFormat) {

    /** Bytes of page 0 that carry header fields (the rest of the page is zero). */
    public static final int SIZE = 128;

    public static final int FORMAT_VERSION = 2;

    /**
     * The format version of a volume whose references are not virtual addresses (Texas persistent pointers or
     * OIDs; {@link #pointerFormat} says which): the same layout, a different version so that a build knowing only
     * version {@value #FORMAT_VERSION} refuses it. Version {@value #FORMAT_VERSION} volumes have pointer format 0.
     */
    public static final int POINTER_FORMAT_VERSION = 3;

    public static final int DEFAULT_EXTENT_PAGES = 16;
    public static final byte[] MAGIC = "QSVOLUME".getBytes(StandardCharsets.US_ASCII);

    public static final int MAGIC_OFFSET = 32;
    public static final int FORMAT_VERSION_OFFSET = 40;
    public static final int PAGE_SIZE_OFFSET = 44;
    public static final int CREATION_ID_OFFSET = 48;
    public static final int ARENA_BASE_OFFSET = 64;
    public static final int PAGE_COUNT_OFFSET = 72;
    public static final int CREATED_OFFSET = 80;
    public static final int EXTENT_PAGES_OFFSET = 88;
    public static final int ROOTS_META_OFFSET = 96;
    public static final int INDEXES_META_OFFSET = 104;
    public static final int POINTER_FORMAT_OFFSET = 92;

    /** Pointer format 0: references are virtual addresses (QuickStore; relocated only when needed). */
    public static final int POINTERS_VIRTUAL = 0;

    /** Pointer format 1: references are Texas persistent pointers, swizzled at page-fault time. */
    public static final int POINTERS_TEXAS = 1;

    /** Pointer format 2: references are OIDs (software persistence, E / EPVM 3.0; FramesMode.SOFTWARE). */
    public static final int POINTERS_OID = 2;

    /** The format version a new volume with this pointer format gets. */
    public static int versionFor(int pointerFormat) {
        return pointerFormat == POINTERS_VIRTUAL ? FORMAT_VERSION : POINTER_FORMAT_VERSION;
    }

    /** A header with virtual-address pointers (the format of every store made before the field). */
    public VolumeHeader(
            int formatVersion,
            int pageSize,
            UUID creationId,
            long preferredArenaBase,
            long pageCount,
            long createdMillis,
            int extentPages,
            long rootsMetaPage,
            long indexesMetaPage) {
        this(
                formatVersion,
                pageSize,
                creationId,
                preferredArenaBase,
                pageCount,
                createdMillis,
                extentPages,
                rootsMetaPage,
                indexesMetaPage,
                POINTERS_VIRTUAL);
    }

    /** The name of a pointer format in messages. */
    public static String pointerFormatName(int format) {
        return switch (format) {
            case POINTERS_VIRTUAL -> "virtual addresses (QuickStore)";
            case POINTERS_TEXAS -> "Texas persistent pointers";
            case POINTERS_OID -> "OIDs (software persistence)";
            default -> "unknown (" + format + ")";
        };
    }

    public VolumeHeader {
        if (Integer.bitCount(pageSize) != 1 || pageSize < 4096 || pageSize > 65536) {
            throw new IllegalArgumentException("page size " + pageSize + " is not a power of two in 4096..65536");
        }
        if (extentPages < 1 || Integer.bitCount(extentPages) != 1) {
            throw new IllegalArgumentException("extent pages " + extentPages + " is not a power of two");
        }
        if (pointerFormat < POINTERS_VIRTUAL || pointerFormat > POINTERS_OID) {
            throw new IllegalArgumentException("pointer format " + pointerFormat + " is not 0, 1 or 2");
        }
    }

    /** Whether the volume's references are OIDs (pointer format {@value #POINTERS_OID}, software persistence). */
    public boolean softwareReferences() {
        return pointerFormat == POINTERS_OID;
    }

    /** Encodes the whole of page 0 (page header, fields, zeros), checksum included. */
    public byte[] encode() {
        byte[] page = new byte[pageSize];
        MemorySegment seg = MemorySegment.ofArray(page);
        PageHeader.format(seg, 0, PageHeader.VOLUME_HEADER);
        writeTo(seg);
        PageHeader.seal(seg);
        return page;
    }

    /** Writes the header fields (not the page header or checksum) into page 0's image. */
    void writeTo(MemorySegment page) {
        MemorySegment.copy(MemorySegment.ofArray(MAGIC), 0, page, MAGIC_OFFSET, MAGIC.length);
        page.set(PageHeader.INT, FORMAT_VERSION_OFFSET, formatVersion);
        page.set(PageHeader.INT, PAGE_SIZE_OFFSET, pageSize);
        page.set(PageHeader.LONG, CREATION_ID_OFFSET, creationId.getMostSignificantBits());
        page.set(PageHeader.LONG, CREATION_ID_OFFSET + 8, creationId.getLeastSignificantBits());
        page.set(PageHeader.LONG, ARENA_BASE_OFFSET, preferredArenaBase);
        page.set(PageHeader.LONG, PAGE_COUNT_OFFSET, pageCount);
        page.set(PageHeader.LONG, CREATED_OFFSET, createdMillis);
        page.set(PageHeader.INT, EXTENT_PAGES_OFFSET, extentPages);
        page.set(PageHeader.LONG, ROOTS_META_OFFSET, rootsMetaPage);
        page.set(PageHeader.LONG, INDEXES_META_OFFSET, indexesMetaPage);
        page.set(PageHeader.INT, POINTER_FORMAT_OFFSET, pointerFormat);
    }

    /** Reads the fields from an in-memory page 0 already validated (no checksum check). */
    static VolumeHeader readFrom(MemorySegment page) {
        return new VolumeHeader(
                page.get(PageHeader.INT, FORMAT_VERSION_OFFSET),
                page.get(PageHeader.INT, PAGE_SIZE_OFFSET),
                new UUID(
                        page.get(PageHeader.LONG, CREATION_ID_OFFSET),
                        page.get(PageHeader.LONG, CREATION_ID_OFFSET + 8)),
                page.get(PageHeader.LONG, ARENA_BASE_OFFSET),
                page.get(PageHeader.LONG, PAGE_COUNT_OFFSET),
                page.get(PageHeader.LONG, CREATED_OFFSET),
                page.get(PageHeader.INT, EXTENT_PAGES_OFFSET),
                page.get(PageHeader.LONG, ROOTS_META_OFFSET),
                page.get(PageHeader.LONG, INDEXES_META_OFFSET),
                page.get(PageHeader.INT, POINTER_FORMAT_OFFSET));
    }

    /** The page size field of a (not yet validated) page 0 prefix, or -1 if too short. */
    public static int peekPageSize(byte[] prefix, int length) {
        if (length < PAGE_SIZE_OFFSET + 4) {
            return -1;
        }
        return MemorySegment.ofArray(prefix).get(PageHeader.INT, PAGE_SIZE_OFFSET);
    }

    /** A format version as an error names it: a newer one says so (this build cannot open that store). */
    private static String versionText(int version) {
        return version > POINTER_FORMAT_VERSION
                ? version + " (written by a newer QuickStore/J: open it with that version)"
                : String.valueOf(version);
    }

    /**
     * Decodes and validates page 0.
     *
     * @param file the file name used in error messages
     * @param page the bytes of page 0 (at least {@link #SIZE}; the whole page for the checksum)
     * @throws StoreFormatException naming the field, offset, expected and actual values
     */
    public static VolumeHeader decode(String file, byte[] page) {
        if (page.length < SIZE) {
            throw new StoreFormatException(
                    file, 0, 0, "volume header", SIZE + " bytes", page.length + " bytes (file truncated)");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (page[MAGIC_OFFSET + i] != MAGIC[i]) {
                throw new StoreFormatException(
                        file,
                        0,
                        MAGIC_OFFSET,
                        "magic",
                        "\"QSVOLUME\"",
                        "\"" + new String(page, MAGIC_OFFSET, MAGIC.length, StandardCharsets.ISO_8859_1)
                                + "\" (not a QuickStore/J volume)");
            }
        }
        MemorySegment seg = MemorySegment.ofArray(page);
        int pageSize = seg.get(PageHeader.INT, PAGE_SIZE_OFFSET);
        int version = seg.get(PageHeader.INT, FORMAT_VERSION_OFFSET);
        if (Integer.bitCount(pageSize) != 1 || pageSize < 4096 || pageSize > 65536) {
            if (version != FORMAT_VERSION && version != POINTER_FORMAT_VERSION) {
                throw new StoreFormatException(
                        file,
                        0,
                        FORMAT_VERSION_OFFSET,
                        "format version",
                        FORMAT_VERSION + " or " + POINTER_FORMAT_VERSION,
                        versionText(version));
            }
            throw new StoreFormatException(
                    file, 0, PAGE_SIZE_OFFSET, "page size", "a power of two in 4096..65536", String.valueOf(pageSize));
        }
        if (page.length < pageSize) {
            throw new StoreFormatException(
                    file,
                    0,
                    page.length,
                    "volume header page",
                    pageSize + " bytes",
                    page.length + " bytes (file truncated)");
        }
        MemorySegment whole = seg.asSlice(0, pageSize);
        int stored = PageHeader.storedChecksum(whole);
        int actual = PageHeader.computeChecksum(whole);
        if (stored != actual) {
            throw new StoreFormatException(
                    file,
                    0,
                    PageHeader.CHECKSUM,
                    "header page checksum (CRC32C)",
                    hex(stored),
                    hex(actual) + " computed over bytes 4.." + (pageSize - 1));
        }
        if (version != FORMAT_VERSION && version != POINTER_FORMAT_VERSION) {
            throw new StoreFormatException(
                    file,
                    0,
                    FORMAT_VERSION_OFFSET,
                    "format version",
                    FORMAT_VERSION + " or " + POINTER_FORMAT_VERSION,
                    versionText(version));
        }
        PageHeader.check(file, 0, whole);
        if (PageHeader.type(whole) != PageHeader.VOLUME_HEADER) {
            throw new StoreFormatException(
                    file, 0, PageHeader.TYPE, "page type", "1 (volume header)", String.valueOf(PageHeader.type(whole)));
        }
        int extent = seg.get(PageHeader.INT, EXTENT_PAGES_OFFSET);
        if (extent < 1 || Integer.bitCount(extent) != 1) {
            throw new StoreFormatException(
                    file, 0, EXTENT_PAGES_OFFSET, "extent pages", "a power of two", String.valueOf(extent));
        }
        int pointers = seg.get(PageHeader.INT, POINTER_FORMAT_OFFSET);
        if (version == FORMAT_VERSION
                ? pointers != POINTERS_VIRTUAL
                : pointers != POINTERS_TEXAS && pointers != POINTERS_OID) {
            throw new StoreFormatException(
                    file,
                    0,
                    POINTER_FORMAT_OFFSET,
                    "pointer format",
                    version == FORMAT_VERSION
                            ? "0 (virtual addresses) in a format version " + FORMAT_VERSION + " volume"
                            : "1 (Texas persistent pointers) or 2 (OIDs) in a format version " + POINTER_FORMAT_VERSION
                                    + " volume",
                    String.valueOf(pointers));
        }
        return readFrom(whole);
    }

    public static String hex(int v) {
        return PageHeader.hex(v);
    }
}
