package dev.quickstore.lab.swizzle;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
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

    private PageBuffers(FileIO.Handle handle, Volume volume, CollectionFile.Descriptor d) {
        this.handle = handle;
        this.volume = volume;
        this.descriptor = d;
        this.pageSize = d.pageSize();
        if (Integer.bitCount(pageSize) != 1) {
            throw new StoreFormatException(
                    volume.name(), 0, 0, "page size", "a power of two", String.valueOf(pageSize));
        }
        this.shift = Integer.numberOfTrailingZeros(pageSize);
        this.slotCountOffset = dev.quickstore.core.page.SlottedPage.dataStart(pageSize) - 8;
        int pages = Math.toIntExact(d.pages());
        this.arena = Arena.ofConfined();
        this.memory = arena.allocate((long) pages * pageSize, 64);
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
