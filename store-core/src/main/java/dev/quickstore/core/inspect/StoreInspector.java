package dev.quickstore.core.inspect;

import dev.quickstore.core.btree.BPlusTree;
import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.MappingManager;
import dev.quickstore.core.buffer.PlacementFile;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.space.LargeObjects;
import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.ReadOnlyFileIO;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.function.Predicate;

/**
 * Read-only inspection of a store directory for tools (the {@code qs} admin shell): decodes the volume
 * header, pages, slots, objects, named roots and the index catalog, the control file and the log,
 * straight from the files. It takes no lock and runs no recovery, so it never writes and shows what
 * is on disk: after a crash, changes that only the log holds are not in the pages yet ({@link
 * #logState()} tells whether the store was closed cleanly). Views are records in {@code
 * dev.quickstore.core.inspect}.
 *
 */
public final class StoreInspector implements AutoCloseable {
    private static final FileIO IO = ReadOnlyFileIO.INSTANCE;

    private final Path dir;
    private final VolumeHeader header;
    private final FileIO.Handle volume;
    private final Addresses addresses;
    private final int pageSize;
    private final PageFields pageFields;
    private final LogInspector log;

    private StoreInspector(Path dir, VolumeHeader header, FileIO.Handle volume) throws IOException {
        this.dir = dir;
        this.header = header;
        this.volume = volume;
        this.pageSize = header.pageSize();
        PlacementFile placement = PlacementFile.read(IO, dir);
        if (placement == null) {
            this.addresses = new Addresses(header.preferredArenaBase(), pageSize);
        } else { // a QS-OR store: pages at their committed frames, pointers in either form
            this.addresses = new Addresses(placement.arenaBase(), pageSize);
            MappingManager m = new MappingManager(
                    header.preferredArenaBase(),
                    placement.arenaBase(),
                    pageSize,
                    Long.MAX_VALUE >>> Integer.numberOfTrailingZeros(pageSize),
                    placement.relocatedRegion());
            for (MappingManager.Descriptor d : placement.runs()) {
                m.addRun(d);
            }
            m.setRanges(placement.ranges());
            addresses.relocated(m);
        }
        this.pageFields = new PageFields(header, addresses);
        this.log = new LogInspector(IO, dir);
    }

    /**
     * Opens the store in {@code dir} for inspection: reads and validates its volume header.
     *
     * @throws java.nio.file.NoSuchFileException no store there
     * @throws StoreFormatException the header is damaged or foreign
     */
    public static StoreInspector open(Path dir) throws IOException {
        VolumeHeader h = VolumeFile.readHeader(IO, dir);
        return new StoreInspector(dir, h, IO.open(VolumeFile.volumePath(dir), false));
    }

    /** The files that make up the store in {@code dir}, relative to it: volume, control file, log segments. */
    public static List<Path> storeFiles(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        out.add(Path.of(VolumeFile.VOLUME_FILE));
        if (IO.exists(dir.resolve(VolumeFile.CONTROL_FILE))) {
            out.add(Path.of(VolumeFile.CONTROL_FILE));
        }
        for (Path p : IO.list(dir.resolve(VolumeFile.LOG_DIR))) {
            if (p.getFileName().toString().endsWith(".wal")) {
                out.add(Path.of(VolumeFile.LOG_DIR).resolve(p.getFileName()));
            }
        }
        return out;
    }

    /** Names of the store's other files, which {@link #storeFiles} leaves out: double-write and lock file. */
    public static List<String> auxiliaryFiles() {
        return List.of(VolumeFile.DOUBLE_WRITE_FILE, VolumeFile.LOCK_FILE);
    }

    public Path dir() {
        return dir;
    }

    public VolumeHeader header() {
        return header;
    }

    public long fileBytes() throws IOException {
        return volume.size();
    }

    /** Pages that can be asked for: the header's page count, or more if the file is longer. */
    public long pageLimit() throws IOException {
        return Math.max(header.pageCount(), (volume.size() + pageSize - 1) / pageSize);
    }

    /** The store address of {@code offset} in page {@code pageId}. */
    public long address(long pageId, int offset) {
        return addresses.address(pageId, offset);
    }

    /** Page of a store address. @throws IllegalArgumentException below the arena base */
    public long pageOf(long address) {
        return addresses.pageOf(address);
    }

    public int offsetOf(long address) {
        return addresses.offsetOf(address);
    }

    private void checkPageId(long pageId) throws IOException {
        long limit = pageLimit();
        if (pageId < 0 || pageId >= limit) {
            throw new IllegalArgumentException(
                    "page " + pageId + " does not exist: the volume has " + limit + " pages (0.." + (limit - 1) + ")");
        }
    }

    /** The raw bytes of page {@code pageId} as stored (zeros past the end of the file). */
    public byte[] rawPage(long pageId) throws IOException {
        checkPageId(pageId);
        byte[] b = new byte[pageSize];
        volume.read(ByteBuffer.wrap(b), pageId * pageSize);
        return b;
    }

    private MemorySegment checkedPage(long pageId) throws IOException {
        MemorySegment p = MemorySegment.ofArray(rawPage(pageId));
        PageHeader.check(volume.name(), pageId, p);
        return p;
    }

    /** Decodes page {@code pageId}; a damaged page is decoded as far as possible and marked {@code damaged}. */
    public PageView page(long pageId) throws IOException {
        MemorySegment p = MemorySegment.ofArray(rawPage(pageId));
        String state = "ok";
        String problem = null;
        if (pageId * pageSize >= volume.size()) {
            state = "past-end-of-file";
        } else if (PageHeader.isAllZero(p)) {
            state = "never-written";
        } else {
            try {
                PageHeader.check(volume.name(), pageId, p);
            } catch (StoreFormatException e) {
                state = "damaged";
                problem = e.getMessage();
            }
        }
        int type = PageHeader.type(p);
        Map<String, Object> fields = new LinkedHashMap<>();
        List<SlotView> slots = pageFields.decode(pageId, p, fields);
        return new PageView(
                pageId,
                PageHeader.typeName(type),
                type,
                p.get(ValueLayout.JAVA_BYTE, PageHeader.VERSION),
                PageHeader.pageId(p),
                PageHeader.lsn(p),
                PageHeader.aux(p),
                VolumeHeader.hex(PageHeader.storedChecksum(p)),
                VolumeHeader.hex(PageHeader.computeChecksum(p)),
                state,
                problem,
                fields,
                slots);
    }

    /**
     * The object at {@code address}: a live object of a slotted page, or a large object (the address of its
     * head page + 48).
     *
     * @throws IllegalArgumentException no object starts there
     */
    public ObjectView object(long address) throws IOException {
        return object(address, true);
    }

    /** {@code withPointers} false: the pointer fields are not described (a target's own fields, no recursion). */
    private ObjectView object(long address, boolean withPointers) throws IOException {
        long pageId = pageOf(address);
        int offset = offsetOf(address);
        checkPageId(pageId);
        MemorySegment p = checkedPage(pageId);
        int type = PageHeader.type(p);
        String where = "address " + hex(address) + " (page " + pageId + " offset " + offset + ")";
        if (type == PageHeader.SLOTTED) {
            int slot = SlottedPage.slotAt(p, offset);
            if (slot < 0) {
                throw new IllegalArgumentException("no object starts at " + where + ": no live slot has that offset");
            }
            int len = SlottedPage.slotLength(p, slot);
            List<ObjectView.PointerField> ptrs = new ArrayList<>();
            for (int w = offset / 8; w * 8 < offset + len; w++) {
                if (withPointers && SlottedPage.isPointer(p, w)) {
                    long v = p.get(PageHeader.LONG, (long) w * 8);
                    ptrs.add(pointer(w * 8 - offset, v));
                }
            }
            return new ObjectView(hex(address), pageId, offset, "small", slot, len, 1, ptrs);
        }
        if (type == PageHeader.LARGE && PageHeader.aux(p) == pageId && offset == LargeObjects.HEAD_DATA) {
            return new ObjectView(
                    hex(address),
                    pageId,
                    offset,
                    "large",
                    -1,
                    p.get(PageHeader.LONG, LargeObjects.HEAD_LENGTH),
                    p.get(PageHeader.INT, LargeObjects.HEAD_RUN_PAGES),
                    List.of());
        }
        throw new IllegalArgumentException("no object starts at " + where + ": the page is " + PageHeader.typeName(type)
                + (type == PageHeader.LARGE
                        ? " (a large object's address is its head page + " + LargeObjects.HEAD_DATA + ")"
                        : ""));
    }

    /** Up to {@code max} bytes of an object's contents. */
    public byte[] objectBytes(ObjectView o, int max) throws IOException {
        int n = (int) Math.min(o.length(), max);
        byte[] out = new byte[n];
        long pos = o.pageId() * pageSize + o.offset();
        if (o.kind().equals("small")) {
            volume.read(ByteBuffer.wrap(out), pos);
            return out;
        }
        // large: data from byte 48 of the head page, from byte 32 of the following pages
        int done = 0;
        long page = o.pageId();
        int from = LargeObjects.HEAD_DATA;
        while (done < n) {
            int len = Math.min(n - done, pageSize - from);
            volume.read(ByteBuffer.wrap(out, done, len), page * pageSize + from);
            done += len;
            page++;
            from = PageHeader.SIZE;
        }
        return out;
    }

    private ObjectView.PointerField pointer(int fieldOffset, long stored) throws IOException {
        long v = addresses.toRuntime(stored); // (the identity unless the store was relocated once)
        if (v == 0) {
            return new ObjectView.PointerField(fieldOffset, "0x0", -1, -1, "null");
        }
        if (v < addresses.arenaBase()) {
            return new ObjectView.PointerField(fieldOffset, hex(v), -1, -1, "dangling: below the arena base");
        }
        long tp = addresses.pageOf(v);
        int to = addresses.offsetOf(v);
        String target;
        if (tp >= pageLimit()) {
            target = "dangling: page " + tp + " is past the end of the volume";
        } else {
            try {
                ObjectView t = object(v, false);
                target = t.kind().equals("small") ? "object (slot " + t.slot() + ")" : "large object";
            } catch (IllegalArgumentException | StoreFormatException e) {
                target = "dangling: " + e.getMessage();
            }
        }
        return new ObjectView.PointerField(fieldOffset, hex(v), tp, to, target);
    }

    /** Scans every page of the volume (header page count): types, allocation, objects, free space. */
    public SpaceUsage space() throws IOException {
        long count = header.pageCount();
        long fileBytes = volume.size();
        Map<String, Long> byType = new LinkedHashMap<>();
        for (int t = 0; t <= PageHeader.MAX_TYPE; t++) {
            byType.put(PageHeader.typeName(t), 0L);
        }
        long allocated = 0;
        long damaged = 0;
        long objects = 0;
        long freeBytes = 0;
        MemorySegment map = null;
        long mapGroup = -1;
        for (long pg = 0; pg < count; pg++) {
            MemorySegment p = MemorySegment.ofArray(rawPage(pg));
            long group = pg / pageFields.groupPages();
            if (group != mapGroup) {
                long mp = group == 0 ? 1 : group * pageFields.groupPages();
                map = mp < pageLimit() ? MemorySegment.ofArray(rawPage(mp)) : null;
                mapGroup = group;
            }
            if (map != null && PageFields.bit(map, (int) (pg - group * pageFields.groupPages()))) {
                allocated++;
            }
            if (!PageHeader.isValid(p, pg)) {
                damaged++;
                continue;
            }
            int type = PageHeader.type(p);
            byType.merge(PageHeader.typeName(type), 1L, Long::sum);
            if (type == PageHeader.SLOTTED) {
                objects += SlottedPage.liveCount(p);
                freeBytes += PageFields.safeLargestFit(p);
            } else if (type == PageHeader.LARGE && PageHeader.aux(p) == pg) {
                objects++;
            }
        }
        return new SpaceUsage(count, fileBytes, allocated, count - allocated, byType, damaged, objects, freeBytes);
    }

    /** Named roots (name → address), read from the roots B+tree as stored; empty if there is none yet. */
    public Map<String, Long> roots() throws IOException {
        return treeEntries(header.rootsMetaPage());
    }

    /** Index catalog (index name → meta page of its B+tree); empty if there is none yet. */
    public Map<String, Long> indexes() throws IOException {
        return treeEntries(header.indexesMetaPage());
    }

    /** Entries of the string-keyed B+tree whose meta page is {@code meta}: leftmost leaf, then the leaf chain. */
    private Map<String, Long> treeEntries(long meta) throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        if (meta == 0) {
            return out;
        }
        MemorySegment m = checkedPage(meta);
        expectType(m, meta, PageHeader.BTREE_META);
        KeyType kt = KeyType.values()[m.get(ValueLayout.JAVA_BYTE, BPlusTree.META_KEY_TYPE)];
        int k = Short.toUnsignedInt(m.get(PageHeader.SHORT, BPlusTree.META_KEY_LENGTH));
        long page = m.get(PageHeader.LONG, BPlusTree.META_ROOT);
        long limit = pageLimit();
        MemorySegment p = checkedPage(page);
        for (long steps = 0; PageHeader.type(p) == PageHeader.BTREE_INNER && steps < limit; steps++) {
            page = p.get(PageHeader.LONG, BPlusTree.LINK);
            p = checkedPage(page);
        }
        for (long steps = 0; steps < limit; steps++) {
            expectType(p, page, PageHeader.BTREE_LEAF);
            int n = Short.toUnsignedInt(p.get(PageHeader.SHORT, BPlusTree.COUNT));
            byte[] bytes = p.toArray(ValueLayout.JAVA_BYTE);
            for (int i = 0; i < n; i++) {
                int at = BPlusTree.BODY + i * (k + 8);
                Object key = kt.decode(bytes, at, k);
                long value = ByteBuffer.wrap(bytes, at + k, 8)
                        .order(ByteOrder.BIG_ENDIAN)
                        .getLong();
                out.put(String.valueOf(key), value);
            }
            long next = PageHeader.aux(p);
            if (next == 0) {
                break;
            }
            page = next;
            p = checkedPage(page);
        }
        return out;
    }

    private void expectType(MemorySegment p, long pageId, byte type) {
        if (PageHeader.type(p) != type) {
            throw new StoreFormatException(
                    volume.name(),
                    pageId,
                    pageId * pageSize + PageHeader.TYPE,
                    "page type",
                    PageHeader.typeName(type),
                    PageHeader.typeName(PageHeader.type(p)));
        }
    }

    /** The control file and the log: segments, end, records, and whether the store was closed cleanly. */
    public LogState logState() throws IOException {
        return log.state();
    }

    /**
     * Visits log records from {@code fromLsn} (0 = the start of the kept log) to the end of the log, while
     * {@code visitor} returns true.
     *
     * @throws StoreFormatException durable log damage
     */
    public void log(long fromLsn, Predicate<LogEntry> visitor) throws IOException {
        log.visit(fromLsn, visitor);
    }

    /**
     * File-level checks that need no open store: every written page's checksum, version, id and type; the
     * volume file length; the control file; the log from its start to its end (durable damage, the
     * checkpoint record the control file names). Reports progress as pages checked.
     */
    public List<VerifyReport.Problem> checkFiles(LongConsumer pagesChecked) throws IOException {
        List<VerifyReport.Problem> problems = new ArrayList<>();
        long size = volume.size();
        if (size % pageSize != 0) {
            problems.add(new VerifyReport.Problem(
                    -1, volume.name() + ": length " + size + " is not a multiple of the page size " + pageSize));
        }
        long filePages = size / pageSize;
        for (long pg = 0; pg < filePages; pg++) {
            MemorySegment p = MemorySegment.ofArray(rawPage(pg));
            try {
                PageHeader.check(volume.name(), pg, p);
            } catch (StoreFormatException e) {
                problems.add(new VerifyReport.Problem(pg, e.getMessage()));
            }
            if ((pg & 1023) == 1023 || pg == filePages - 1) {
                pagesChecked.accept(pg + 1);
            }
        }
        ControlFile ctl;
        try {
            ctl = log.control();
        } catch (StoreFormatException e) {
            problems.add(new VerifyReport.Problem(-1, e.getMessage()));
            return problems;
        }
        if (ctl == null) {
            return problems;
        }
        try (LogReader reader = new LogReader(IO, dir.resolve(VolumeFile.LOG_DIR), ctl.logSegmentBytes())) {
            if (ctl.checkpointLsn() != 0) {
                LogRecord ck = reader.read(ctl.checkpointLsn());
                if (ck.type != LogRecord.CHECKPOINT) {
                    problems.add(new VerifyReport.Problem(
                            -1,
                            "control file names LSN " + ctl.checkpointLsn() + ", a " + LogRecord.typeName(ck.type)
                                    + " record, not a CHECKPOINT"));
                }
            }
            LogReader.Scan scan = reader.scan(log.scanStart(ctl), ctl.checkpointLsn() + 1);
            while (scan.next() != null) {
                // decoding validates every record
            }
        } catch (StoreFormatException e) {
            problems.add(new VerifyReport.Problem(-1, e.getMessage()));
        }
        return problems;
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    @Override
    public void close() throws IOException {
        volume.close();
    }
}
