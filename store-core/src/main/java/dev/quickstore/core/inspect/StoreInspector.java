package dev.quickstore.core.inspect;

import dev.quickstore.core.Store;
import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.MappingManager;
import dev.quickstore.core.buffer.PlacementFile;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.error.StoreLockedException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.log.LogSegments;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.stats.StoreStats;
import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.ReadOnlyFileIO;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.Closeable;
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
 * <p>Also the one door from tools to a few package-private mechanisms: the store's lock
 * ({@link #lock}) and the counters of an opened handle ({@link #stats}).
 */
public final class StoreInspector implements AutoCloseable {
    private static final FileIO IO = ReadOnlyFileIO.INSTANCE;
    private static final int LEAF_COUNT = 32;
    private static final int LINK = 40;
    private static final int BODY = 48;
    private static final int LARGE_DATA = 48;

    private final Path dir;
    private final VolumeHeader header;
    private final FileIO.Handle volume;
    private final Addresses addresses;
    private final int pageSize;
    private final long groupPages;

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
        this.groupPages = ((long) (pageSize - PageHeader.SIZE) * 8 / header.extentPages()) * header.extentPages();
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

    /**
     * Takes the store's exclusive lock (the one {@link Store#open} takes) without opening the store; close
     * the result to release it.
     *
     * @throws StoreLockedException the store is open elsewhere
     */
    public static Closeable lock(Path dir) throws IOException {
        return RealFileIO.INSTANCE.lock(dir.resolve(VolumeFile.LOCK_FILE));
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

    /** Counters of an opened store handle (this process only). */
    public static StoreStats stats(Store store) {
        return store.stats();
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
        List<SlotView> slots = List.of();
        switch (type) {
            case PageHeader.VOLUME_HEADER -> volumeFields(p, fields);
            case PageHeader.SPACE_MAP -> spaceMapFields(pageId, p, fields);
            case PageHeader.SLOTTED -> slots = slottedFields(pageId, p, fields);
            case PageHeader.LARGE -> largeFields(pageId, p, fields);
            case PageHeader.BTREE_META -> {
                int kt = p.get(ValueLayout.JAVA_BYTE, 32);
                fields.put("keyType", kt >= 0 && kt < KeyType.values().length ? KeyType.values()[kt].name() : "?" + kt);
                fields.put("unique", p.get(ValueLayout.JAVA_BYTE, 33) != 0);
                fields.put("keyLength", Short.toUnsignedInt(p.get(PageHeader.SHORT, 34)));
                fields.put("rootPage", p.get(PageHeader.LONG, 40));
                fields.put("height", p.get(PageHeader.INT, 48));
                fields.put("entries", p.get(PageHeader.LONG, 56));
            }
            case PageHeader.BTREE_INNER -> {
                fields.put("count", Short.toUnsignedInt(p.get(PageHeader.SHORT, LEAF_COUNT)));
                fields.put("firstChild", p.get(PageHeader.LONG, LINK));
            }
            case PageHeader.BTREE_LEAF -> {
                fields.put("count", Short.toUnsignedInt(p.get(PageHeader.SHORT, LEAF_COUNT)));
                fields.put("previousLeaf", p.get(PageHeader.LONG, LINK));
                fields.put("nextLeaf", PageHeader.aux(p));
            }
            default -> {
                // free or unknown: the header says it all
            }
        }
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

    private static void volumeFields(MemorySegment p, Map<String, Object> f) {
        byte[] magic = new byte[8];
        MemorySegment.copy(p, ValueLayout.JAVA_BYTE, VolumeHeader.MAGIC_OFFSET, magic, 0, 8);
        f.put("magic", new String(magic, java.nio.charset.StandardCharsets.ISO_8859_1));
        f.put("formatVersion", p.get(PageHeader.INT, VolumeHeader.FORMAT_VERSION_OFFSET));
        f.put("pageSize", p.get(PageHeader.INT, VolumeHeader.PAGE_SIZE_OFFSET));
        f.put(
                "creationId",
                new java.util.UUID(
                                p.get(PageHeader.LONG, VolumeHeader.CREATION_ID_OFFSET),
                                p.get(PageHeader.LONG, VolumeHeader.CREATION_ID_OFFSET + 8))
                        .toString());
        f.put("preferredArenaBase", hex(p.get(PageHeader.LONG, VolumeHeader.ARENA_BASE_OFFSET)));
        f.put("pageCount", p.get(PageHeader.LONG, VolumeHeader.PAGE_COUNT_OFFSET));
        f.put("createdMillis", p.get(PageHeader.LONG, VolumeHeader.CREATED_OFFSET));
        f.put("extentPages", p.get(PageHeader.INT, VolumeHeader.EXTENT_PAGES_OFFSET));
        f.put("rootsMetaPage", p.get(PageHeader.LONG, VolumeHeader.ROOTS_META_OFFSET));
        f.put("indexesMetaPage", p.get(PageHeader.LONG, VolumeHeader.INDEXES_META_OFFSET));
    }

    private void spaceMapFields(long pageId, MemorySegment p, Map<String, Object> f) {
        long group = pageId == 1 ? 0 : pageId / groupPages;
        long first = group * groupPages;
        long last = Math.min(first + groupPages, header.pageCount());
        long allocated = 0;
        for (long q = first; q < last; q++) {
            allocated += bit(p, (int) (q - first)) ? 1 : 0;
        }
        f.put("group", group);
        f.put("firstPage", first);
        f.put("pagesCovered", Math.max(0, last - first));
        f.put("allocated", allocated);
        f.put("free", Math.max(0, last - first) - allocated);
    }

    private static boolean bit(MemorySegment map, int i) {
        return (map.get(ValueLayout.JAVA_BYTE, PageHeader.SIZE + i / 8) & (1 << (i % 8))) != 0;
    }

    private List<SlotView> slottedFields(long pageId, MemorySegment p, Map<String, Object> f) {
        int n = SlottedPage.slotCount(p);
        f.put("slotCount", n);
        f.put("liveCount", SlottedPage.liveCount(p));
        f.put("dataStart", SlottedPage.dataStart(pageSize));
        f.put("largestFit", SlottedPage.slotCount(p) * SlottedPage.SLOT_SIZE < pageSize ? safeLargestFit(p) : 0);
        List<SlotView> slots = new ArrayList<>(n);
        int words = pageSize / 8;
        for (int i = 0; i < n && (i + 1) * SlottedPage.SLOT_SIZE <= pageSize; i++) {
            int off = SlottedPage.slotOffset(p, i);
            int len = SlottedPage.slotLength(p, i);
            List<Integer> ptrs = new ArrayList<>();
            if (off != 0) {
                for (int w = off / 8; w * 8 < off + len && w < words; w++) {
                    if (SlottedPage.isPointer(p, w)) {
                        ptrs.add(w * 8 - off);
                    }
                }
            }
            slots.add(new SlotView(i, off, len, off == 0 ? null : hex(address(pageId, off)), ptrs));
        }
        return slots;
    }

    private static int safeLargestFit(MemorySegment p) {
        try {
            return SlottedPage.largestFit(p);
        } catch (RuntimeException e) {
            return 0; // a damaged slot array: the slots themselves are listed
        }
    }

    private static void largeFields(long pageId, MemorySegment p, Map<String, Object> f) {
        long head = PageHeader.aux(p);
        f.put("headPage", head);
        if (head == pageId) {
            f.put("length", p.get(PageHeader.LONG, 32));
            f.put("runPages", p.get(PageHeader.INT, 40));
        }
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
        if (type == PageHeader.LARGE && PageHeader.aux(p) == pageId && offset == LARGE_DATA) {
            return new ObjectView(
                    hex(address),
                    pageId,
                    offset,
                    "large",
                    -1,
                    p.get(PageHeader.LONG, 32),
                    p.get(PageHeader.INT, 40),
                    List.of());
        }
        throw new IllegalArgumentException("no object starts at " + where + ": the page is " + PageHeader.typeName(type)
                + (type == PageHeader.LARGE ? " (a large object's address is its head page + 48)" : ""));
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
        int from = LARGE_DATA;
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
            long group = pg / groupPages;
            if (group != mapGroup) {
                long mp = group == 0 ? 1 : group * groupPages;
                map = mp < pageLimit() ? MemorySegment.ofArray(rawPage(mp)) : null;
                mapGroup = group;
            }
            if (map != null && bit(map, (int) (pg - group * groupPages))) {
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
                freeBytes += safeLargestFit(p);
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
        KeyType kt = KeyType.values()[m.get(ValueLayout.JAVA_BYTE, 32)];
        int k = Short.toUnsignedInt(m.get(PageHeader.SHORT, 34));
        long page = m.get(PageHeader.LONG, 40);
        long limit = pageLimit();
        MemorySegment p = checkedPage(page);
        for (long steps = 0; PageHeader.type(p) == PageHeader.BTREE_INNER && steps < limit; steps++) {
            page = p.get(PageHeader.LONG, LINK);
            p = checkedPage(page);
        }
        for (long steps = 0; steps < limit; steps++) {
            expectType(p, page, PageHeader.BTREE_LEAF);
            int n = Short.toUnsignedInt(p.get(PageHeader.SHORT, LEAF_COUNT));
            byte[] bytes = p.toArray(ValueLayout.JAVA_BYTE);
            for (int i = 0; i < n; i++) {
                int at = BODY + i * (k + 8);
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

    private ControlFile control() throws IOException {
        Path ctl = dir.resolve(VolumeFile.CONTROL_FILE);
        return IO.exists(ctl) ? ControlFile.read(IO, ctl) : null;
    }

    /**
     * Where listing starts: the first record of the oldest segment still present. Records there that lie
     * before the control file's logStartLsn are history recovery no longer needs, but still intact.
     */
    private long scanStart(ControlFile ctl) throws IOException {
        long[] segs = LogSegments.list(IO, dir.resolve(VolumeFile.LOG_DIR), ctl.logSegmentBytes());
        return segs.length == 0 ? ctl.logStartLsn() : segs[0] * ctl.logSegmentBytes();
    }

    /** The control file and the log: segments, end, records, and whether the store was closed cleanly. */
    public LogState logState() throws IOException {
        ControlFile ctl = control();
        if (ctl == null) {
            return new LogState(false, 0, 0, 0, 0, 0, 0, true, List.of());
        }
        Path logDir = dir.resolve(VolumeFile.LOG_DIR);
        List<LogState.Segment> segments = new ArrayList<>();
        for (long s : LogSegments.list(IO, logDir, ctl.logSegmentBytes())) {
            Path f = LogSegments.path(logDir, s, ctl.logSegmentBytes());
            try (FileIO.Handle h = IO.open(f, false)) {
                segments.add(new LogState.Segment(f.getFileName().toString(), s * ctl.logSegmentBytes(), h.size()));
            }
        }
        long records = 0;
        long after = 0;
        long lastLsn = 0;
        long end;
        try (LogReader reader = new LogReader(IO, logDir, ctl.logSegmentBytes())) {
            LogReader.Scan scan = reader.scan(scanStart(ctl), ctl.checkpointLsn() + 1);
            for (LogRecord r = scan.next(); r != null; r = scan.next()) {
                records++;
                after += r.lsn > ctl.checkpointLsn() ? 1 : 0;
                lastLsn = r.lsn;
            }
            end = scan.position();
        }
        boolean clean = lastLsn == ctl.checkpointLsn();
        return new LogState(
                true,
                ctl.checkpointLsn(),
                ctl.logStartLsn(),
                ctl.logSegmentBytes(),
                end,
                records,
                after,
                clean,
                segments);
    }

    /**
     * Visits log records from {@code fromLsn} (0 = the start of the kept log) to the end of the log, while
     * {@code visitor} returns true.
     *
     * @throws StoreFormatException durable log damage
     */
    public void log(long fromLsn, Predicate<LogEntry> visitor) throws IOException {
        ControlFile ctl = control();
        if (ctl == null) {
            return;
        }
        try (LogReader reader = new LogReader(IO, dir.resolve(VolumeFile.LOG_DIR), ctl.logSegmentBytes())) {
            long start = Math.max(fromLsn, scanStart(ctl));
            LogReader.Scan scan = reader.scan(scanStart(ctl), ctl.checkpointLsn() + 1);
            for (LogRecord r = scan.next(); r != null; r = scan.next()) {
                if (r.lsn >= start && !visitor.test(entry(r))) {
                    return;
                }
            }
        }
    }

    private static LogEntry entry(LogRecord r) {
        List<LogEntry.Range> ranges = new ArrayList<>(r.offsets.length);
        for (int i = 0; i < r.offsets.length; i++) {
            ranges.add(new LogEntry.Range(r.offsets[i], r.lengths[i]));
        }
        LogEntry.Checkpoint ck = null;
        if (r.type == LogRecord.CHECKPOINT) {
            List<Long> pages = new ArrayList<>();
            List<Long> recs = new ArrayList<>();
            for (int i = 0; i < r.dirtyPages.length; i++) {
                pages.add(r.dirtyPages[i]);
                recs.add(r.dirtyRecLsns[i]);
            }
            ck = new LogEntry.Checkpoint(r.redoStartLsn, r.nextTxnId, r.activeTxnId, pages, recs);
        }
        return new LogEntry(
                r.lsn,
                LogRecord.typeName(r.type),
                r.txnId,
                r.prevLsn,
                r.length,
                r.isPageRecord() ? r.pageId : -1,
                r.undoNextLsn,
                ranges,
                ck);
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
            ctl = control();
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
            LogReader.Scan scan = reader.scan(scanStart(ctl), ctl.checkpointLsn() + 1);
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
