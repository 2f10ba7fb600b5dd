package dev.quickstore.core.volume;

import dev.quickstore.core.error.StorageIOException;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Page-granular access to the volume file. Reads verify the page checksum ({@link PageHeader#check});
 * pages at or past the end of the file read as never-written zero pages. Writes seal the checksum into
 * a copy of the frame (the frame itself is never sealed, so its bytes 0..3 never show up in a diff).
 */
public final class Volume implements AutoCloseable {
    private final FileIO.Handle file;
    private final int pageSize;
    private final MemorySegment scratch;

    public Volume(FileIO.Handle file, int pageSize) {
        this.file = file;
        this.pageSize = pageSize;
        this.scratch = MemorySegment.ofArray(new byte[pageSize]);
    }

    public String name() {
        return file.name();
    }

    public int pageSize() {
        return pageSize;
    }

    /**
     * Reads page {@code pageId} into {@code dst} without checking it.
     *
     * @throws StoreFormatException when no page can have that number (negative, or its byte position beyond a
     *     file's reach): a damaged page number read from a store structure (found by fuzzing, issue 14)
     */
    public void readRaw(long pageId, MemorySegment dst) throws IOException {
        checkPageNumber(file.name(), pageId, pageSize);
        ByteBuffer b = ByteBuffer.allocate(pageSize);
        int n;
        try {
            n = file.read(b, pageId * pageSize);
        } catch (StorageIOException e) {
            throw e.withPage(pageId);
        }
        MemorySegment src = MemorySegment.ofArray(b.array());
        if (n < pageSize) {
            src.asSlice(n).fill((byte) 0); // past EOF: never written
        }
        dst.copyFrom(src);
    }

    /** Reads and validates page {@code pageId} into {@code dst}. */
    public void read(long pageId, MemorySegment dst) throws IOException {
        readRaw(pageId, dst);
        PageHeader.check(file.name(), pageId, dst);
    }

    /** The highest page number a volume of {@code pageSize} pages can address (its byte position fits a long). */
    public static long maxPageNumber(int pageSize) {
        return Long.MAX_VALUE / pageSize - 1;
    }

    /**
     * Refuses a page number no page can have.
     *
     * @throws StoreFormatException naming {@code file} and the page number
     */
    public static void checkPageNumber(String file, long pageId, int pageSize) {
        if (pageId < 0 || pageId > maxPageNumber(pageSize)) {
            throw new StoreFormatException(
                    file,
                    -1,
                    0,
                    "page number " + pageId + " (a damaged page reference)",
                    "0.." + maxPageNumber(pageSize),
                    String.valueOf(pageId));
        }
    }

    /** Writes an image (checksum sealed into a copy). Not durable until {@link #force}. */
    void write(long pageId, MemorySegment frame) throws IOException {
        assert PageHeader.isAllZero(frame) || PageHeader.pageId(frame) == pageId || PageHeader.pageId(frame) == 0
                : "page id mismatch for " + pageId;
        scratch.copyFrom(frame);
        PageHeader.prepareForWrite(scratch, pageId);
        try {
            file.write(scratch.asByteBuffer(), pageId * pageSize);
        } catch (StorageIOException e) {
            throw e.withPage(pageId);
        }
    }

    /** Writes an image that already carries its checksum (from the double-write file). */
    void writeSealed(long pageId, MemorySegment image) throws IOException {
        try {
            file.write(image.asByteBuffer(), pageId * pageSize);
        } catch (StorageIOException e) {
            throw e.withPage(pageId);
        }
    }

    void force() throws IOException {
        file.force();
    }

    public long fileSize() throws IOException {
        return file.size();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
