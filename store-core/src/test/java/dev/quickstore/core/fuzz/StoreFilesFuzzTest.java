package dev.quickstore.core.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.quickstore.core.btree.BPlusTree;
import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.buffer.OffHeapFrames;
import dev.quickstore.core.buffer.PlacementFile;
import dev.quickstore.core.buffer.Replacer;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.space.ExtentAllocator;
import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.DoubleWriteBuffer;
import dev.quickstore.core.volume.Volume;
import dev.quickstore.core.volume.VolumeHeader;
import dev.quickstore.mmu.Replacement;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Coverage-guided fuzz targets (Jazzer, issue 14 "Fuzzed decoders") for every decoder of the store's own
 * files: volume header, space map, slotted page, B+tree nodes, log record, log segment, placement file,
 * control file and double-write file. Each target decodes arbitrary bytes through the production code; the
 * only allowed outcomes are a decode (then, where the format allows it, a round trip through the encoder)
 * or {@link StoreFormatException} naming what is wrong. Any other exception, an endless loop (Jazzer's
 * timeout) or an allocation beyond the heap is a finding.
 *
 * <p>Every format is guarded by a CRC32C, which random mutations almost never satisfy; each target
 * therefore decodes the input twice, as it is (the checksum path) and with its checksums recomputed
 * ("resealed"), so that the fuzzer reaches the field checks behind them.
 *
 * <p>Seeds: {@code src/test/resources/dev/quickstore/core/fuzz/StoreFilesFuzzTestInputs/<target>/}, real
 * structures written by {@link FuzzSeedsTest}. Without {@code JAZZER_FUZZ} these methods run the seeds
 * only (regression mode); {@link BriefFuzzingTest} fuzzes each for a few seconds in a child JVM.
 */
class StoreFilesFuzzTest {
    /** Page size of the stores the seeds come from (a valid size; the smallest keeps inputs short). */
    static final int PS = 4096;

    static final Path DIR = Path.of("/fuzz/db");
    static final Path LOG = DIR.resolve("log");
    /** Log segment size of the fuzzed log (any size works; the segment file's name depends on it). */
    static final long SEGMENT = 1 << 20;

    private final MemoryFileIO io = new MemoryFileIO();

    /** Runs a decoder: its result, or null when it refused the bytes with its typed exception. */
    static <T> T decodes(Decoder<T> d) throws IOException {
        try {
            return d.decode();
        } catch (StoreFormatException e) {
            String m = e.getMessage();
            assertTrue(m != null && m.contains("offset") && m.contains("expected"), "message names no place: " + m);
            return null;
        }
    }

    interface Decoder<T> {
        T decode() throws IOException;
    }

    static int crc(byte[] b, int from, int to) {
        CRC32C c = new CRC32C();
        c.update(b, from, to - from);
        return (int) c.getValue();
    }

    static void putInt(byte[] b, int at, int v) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
    }

    /** Pages of {@code PS} bytes from the input (the last one padded with zeros), each resealed. */
    static byte[] sealedPages(byte[] data, int maxPages) {
        int pages = Math.max(1, Math.min(maxPages, (data.length + PS - 1) / PS));
        byte[] out = Arrays.copyOf(data, pages * PS);
        for (int i = 0; i < pages; i++) {
            MemorySegment p = MemorySegment.ofArray(out).asSlice((long) i * PS, PS);
            if (!PageHeader.isAllZero(p)) {
                PageHeader.seal(p);
            }
        }
        return out;
    }

    /** The targets {@link #everyDecoder} dispatches to, by its input's first byte. */
    static final List<String> TARGETS = List.of(
            "volumeHeader",
            "spaceMap",
            "slottedPage",
            "bplusTree",
            "logRecord",
            "logSegment",
            "placementFile",
            "controlFile",
            "doubleWriteBuffer",
            "schemaCatalog",
            "sessionFrame");

    /**
     * All store-core targets in one: the first byte picks the target (modulo {@link #TARGETS}), the rest is its
     * input. CI fuzzes this one target in one child JVM ({@link BriefFuzzingTest}): Jazzer fuzzes one target
     * per JVM, and a JVM start per target would cost more than the fuzzing. Its seeds are every target's seeds
     * behind their selector byte.
     */
    @FuzzTest(maxDuration = "10s")
    void everyDecoder(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        byte[] rest = Arrays.copyOfRange(data, 1, data.length);
        switch (TARGETS.get(Byte.toUnsignedInt(data[0]) % TARGETS.size())) {
            case "volumeHeader" -> volumeHeader(rest);
            case "spaceMap" -> spaceMap(rest);
            case "slottedPage" -> slottedPage(rest);
            case "bplusTree" -> bplusTree(rest);
            case "logRecord" -> logRecord(rest);
            case "logSegment" -> logSegment(rest);
            case "placementFile" -> placementFile(rest);
            case "controlFile" -> controlFile(rest);
            case "doubleWriteBuffer" -> doubleWriteBuffer(rest);
            case "schemaCatalog" -> new dev.quickstore.api.internal.CatalogFuzzTest().schemaCatalog(rest);
            default -> new dev.quickstore.core.remote.SessionFramesFuzzTest().sessionFrame(rest);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void volumeHeader(byte[] data) throws IOException {
        volumeHeaderOnce(data);
        int ps = VolumeHeader.peekPageSize(data, data.length);
        if (data.length >= PageHeader.SIZE) {
            byte[] sealed = data.clone();
            int end = ps >= PageHeader.SIZE && ps <= data.length ? ps : data.length;
            PageHeader.seal(MemorySegment.ofArray(sealed).asSlice(0, end));
            volumeHeaderOnce(sealed);
        }
    }

    private static void volumeHeaderOnce(byte[] page) throws IOException {
        VolumeHeader h = decodes(() -> VolumeHeader.decode("volume.qs", page));
        if (h != null) {
            assertEquals(h, VolumeHeader.decode("volume.qs", h.encode()), "round trip");
        }
    }

    @FuzzTest(maxDuration = "10s")
    void controlFile(byte[] data) throws IOException {
        controlFileOnce(data);
        if (data.length >= 64) {
            byte[] sealed = data.clone();
            putInt(sealed, 60, crc(sealed, 0, 60));
            controlFileOnce(sealed);
        }
    }

    private void controlFileOnce(byte[] bytes) throws IOException {
        Path f = DIR.resolve("control.qs");
        io.put(f, bytes);
        ControlFile c = decodes(() -> ControlFile.read(io, f));
        if (c != null) {
            Path g = DIR.resolve("control.again");
            c.write(io, g);
            assertEquals(c, ControlFile.read(io, g), "round trip");
        }
    }

    @FuzzTest(maxDuration = "10s")
    void placementFile(byte[] data) throws IOException {
        placementOnce(data);
        if (data.length >= 4) {
            byte[] sealed = data.clone();
            putInt(sealed, sealed.length - 4, crc(sealed, 0, sealed.length - 4));
            placementOnce(sealed);
        }
    }

    private void placementOnce(byte[] bytes) throws IOException {
        io.put(PlacementFile.path(DIR), bytes);
        PlacementFile p = decodes(() -> PlacementFile.read(io, DIR));
        if (p != null) {
            assertArrayEquals(bytes, p.encode(), "round trip");
        }
    }

    /** A segment header as the writer writes it. */
    static byte[] segmentHeader() {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        b.put("QSWALSEG".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(1);
        b.putInt(crc(b.array(), 0, 12));
        return b.array();
    }

    /** One record at LSN 16 (the first of segment 0): read as recovery reads a record by its LSN. */
    @FuzzTest(maxDuration = "10s")
    void logRecord(byte[] data) throws IOException {
        logRecordOnce(data);
        if (data.length >= 8) {
            byte[] sealed = data.clone();
            putInt(sealed, 0, crc(sealed, 4, sealed.length));
            logRecordOnce(sealed);
        }
    }

    private void logRecordOnce(byte[] rec) throws IOException {
        io.clear();
        byte[] seg = new byte[16 + rec.length];
        System.arraycopy(segmentHeader(), 0, seg, 0, 16);
        System.arraycopy(rec, 0, seg, 16, rec.length);
        io.put(LOG.resolve(String.format("%016x.wal", 0)), seg);
        try (LogReader r = new LogReader(io, LOG, SEGMENT)) {
            LogRecord lr = decodes(() -> r.read(16));
            if (lr != null) {
                assertEquals(16, lr.lsn);
                assertTrue(lr.length >= LogRecord.HEADER && lr.length <= rec.length, "length " + lr.length);
                if (lr.isPageRecord()) {
                    long total = 0;
                    for (int i = 0; i < lr.offsets.length; i++) {
                        total += lr.lengths[i];
                    }
                    assertTrue(total <= lr.length, "ranges of " + total + " bytes in a record of " + lr.length);
                }
            }
        }
    }

    /** A whole segment file scanned as recovery scans the log (torn tail allowed or not). */
    @FuzzTest(maxDuration = "10s")
    void logSegment(byte[] data) throws IOException {
        logSegmentOnce(data, 0);
        logSegmentOnce(data, Long.MAX_VALUE);
        if (data.length >= 16) {
            byte[] headed = data.clone();
            System.arraycopy(segmentHeader(), 0, headed, 0, 16);
            logSegmentOnce(headed, 0);
        }
    }

    private void logSegmentOnce(byte[] seg, long durableBefore) throws IOException {
        io.clear();
        io.put(LOG.resolve(String.format("%016x.wal", 0)), seg);
        try (LogReader r = new LogReader(io, LOG, SEGMENT)) {
            LogReader.Scan s = r.scan(16, durableBefore);
            decodes(() -> {
                long last = 0;
                for (LogRecord rec = s.next(); rec != null; rec = s.next()) {
                    assertTrue(s.position() > last && s.position() <= seg.length, "scan position " + s.position());
                    last = s.position();
                }
                return last;
            });
        }
    }

    /** A double-write file applied to a small volume, as recovery restores torn pages. */
    @FuzzTest(maxDuration = "10s")
    void doubleWriteBuffer(byte[] data) throws IOException {
        doubleWriteOnce(data);
        doubleWriteOnce(sealedPages(data, 64));
    }

    private void doubleWriteOnce(byte[] dwb) throws IOException {
        io.clear();
        Path vol = DIR.resolve("volume.qs");
        byte[] volume = new byte[4 * PS];
        for (int i = 1; i < 4; i++) {
            MemorySegment p = MemorySegment.ofArray(volume).asSlice((long) i * PS, PS);
            PageHeader.format(p, i, PageHeader.SLOTTED);
            PageHeader.setLsn(p, 100);
            PageHeader.seal(p);
        }
        io.put(vol, volume);
        io.put(DIR.resolve("doublewrite.qs"), dwb);
        try (Volume v = new Volume(io.open(vol, false), PS);
                DoubleWriteBuffer d = new DoubleWriteBuffer(io.open(DIR.resolve("doublewrite.qs"), false), PS)) {
            List<Long> restored;
            try {
                restored = decodes(() -> d.restore(v));
            } catch (IOException e) {
                // a copy of a page far beyond 64 MiB: a real file takes the write (sparse), memory does not
                assertTrue(e.getMessage().contains("in-memory file larger than"), e.toString());
                return;
            }
            if (restored != null) {
                MemorySegment back = MemorySegment.ofArray(new byte[PS]);
                for (long id : restored) {
                    v.read(id, back); // a restored page reads back valid
                }
            }
        }
    }

    /** One slotted page: checked as the verifier checks it; a page that passes is read and changed. */
    @FuzzTest(maxDuration = "10s")
    void slottedPage(byte[] data) throws IOException {
        byte[] page = sealedPages(data, 1);
        MemorySegment p = MemorySegment.ofArray(page);
        long id = PageHeader.pageId(p);
        if (decodes(() -> {
                    PageHeader.check("volume.qs", id, p);
                    return p;
                })
                == null) {
            return;
        }
        if (PageHeader.type(p) != PageHeader.SLOTTED) {
            return;
        }
        VerifyReport report = new VerifyReport();
        SlottedPage.check(p, id, report);
        if (!report.ok()) {
            return;
        }
        int slots = SlottedPage.slotCount(p);
        int live = 0;
        for (int i = 0; i < slots; i++) {
            int off = SlottedPage.slotOffset(p, i);
            if (off == 0) {
                continue;
            }
            live++;
            int len = SlottedPage.slotLength(p, i);
            assertEquals(i, SlottedPage.slotAt(p, off));
            for (int w = off / 8; w * 8 < off + len; w++) {
                SlottedPage.isPointer(p, w);
            }
            p.asSlice(off, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
        assertEquals(SlottedPage.liveCount(p), live);
        int fit = SlottedPage.largestFit(p);
        if (fit > 0 && fit <= SlottedPage.maxObjectSize(PS)) {
            int at = SlottedPage.allocate(p, fit, new int[0]);
            assertTrue(at > 0, "largestFit said " + fit + " bytes fit");
            SlottedPage.free(p, at);
            VerifyReport after = new VerifyReport();
            SlottedPage.check(p, id, after);
            assertTrue(after.ok(), after.toString());
        }
    }

    /** A small volume (pages of the input, resealed) read through the buffer pool. */
    private BufferPool pool(byte[] data, int maxPages) throws IOException {
        io.clear();
        Path vol = DIR.resolve("volume.qs");
        io.put(vol, sealedPages(data, maxPages));
        OffHeapFrames frames = new OffHeapFrames(PS, 8);
        return new BufferPool(
                frames,
                new Volume(io.open(vol, false), PS),
                null,
                null,
                Replacer.of(Replacement.STORE_CLOCK, frames),
                vol.toString());
    }

    /** The space map of a small volume: page count from the header, every page's allocation bit. */
    @FuzzTest(maxDuration = "10s")
    void spaceMap(byte[] data) throws IOException {
        BufferPool pool = pool(data, 4);
        VolumeHeader h = decodes(() -> VolumeHeader.decode("volume.qs", Arrays.copyOf(sealedPages(data, 1), PS)));
        if (h == null || h.pageSize() != PS) {
            return;
        }
        ExtentAllocator ext = new ExtentAllocator(pool, PS, h.extentPages());
        decodes(() -> {
            long count = ext.pageCount();
            long allocated = 0;
            for (long q = 0; q < Math.min(count, 3 * ext.groupPages()); q++) {
                allocated += ext.isAllocated(q) ? 1 : 0;
                pool.unpinAll();
            }
            return allocated;
        });
    }

    /** The named-root B+tree of a small volume: verified as {@code qs verify} does, then scanned. */
    @FuzzTest(maxDuration = "10s")
    void bplusTree(byte[] data) throws IOException {
        BufferPool pool = pool(data, 8);
        VolumeHeader h = decodes(() -> VolumeHeader.decode("volume.qs", Arrays.copyOf(sealedPages(data, 1), PS)));
        if (h == null || h.pageSize() != PS || h.rootsMetaPage() == 0) {
            return;
        }
        ExtentAllocator ext = new ExtentAllocator(pool, PS, h.extentPages());
        BPlusTree t = decodes(() -> BPlusTree.open(pool, ext, h.rootsMetaPage()));
        if (t == null) {
            return;
        }
        VerifyReport report = new VerifyReport();
        if (decodes(() -> {
                    t.check(report, new HashSet<>());
                    return report;
                })
                == null) {
            return;
        }
        pool.unpinAll();
        if (report.ok()) {
            List<Object> keys = new ArrayList<>();
            decodes(() -> {
                t.scan(null, null, (k, v) -> keys.add(k));
                return keys;
            });
            assertEquals(report.indexEntries(), keys.size(), "entries scanned in a tree that verifies");
        }
    }
}
