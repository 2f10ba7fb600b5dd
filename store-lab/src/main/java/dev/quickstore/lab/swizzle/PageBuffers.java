package dev.quickstore.lab.swizzle;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.core.volume.Volume;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The object manager's buffers of a Moss session (Moss 1992, section 3.3): the pages of a {@link CollectionFile}
 * read into frames of one off-heap arena, a page table from page number to frame, and the oid lookup every scheme
 * starts from ({@link #lookup}: page table, then the page's slot array; Mneme's file / segment / object tables of
 * Figure 2). An address is a byte offset into {@link #memory()}; 0 is null (frame 0 holds page 0's header, never an
 * object). Pages are read through the store's {@link Volume} (checksum verified) and written back sealed, only the
 * dirty ones, at {@link #writeBack}.
 */
public final class PageBuffers implements AutoCloseable {
    private final FileIO.Handle handle;
    private final Volume volume;
    private final Arena arena;
    private final MemorySegment memory;
    private final int pageSize;
    private final int shift;
    /** Where a slotted page keeps its slot count ({@link dev.quickstore.core.page.SlottedPage}'s layout). */
    private final int slotCountOffset;

    private final int[] frameOf;
    private final long[] pageOfFrame;
    private final boolean[] dirty;
    private final CollectionFile.Descriptor descriptor;
    private int frames;
    private long pagesRead;
    private long pagesWritten;

    /** Start and top of the transient heap after the frames (create sessions' new objects; empty otherwise). */
    private final long heapStart;

    private long heapTop;
    /** The page new store objects are allocated in ({@link #allocate}), and the oid of the last one. */
    private MemorySegment allocating;

    private long lastOid;

    private PageBuffers(FileIO.Handle handle, Volume volume, CollectionFile.Descriptor d) {
        this(handle, volume, d, 0);
    }

    private PageBuffers(FileIO.Handle handle, Volume volume, CollectionFile.Descriptor d, long heapBytes) {
        this.handle = handle;
        this.volume = volume;
        this.descriptor = d;
        this.pageSize = d.pageSize();
        if (Integer.bitCount(pageSize) != 1) {
            throw new StoreFormatException(
                    volume.name(), 0, 0, "page size", "a power of two", String.valueOf(pageSize));
        }
        this.shift = Integer.numberOfTrailingZeros(pageSize);
        this.slotCountOffset = SlottedPage.dataStart(pageSize) - 8;
        int pages = Math.toIntExact(d.pages());
        this.arena = Arena.ofConfined();
        this.memory = arena.allocate((long) pages * pageSize + heapBytes, 64);
        this.heapStart = (long) pages * pageSize;
        this.heapTop = heapStart;
        this.frameOf = new int[pages];
        Arrays.fill(frameOf, -1);
        this.pageOfFrame = new long[pages];
        this.dirty = new boolean[pages];
    }

    /** Opens the collection in {@code file} (reads its descriptor; no object page yet). */
    public static PageBuffers open(Path file, int pageSize) throws IOException {
        FileIO.Handle h = RealFileIO.INSTANCE.open(file, false);
        try {
            Volume v = new Volume(h, pageSize);
            CollectionFile.Descriptor d = CollectionFile.readDescriptor(v);
            PageBuffers b = new PageBuffers(h, v, d);
            b.frameOf[0] = b.frames++; // the descriptor page: frame 0, so that address 0 is never an object
            b.pageOfFrame[0] = 0;
            return b;
        } catch (IOException | RuntimeException e) {
            h.close();
            throw e;
        }
    }

    /**
     * Creates a new collection file of {@code shape} (overwriting {@code file}) for a create-work-save session (Moss
     * 1992, section 2): buffers for exactly the pages a preorder creation fills ({@link CollectionFile#pagesFor}),
     * page 0 with the descriptor, and a transient heap of {@code heapBytes} after the frames for objects that are not
     * store objects yet (in-place swizzling's new objects, Moss's Table 1 state 00). Sizing the buffers and writing
     * the descriptor are the untimed opening of the session, as {@link #open} is for load sessions.
     */
    public static PageBuffers create(Path file, int pageSize, TreeShape shape, long heapBytes) throws IOException {
        long pages = CollectionFile.pagesFor(shape, pageSize);
        CollectionFile.Descriptor d =
                new CollectionFile.Descriptor(pageSize, CollectionFile.oid(1, 0), shape.objects(), pages, shape);
        RealFileIO.INSTANCE.delete(file);
        FileIO.Handle h = RealFileIO.INSTANCE.open(file, true);
        try {
            PageBuffers b = new PageBuffers(h, new Volume(h, pageSize), d, heapBytes);
            MemorySegment first = b.newFrame(0);
            if (SlottedPage.allocate(first, CollectionFile.DESCRIPTOR_BYTES, new int[0]) < 0) {
                throw new IllegalArgumentException("page size " + pageSize + " cannot hold the descriptor");
            }
            CollectionFile.setDescriptor(first, d);
            return b;
        } catch (RuntimeException e) {
            h.close();
            throw e;
        }
    }

    /** A new, formatted, dirty frame for page {@code page} (the next frame). */
    private MemorySegment newFrame(long page) {
        if (page >= descriptor.pages()) {
            throw new IllegalStateException("the collection needs more than the " + descriptor.pages()
                    + " pages its placement gave (" + descriptor.shape() + ")");
        }
        int f = frames++;
        MemorySegment p = memory.asSlice((long) f << shift, pageSize);
        SlottedPage.format(p, page);
        frameOf[(int) page] = f;
        pageOfFrame[f] = page;
        dirty[f] = true;
        return p;
    }

    /**
     * Allocates a new store object of {@code length} bytes with pointer words {@code pointerWords} (zero-filled) at
     * the end of the current page, or in the next new page when it is full, as {@link CollectionFile#write} places
     * objects (a bump allocation: Mneme's creation in a new segment);
     * returns its address ({@link #lastOid} gives its oid).
     */
    public long allocate(int length, int[] pointerWords) {
        if (allocating == null || !SlottedPage.denseFits(pageSize, allocatingSlots, allocatingEnd, length)) {
            allocating = newFrame(frames);
            allocatingSlots = 0;
            allocatingEnd = SlottedPage.dataStart(pageSize);
            if (!SlottedPage.denseFits(pageSize, 0, allocatingEnd, length)) {
                throw new IllegalArgumentException("an object of " + length + " bytes does not fit in a page of "
                        + pageSize + " (" + descriptor.shape() + ")");
            }
        }
        // a new page filled only by appending is densely packed: first fit is its end (SlottedPage.denseEnd), so the
        // placement is the one SlottedPage.allocate would choose, without its scan of the slot array
        int at = allocatingEnd;
        SlottedPage.allocateAt(allocating, at, allocatingSlots, length, pointerWords);
        lastOid = CollectionFile.oid(pageOfFrame[frames - 1], allocatingSlots);
        allocatingSlots++;
        allocatingEnd = (at + length + 7) & ~7;
        return ((long) (frames - 1) << shift) + at;
    }

    private int allocatingSlots;
    private int allocatingEnd;

    /** The oid of the object {@link #allocate} returned last. */
    public long lastOid() {
        return lastOid;
    }

    /** Allocates {@code length} bytes, 8-aligned, in the transient heap; returns the address. */
    public long heapAllocate(int length) {
        long a = heapTop;
        long top = a + ((length + 7) & ~7L);
        if (top > memory.byteSize()) {
            throw new IllegalStateException("transient heap of " + (memory.byteSize() - heapStart) + " bytes is full");
        }
        heapTop = top;
        return a;
    }

    /** Where the transient heap starts (its objects lie from here to {@link #heapTop}, in allocation order). */
    public long heapStart() {
        return heapStart;
    }

    public long heapTop() {
        return heapTop;
    }

    public CollectionFile.Descriptor descriptor() {
        return descriptor;
    }

    public MemorySegment memory() {
        return memory;
    }

    /** Reads every page of the collection (the eager schemes' read phase). */
    public void loadAll() {
        for (long page = 1; page < descriptor.pages(); page++) {
            if (frameOf[(int) page] < 0) {
                load(page);
            }
        }
    }

    private int load(long page) {
        if (page <= 0 || page >= descriptor.pages()) {
            throw new StoreFormatException(
                    volume.name(),
                    page,
                    page * pageSize,
                    "page of an oid",
                    "1.." + (descriptor.pages() - 1),
                    String.valueOf(page));
        }
        int f = frames++;
        try {
            volume.read(page, memory.asSlice((long) f << shift, pageSize));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        frameOf[(int) page] = f;
        pageOfFrame[f] = page;
        pagesRead++;
        return f;
    }

    /**
     * The address of the object named {@code oid}, reading its page if it is not resident (Moss's OMLookup).
     *
     * @throws StoreFormatException the oid names no page of the collection, a slot past the page's slot array or a
     *     free slot (naming the file, page and offset)
     */
    public long lookup(long oid) {
        long page = oid >>> 16;
        int f = page < frameOf.length ? frameOf[(int) page] : -1;
        if (f < 0) {
            f = load(page);
        }
        long frame = (long) f << shift;
        int slot = (int) (oid & 0xffff);
        if (slot >= Short.toUnsignedInt(memory.get(CollectionFile.SHORT, frame + slotCountOffset))) {
            throw new StoreFormatException(
                    volume.name(),
                    page,
                    page * pageSize + slotCountOffset,
                    "slot of oid " + Long.toHexString(oid),
                    "below the page's slot count "
                            + Short.toUnsignedInt(memory.get(CollectionFile.SHORT, frame + slotCountOffset)),
                    String.valueOf(slot));
        }
        int offset = Short.toUnsignedInt(memory.get(CollectionFile.SHORT, frame + pageSize - 4L * (slot + 1)));
        if (offset == 0) {
            throw new StoreFormatException(
                    volume.name(),
                    page,
                    page * pageSize + pageSize - 4L * (slot + 1),
                    "slot " + slot + " of oid " + Long.toHexString(oid),
                    "a live object",
                    "a free slot");
        }
        return frame + offset;
    }

    /** Notes that the page holding {@code address} must be written back. */
    public void markDirty(long address) {
        dirty[(int) (address >>> shift)] = true;
    }

    /** Writes every dirty page back (checksum sealed); not forced to disk, as Moss's saves ended at the OS. */
    public void writeBack() {
        MemorySegment copy = MemorySegment.ofArray(new byte[pageSize]);
        try {
            for (int f = 0; f < frames; f++) {
                if (dirty[f]) {
                    copy.copyFrom(memory.asSlice((long) f << shift, pageSize));
                    PageHeader.prepareForWrite(copy, pageOfFrame[f]);
                    handle.write(copy.asByteBuffer(), pageOfFrame[f] * pageSize);
                    dirty[f] = false;
                    pagesWritten++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public long pagesRead() {
        return pagesRead;
    }

    public long pagesWritten() {
        return pagesWritten;
    }

    @Override
    public void close() throws IOException {
        try {
            handle.close();
        } finally {
            arena.close();
        }
    }
}
