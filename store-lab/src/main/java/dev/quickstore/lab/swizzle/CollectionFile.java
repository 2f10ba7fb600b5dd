package dev.quickstore.lab.swizzle;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.core.volume.Volume;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Moss collection on disk (Moss 1992, sections 2 and 5.1): the objects of a {@link TreeShape} in the store's own
 * slotted pages ({@link SlottedPage}, checksummed and versioned by {@link PageHeader}), laid out in preorder so that a
 * subtree is clustered, each named by a persistent oid = {@code pageId << 16 | slot} (Mneme's file / segment /
 * object number, Figure 1). Format version {@value #FORMAT_VERSION}; all integers little-endian.
 *
 * <pre>
 * page 0, slot 0: the descriptor (one object of {@value #DESCRIPTOR_BYTES} bytes)
 *   offset size field
 *        0    8 magic          "QSMOSS01" (ASCII)
 *        8    4 version        {@value #FORMAT_VERSION}
 *       12    4 pageSize       bytes per page
 *       16    8 rootOid        oid of node 1 (the tree's root)
 *       24    8 objects        objects in the tree
 *       32    8 pages          pages in the file, page 0 included
 *       40   28 shape          height, innerSlots, innerInit, innerBytes, leafSlots, leafInit, leafBytes (7 x u32)
 *       68    4 reserved       zero
 * pages 1..pages-1: the tree's objects, each
 *   offset size field
 *        0    2 slots          number of slots s
 *        2    2 bytes          number of non-reference bytes
 *        4    1 state          Moss's Table 1: 1 unswizzled persistent, 2 swizzled modified, 3 swizzled unmodified
 *                              (always 1 on disk)
 *        5    3 node           the node's number in the tree (1.., breadth first), for the heap model's comparisons
 *        8    8 self           the object's own oid: in-place swizzling's way back from an address to an oid when
 *                              unswizzling (Moss's extra in-place header bytes, section 5.1), present for every scheme
 *       16  8*s slots          oids (0 = null); the pointer map bit of each slot word is set
 *    16+8s    b bytes          non-reference bytes
 * </pre>
 *
 * <p>Oid 0 would name the descriptor, so it doubles as null. The header (16 bytes) is not part of Moss's b.
 */
public final class CollectionFile {
    public static final int FORMAT_VERSION = 1;
    public static final int DESCRIPTOR_BYTES = 72;
    public static final int HEADER_BYTES = 16;
    public static final int STATE = 4;
    public static final int SELF = 8;
    /** Moss's Table 1 state 00: a new transient object, not a store object yet (never on disk). */
    public static final byte NEW = 0;

    public static final byte UNSWIZZLED = 1;
    public static final byte SWIZZLED_MODIFIED = 2;
    public static final byte SWIZZLED = 3;
    static final ValueLayout.OfLong LONG = PageHeader.LONG;
    static final ValueLayout.OfInt INT = PageHeader.INT;
    static final ValueLayout.OfShort SHORT = PageHeader.SHORT;

    private CollectionFile() {}

    /** What the descriptor says. */
    public record Descriptor(int pageSize, long rootOid, long objects, long pages, TreeShape shape) {}

    public static long oid(long pageId, int slot) {
        return pageId << 16 | slot;
    }

    public static long pageOf(long oid) {
        return oid >>> 16;
    }

    public static int slotOf(long oid) {
        return (int) (oid & 0xffff);
    }

    /** The 8 magic bytes, as they appear at the start of the descriptor. */
    static long magic() {
        return MemorySegment.ofArray("QSMOSS01".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .get(LONG, 0);
    }

    /**
     * Writes the collection of {@code shape} to {@code file} (created or overwritten) in pages of {@code pageSize}.
     *
     * @throws IllegalArgumentException an object does not fit in a page
     */
    public static Descriptor write(Path file, TreeShape shape, int pageSize) throws IOException {
        long n = shape.objects();
        long[] oidOf = new long[(int) n + 1];
        int[] offsetOf = new int[(int) n + 1];
        List<MemorySegment> pages = new ArrayList<>();
        MemorySegment first = MemorySegment.ofArray(new byte[pageSize]);
        SlottedPage.format(first, 0);
        if (SlottedPage.allocate(first, DESCRIPTOR_BYTES, new int[0]) < 0) {
            throw new IllegalArgumentException("page size " + pageSize + " cannot hold the descriptor");
        }
        pages.add(first);
        MemorySegment page = null;
        // pass 1: place every object in preorder
        long[] stack = new long[shape.height() + 1];
        int sp = 0;
        stack[sp++] = 1;
        while (sp > 0) {
            long node = stack[--sp];
            int slots = shape.slotsOf(node);
            int length = HEADER_BYTES + slots * TreeShape.SLOT_BYTES + shape.bytesOf(node);
            int[] pointerWords = new int[slots];
            for (int k = 0; k < slots; k++) {
                pointerWords[k] = HEADER_BYTES + k * TreeShape.SLOT_BYTES;
            }
            if (length > SlottedPage.maxObjectSize(pageSize)) {
                throw new IllegalArgumentException(
                        "an object of " + length + " bytes (" + shape + ") does not fit in a page of " + pageSize);
            }
            int at = page == null ? -1 : SlottedPage.allocate(page, length, pointerWords);
            if (at < 0) {
                page = MemorySegment.ofArray(new byte[pageSize]);
                SlottedPage.format(page, pages.size());
                pages.add(page);
                at = SlottedPage.allocate(page, length, pointerWords);
            }
            int slot = SlottedPage.slotCount(page) - 1;
            oidOf[(int) node] = oid(pages.size() - 1, slot);
            offsetOf[(int) node] = at;
            if (!shape.isLeaf(node)) {
                stack[sp++] = 2 * node + 1;
                stack[sp++] = 2 * node;
            }
        }
        // pass 2: contents
        for (long node = 1; node <= n; node++) {
            long o = oidOf[(int) node];
            MemorySegment p = pages.get((int) pageOf(o));
            int at = offsetOf[(int) node];
            int slots = shape.slotsOf(node);
            int bytes = shape.bytesOf(node);
            p.set(SHORT, at, (short) slots);
            p.set(SHORT, at + 2, (short) bytes);
            p.set(ValueLayout.JAVA_BYTE, at + STATE, UNSWIZZLED);
            p.set(ValueLayout.JAVA_BYTE, at + 5, (byte) node);
            p.set(ValueLayout.JAVA_BYTE, at + 6, (byte) (node >>> 8));
            p.set(ValueLayout.JAVA_BYTE, at + 7, (byte) (node >>> 16));
            p.set(LONG, at + SELF, o);
            int init = shape.initOf(node);
            for (int k = 0; k < init; k++) {
                long target = shape.isLeaf(node) || k >= 2 ? o : oidOf[(int) (2 * node + k)];
                p.set(LONG, at + HEADER_BYTES + (long) k * TreeShape.SLOT_BYTES, target);
            }
            int base = at + HEADER_BYTES + slots * TreeShape.SLOT_BYTES;
            for (int j = 0; j < bytes; j++) {
                p.set(ValueLayout.JAVA_BYTE, base + j, TreeShape.initialByte(node, j));
            }
        }
        Descriptor d = new Descriptor(pageSize, oidOf[1], n, pages.size(), shape);
        setDescriptor(first, d);
        FileIO io = RealFileIO.INSTANCE;
        io.delete(file);
        try (FileIO.Handle h = io.open(file, true)) {
            MemorySegment copy = MemorySegment.ofArray(new byte[pageSize]);
            for (int id = 0; id < pages.size(); id++) {
                copy.copyFrom(pages.get(id));
                PageHeader.prepareForWrite(copy, id);
                h.write(copy.asByteBuffer(), (long) id * pageSize);
            }
        }
        return d;
    }

    /** Writes {@code d} into the descriptor object (slot 0) of page 0, {@code first}. */
    static void setDescriptor(MemorySegment first, Descriptor d) {
        int descAt = SlottedPage.slotOffset(first, 0);
        first.set(LONG, descAt, magic());
        first.set(INT, descAt + 8, FORMAT_VERSION);
        first.set(INT, descAt + 12, d.pageSize());
        first.set(LONG, descAt + 16, d.rootOid());
        first.set(LONG, descAt + 24, d.objects());
        first.set(LONG, descAt + 32, d.pages());
        TreeShape shape = d.shape();
        int[] dims = {
            shape.height(),
            shape.innerSlots(),
            shape.innerInit(),
            shape.innerBytes(),
            shape.leafSlots(),
            shape.leafInit(),
            shape.leafBytes()
        };
        for (int k = 0; k < dims.length; k++) {
            first.set(INT, descAt + 40 + 4L * k, dims[k]);
        }
    }

    /** The pointer words of an object of {@code slots} slots (object-relative offsets, for the page's pointer map). */
    static int[] pointerWords(int slots) {
        int[] w = new int[slots];
        for (int k = 0; k < slots; k++) {
            w[k] = HEADER_BYTES + k * TreeShape.SLOT_BYTES;
        }
        return w;
    }

    /** Bytes of the object of {@code node}: header, slots and bytes. */
    static int length(TreeShape shape, long node) {
        return HEADER_BYTES + shape.slotsOf(node) * TreeShape.SLOT_BYTES + shape.bytesOf(node);
    }

    /**
     * The pages, page 0 included, that {@link #write} (and a create session allocating in preorder, {@link
     * PageBuffers#create}) gives the collection of {@code shape}: the same placement on a scratch page.
     */
    static long pagesFor(TreeShape shape, int pageSize) {
        MemorySegment page = MemorySegment.ofArray(new byte[pageSize]);
        SlottedPage.format(page, 1);
        long pages = 2;
        int[] inner = pointerWords(shape.innerSlots());
        int[] leaf = pointerWords(shape.leafSlots());
        // preorder and the placement only see lengths, which depend on leaf or not: count in preorder
        long[] stack = new long[shape.height() + 1];
        int sp = 0;
        stack[sp++] = 1;
        while (sp > 0) {
            long node = stack[--sp];
            boolean isLeaf = shape.isLeaf(node);
            int length = length(shape, node);
            if (length > SlottedPage.maxObjectSize(pageSize)) {
                throw new IllegalArgumentException(
                        "an object of " + length + " bytes (" + shape + ") does not fit in a page of " + pageSize);
            }
            if (SlottedPage.allocate(page, length, isLeaf ? leaf : inner) < 0) {
                SlottedPage.format(page, pages++);
                SlottedPage.allocate(page, length, isLeaf ? leaf : inner);
            }
            if (!isLeaf) {
                stack[sp++] = 2 * node + 1;
                stack[sp++] = 2 * node;
            }
        }
        return pages;
    }

    /**
     * Reads the descriptor of the collection in {@code volume}.
     *
     * @throws StoreFormatException naming the file, page 0 and the offset of a wrong magic, version or page size
     */
    public static Descriptor readDescriptor(Volume volume) throws IOException {
        MemorySegment p = MemorySegment.ofArray(new byte[volume.pageSize()]);
        volume.read(0, p);
        if (PageHeader.type(p) != PageHeader.SLOTTED || SlottedPage.slotCount(p) < 1) {
            throw new StoreFormatException(
                    volume.name(),
                    0,
                    PageHeader.TYPE,
                    "collection descriptor page type",
                    "slotted",
                    PageHeader.typeName(PageHeader.type(p)));
        }
        int at = SlottedPage.slotOffset(p, 0);
        if (p.get(LONG, at) != magic()) {
            throw new StoreFormatException(
                    volume.name(),
                    0,
                    at,
                    "collection magic",
                    "QSMOSS01",
                    Long.toHexString(p.get(LONG, at)) + " (not a Moss lab collection)");
        }
        int version = p.get(INT, at + 8);
        if (version != FORMAT_VERSION) {
            throw new StoreFormatException(
                    volume.name(),
                    0,
                    at + 8,
                    "collection format version",
                    String.valueOf(FORMAT_VERSION),
                    String.valueOf(version));
        }
        int pageSize = p.get(INT, at + 12);
        if (pageSize != volume.pageSize()) {
            throw new StoreFormatException(
                    volume.name(),
                    0,
                    at + 12,
                    "collection page size",
                    String.valueOf(volume.pageSize()),
                    String.valueOf(pageSize));
        }
        int[] d = new int[7];
        for (int k = 0; k < 7; k++) {
            d[k] = p.get(INT, at + 40 + 4L * k);
        }
        TreeShape shape = new TreeShape(d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
        return new Descriptor(pageSize, p.get(LONG, at + 16), p.get(LONG, at + 24), p.get(LONG, at + 32), shape);
    }

    /** The node number stored in an object's header at {@code address} of {@code memory}. */
    static int node(MemorySegment memory, long address) {
        return Byte.toUnsignedInt(memory.get(ValueLayout.JAVA_BYTE, address + 5))
                | Byte.toUnsignedInt(memory.get(ValueLayout.JAVA_BYTE, address + 6)) << 8
                | Byte.toUnsignedInt(memory.get(ValueLayout.JAVA_BYTE, address + 7)) << 16;
    }
}
