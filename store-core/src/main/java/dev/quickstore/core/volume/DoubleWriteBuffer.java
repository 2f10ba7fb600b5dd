package dev.quickstore.core.volume;

import dev.quickstore.core.crashpoint.CrashPoints;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Torn-page protection: every page written back to the volume is first written, sealed, to this file
 * and forced; only then is it written in place (and the volume forced before the next batch reuses the
 * file). A page torn in place by a crash therefore has an intact copy here, and a page torn here was
 * never touched in place. Recovery ({@link #restore}) copies back every valid copy whose page in the
 * volume is damaged or older (lower page LSN). Redo then brings the page up to date from the log.
 *
 * <p>Format: {@value #SLOTS} slots of one page each; slot i at byte offset i * pageSize holds a sealed
 * page image (its own {@link PageHeader} names the page id and LSN; its checksum validates it) or
 * zeros / stale images from earlier batches (harmless: stale images have page LSN &lt;= the volume's).
 */
public final class DoubleWriteBuffer implements AutoCloseable {
    static final int SLOTS = 64;
    private final FileIO.Handle file;
    private final int pageSize;

    public DoubleWriteBuffer(FileIO.Handle file, int pageSize) {
        this.file = file;
        this.pageSize = pageSize;
    }

    /**
     * Writes a batch of pages durably: here first, then in place. {@code ids[i]} / {@code images[i]}
     * (unsealed frames).
     */
    public void writeBack(Volume volume, long[] ids, MemorySegment[] images, int count) throws IOException {
        MemorySegment buf = MemorySegment.ofArray(new byte[pageSize]);
        for (int from = 0; from < count; from += SLOTS) {
            int to = Math.min(count, from + SLOTS);
            for (int i = from; i < to; i++) {
                buf.copyFrom(images[i]);
                PageHeader.prepareForWrite(buf, ids[i]);
                file.write(buf.asByteBuffer(), (long) (i - from) * pageSize);
            }
            file.force();
            CrashPoints.reach(CrashPoints.Point.STEAL_DOUBLE_WRITTEN);
            for (int i = from; i < to; i++) {
                volume.write(ids[i], images[i]);
            }
            volume.force();
        }
    }

    /**
     * Repairs torn or stale volume pages from valid copies. Returns the ids of pages restored; adds any
     * page that is damaged in the volume without a copy to nothing (it is reported when read).
     */
    public List<Long> restore(Volume volume) throws IOException {
        List<Long> restored = new ArrayList<>();
        long size = file.size();
        MemorySegment copy = MemorySegment.ofArray(new byte[pageSize]);
        MemorySegment inPlace = MemorySegment.ofArray(new byte[pageSize]);
        for (long off = 0; off + pageSize <= size; off += pageSize) {
            ByteBuffer b = copy.asByteBuffer();
            file.read(b, off);
            if (PageHeader.isAllZero(copy)) {
                continue; // an all-zero page image is stored as zeros; in place it is valid whatever survived
            }
            long pageId = PageHeader.pageId(copy);
            if (!PageHeader.isValid(copy, pageId)) {
                continue; // torn copy: its in-place write never started
            }
            if (pageId < 0 || pageId > Volume.maxPageNumber(pageSize)) {
                // a sealed copy whose page number no page can have (found by fuzzing, issue 14)
                throw new StoreFormatException(
                        file.name(),
                        -1,
                        off + 8,
                        "page id of the copy in slot " + off / pageSize,
                        "0.." + Volume.maxPageNumber(pageSize),
                        String.valueOf(pageId));
            }
            volume.readRaw(pageId, inPlace);
            boolean damaged = !PageHeader.isValid(inPlace, pageId);
            if (damaged || PageHeader.lsn(inPlace) < PageHeader.lsn(copy)) {
                volume.writeSealed(pageId, copy);
                restored.add(pageId);
            }
        }
        if (!restored.isEmpty()) {
            volume.force();
        }
        return restored;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
