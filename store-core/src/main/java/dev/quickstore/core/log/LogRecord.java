package dev.quickstore.core.log;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.volume.VolumeHeader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * One write-ahead log record, format version {@value #VERSION} (version 2 added NEW_PAGE, version 3 moves; a
 * reader accepts version 1 and 2 records, which cannot hold what came later). All integers little-endian.
 *
 * <pre>
 * header (40 bytes)
 *      0  4 checksum   CRC32C of bytes 4..length-1
 *      4  4 length     total bytes, header included
 *      8  1 type       UPDATE 1, REDO 2, CLR 3, COMMIT 4, END 5, CHECKPOINT 6, NEW_PAGE 7
 *      9  1 version    {@value #VERSION} (1 and 2 are read too: 1 has no NEW_PAGE, neither has moves)
 *     10  6 reserved   zero
 *     16  8 lsn        the record's own LSN (its position in the log stream)
 *     24  8 txnId      transaction (0 for CHECKPOINT)
 *     32  8 prevLsn    previous record of the same transaction (0 = none)
 * page records: UPDATE, REDO, CLR, NEW_PAGE
 *     40  8 pageId
 *     48  8 undoNextLsn   CLR: next record of the transaction to undo; otherwise 0
 *     56  4 rangeCount
 *     60  4 moveCount  REDO: 0..{@value #MAX_MOVES}; every other type (and versions 1, 2: reserved): 0
 *     64  moves, each: u32 src, u32 dst, u32 length ({@value #MOVE_BYTES} bytes)
 *         ranges, each: u32 offset, u32 length ({@value #RANGE_HEADER} bytes), then
 *         UPDATE: before[length] after[length];  REDO, CLR and NEW_PAGE: after[length]
 * COMMIT: 40 8 commit time (ms since the epoch)
 * END:    nothing (the transaction's abort is complete)
 * CHECKPOINT:
 *     40  8 redoStartLsn  where analysis and redo begin (min of dirty-page recLSNs, active first LSN, own LSN)
 *     48  8 nextTxnId
 *     56  8 activeTxnId   0 = none
 *     64  8 activeFirstLsn
 *     72  8 activeLastLsn
 *     80  4 dirtyPageCount, 84 4 reserved, then (u64 pageId, u64 recLsn) per dirty page
 * </pre>
 *
 * <p>UPDATE carries undo and redo images: it is written when a page dirtied by a running transaction
 * is stolen (written back before commit). REDO carries only the after image: it is written at commit
 * by diffing the page against its pre-image ({@link PageDiff}), and is redone only for transactions
 * whose COMMIT is in the log. CLR (compensation) is the redo-only record of one undone UPDATE.
 *
 * <p>NEW_PAGE is the "new page" record of ARIES and of ESM's client logging: the commit-time record of a page the
 * transaction allocated ({@code BufferPool.fixNew}). Its page was never read: it was made resident as zeros, with
 * zeros as its pre-image, so redo must not start from the bytes the volume holds there (a page freed earlier keeps
 * stale bytes on disk). Redo zero-fills bytes 4..pageSize-1 (all but the checksum), then writes the ranges, which
 * are the page's difference from zeros, then sets the page LSN. Like REDO it is redo-only and redone only for a
 * transaction whose COMMIT is in the log; an abort restores the zero pre-image in memory.
 *
 * <p>Moves (version 3, REDO only) are page-local block moves found by {@link MoveSearch}: an insertion or
 * deletion inside a page (a text spliced in place, an entry inserted into a B+tree node) shifts every byte after
 * it, which the ranges alone would log in full. Redo applies the moves in order, each as {@code memmove} of
 * {@code length} bytes from {@code src} to {@code dst} on the page as the previous record left it, then the
 * ranges. A move never touches the page header ({@link PageHeader#SIZE} bytes: its checksum and LSN may differ
 * between memory, where the diff was taken, and the volume, where redo starts). REDO needs no undo, so moves need
 * no before-image; UPDATE and CLR records, which undo reads, never have moves.
 */
public final class LogRecord {
    public static final int HEADER = 40;
    public static final int PAGE_HEADER = 24;
    public static final int RANGE_HEADER = 8;
    static final byte VERSION = 3;
    /** The record version before NEW_PAGE (still read). */
    static final byte VERSION_1 = 1;
    /** The record version before moves (still read). */
    static final byte VERSION_2 = 2;
    /** Bytes of one move: u32 src, u32 dst, u32 length. */
    public static final int MOVE_BYTES = 12;
    /** Most moves in one record. */
    public static final int MAX_MOVES = 4;

    public static final byte UPDATE = 1;
    public static final byte REDO = 2;
    public static final byte CLR = 3;
    public static final byte COMMIT = 4;
    public static final byte END = 5;
    public static final byte CHECKPOINT = 6;
    public static final byte NEW_PAGE = 7;

    public byte type;
    public long lsn;
    public long txnId;
    public long prevLsn;
    public int length;
    // page records
    public long pageId;
    public long undoNextLsn;
    public int[] offsets = new int[0];
    public int[] lengths = new int[0];
    /** REDO: moves applied before the ranges (none for other types). */
    public PageMoves moves = new PageMoves();
    /** Per range, the before image (UPDATE only). */
    byte[][] before = new byte[0][];
    /** Per range, the image to write on redo. */
    byte[][] after = new byte[0][];
    // checkpoint
    public long redoStartLsn;
    public long nextTxnId;
    public long activeTxnId;
    long activeFirstLsn;
    long activeLastLsn;
    public long[] dirtyPages = new long[0];
    public long[] dirtyRecLsns = new long[0];

    public boolean isPageRecord() {
        return type == UPDATE || type == REDO || type == CLR || type == NEW_PAGE;
    }

    public static String typeName(int t) {
        return switch (t) {
            case UPDATE -> "UPDATE";
            case REDO -> "REDO";
            case CLR -> "CLR";
            case COMMIT -> "COMMIT";
            case END -> "END";
            case CHECKPOINT -> "CHECKPOINT";
            case NEW_PAGE -> "NEW_PAGE";
            default -> "unknown(" + t + ")";
        };
    }

    private static ByteBuffer header(int length, byte type, long txnId, long prevLsn) {
        return header(new byte[length], length, type, txnId, prevLsn);
    }

    /**
     * Writes the header of a record of {@code length} bytes into {@code out[0..HEADER)}, every byte of it (the
     * checksum and LSN as zeros, filled in by {@link #seal}): {@code out} may be a reused array holding an earlier
     * record. Returns a little-endian buffer over {@code out[0..length)} positioned after the header.
     */
    private static ByteBuffer header(byte[] out, int length, byte type, long txnId, long prevLsn) {
        ByteBuffer b = ByteBuffer.wrap(out, 0, length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0).putInt(length).put(type).put(VERSION).putShort((short) 0).putInt(0); // six reserved zero bytes
        b.putLong(0).putLong(txnId).putLong(prevLsn);
        return b;
    }

    /** Size of a page record with these moves and ranges. */
    public static int pageRecordSize(byte type, int moveCount, PageDiff.Ranges r) {
        long size = HEADER
                + PAGE_HEADER
                + (long) MOVE_BYTES * moveCount
                + (long) RANGE_HEADER * r.count
                + r.bytes() * (type == UPDATE ? 2 : 1);
        return Math.toIntExact(size);
    }

    /**
     * Encodes a page record (LSN and checksum are filled in by {@link LogWriter#append}).
     *
     * @param beforeImage bytes logged as "before" (UPDATE) — for CLR the undo image goes in {@code afterImage}
     */
    public static byte[] encodePage(
            byte type,
            long txnId,
            long prevLsn,
            long pageId,
            long undoNext,
            MemorySegment beforeImage,
            MemorySegment afterImage,
            PageDiff.Ranges r) {
        return encodePage(type, txnId, prevLsn, pageId, undoNext, beforeImage, afterImage, null, r);
    }

    /**
     * Encodes a page record with {@code moves} (null or none: a record without moves; only REDO may have moves),
     * which redo applies before the ranges.
     */
    public static byte[] encodePage(
            byte type,
            long txnId,
            long prevLsn,
            long pageId,
            long undoNext,
            MemorySegment beforeImage,
            MemorySegment afterImage,
            PageMoves moves,
            PageDiff.Ranges r) {
        byte[] out = new byte[pageRecordSize(type, moves == null ? 0 : moves.count, r)];
        encodePageInto(out, type, txnId, prevLsn, pageId, undoNext, beforeImage, afterImage, moves, r);
        return out;
    }

    /**
     * {@link #encodePage(byte, long, long, long, long, MemorySegment, MemorySegment, PageMoves, PageDiff.Ranges)} into
     * {@code out[0..size)}, every byte of it, where {@code size} is {@link #pageRecordSize} and {@code out} at least
     * that long (a commit reuses one array for its records: no array allocated and zeroed per logged page). Returns
     * {@code size}.
     */
    public static int encodePageInto(
            byte[] out,
            byte type,
            long txnId,
            long prevLsn,
            long pageId,
            long undoNext,
            MemorySegment beforeImage,
            MemorySegment afterImage,
            PageMoves moves,
            PageDiff.Ranges r) {
        int moveCount = moves == null ? 0 : moves.count;
        if (moveCount > 0 && (type != REDO || moveCount > MAX_MOVES)) {
            throw new IllegalArgumentException(moveCount + " moves in a " + typeName(type) + " record");
        }
        for (int i = 0; i < moveCount; i++) {
            if (!moveWithin(moves.src(i), moves.dst(i), moves.length(i), afterImage.byteSize())) {
                throw new IllegalArgumentException("move " + moves.src(i) + "->" + moves.dst(i) + "+" + moves.length(i)
                        + " outside the page past its header");
            }
        }
        int size = pageRecordSize(type, moveCount, r);
        ByteBuffer b = header(out, size, type, txnId, prevLsn);
        b.putLong(pageId).putLong(undoNext).putInt(r.count).putInt(moveCount);
        for (int i = 0; i < moveCount; i++) {
            b.putInt(moves.src(i)).putInt(moves.dst(i)).putInt(moves.length(i));
        }
        int pos = b.position();
        for (int i = 0; i < r.count; i++) {
            int s = r.start(i);
            int len = r.end(i) - s;
            // the range header by plain array stores, the images by the array form of the copy: a commit's first
            // records run before C2 has compiled this loop, where a segment access costs tens of array stores
            // (docs/results.md, "Page scans before C2")
            putIntLE(out, pos, s);
            putIntLE(out, pos + 4, len);
            pos += RANGE_HEADER;
            if (type == UPDATE) {
                MemorySegment.copy(beforeImage, ValueLayout.JAVA_BYTE, s, out, pos, len);
                pos += len;
            }
            MemorySegment.copy(afterImage, ValueLayout.JAVA_BYTE, s, out, pos, len);
            pos += len;
        }
        assert pos == size;
        return size;
    }

    /** Stores {@code v} little-endian at {@code out[at..at + 4)}. */
    private static void putIntLE(byte[] out, int at, int v) {
        out[at] = (byte) v;
        out[at + 1] = (byte) (v >>> 8);
        out[at + 2] = (byte) (v >>> 16);
        out[at + 3] = (byte) (v >>> 24);
    }

    /**
     * Copies the after-images of page record {@code rec} (as {@link #encodePage} wrote it: REDO, NEW_PAGE, CLR or
     * UPDATE) into {@code page}, which then holds what the record leaves of the page, as {@link #redo} does without
     * the LSN (a NEW_PAGE zero-fills all but the checksum first, a REDO applies its moves first; kernel write
     * tracking keeps the result as the page's twin). Header fields of the record other than its type are not
     * read.
     *
     * @throws IllegalArgumentException if {@code rec} is not a page record or a range lies outside {@code page}
     */
    public static void applyAfterImages(byte[] rec, MemorySegment page) {
        MemorySegment src = MemorySegment.ofArray(rec);
        byte type = rec[8];
        if (type != REDO && type != NEW_PAGE && type != CLR && type != UPDATE) {
            throw new IllegalArgumentException("record type " + type + " is not a page record");
        }
        if (type == NEW_PAGE) {
            page.asSlice(PageHeader.TYPE).fill((byte) 0); // as redo: all but the checksum
        }
        int count = src.get(PageHeader.INT, HEADER + 16);
        int moveCount = src.get(PageHeader.INT, HEADER + 20);
        int pos = HEADER + PAGE_HEADER;
        for (int i = 0; i < moveCount; i++) {
            int from = src.get(PageHeader.INT, pos);
            int to = src.get(PageHeader.INT, pos + 4);
            int len = src.get(PageHeader.INT, pos + 8);
            if (!moveWithin(from, to, len, page.byteSize())) {
                throw new IllegalArgumentException("move " + i + " " + from + "->" + to + " +" + len + " outside a "
                        + page.byteSize() + "-byte page past its header");
            }
            MemorySegment.copy(page, from, page, to, len);
            pos += MOVE_BYTES;
        }
        for (int i = 0; i < count; i++) {
            int start = src.get(PageHeader.INT, pos);
            int len = src.get(PageHeader.INT, pos + 4);
            pos += RANGE_HEADER;
            if (start < 0 || len < 0 || (long) start + len > page.byteSize()) {
                throw new IllegalArgumentException(
                        "range " + i + " [" + start + ", +" + len + ") outside a " + page.byteSize() + "-byte page");
            }
            if (type == UPDATE) {
                pos += len; // the before-image
            }
            MemorySegment.copy(src, pos, page, start, len);
            pos += len;
        }
    }

    public static byte[] encodeCommit(long txnId, long prevLsn, long millis) {
        ByteBuffer b = header(HEADER + 8, COMMIT, txnId, prevLsn);
        b.putLong(millis);
        return b.array();
    }

    public static byte[] encodeEnd(long txnId, long prevLsn) {
        return header(HEADER, END, txnId, prevLsn).array();
    }

    public static byte[] encodeCheckpoint(
            long redoStart,
            long nextTxnId,
            long activeTxn,
            long activeFirst,
            long activeLast,
            long[] pages,
            long[] recLsns) {
        ByteBuffer b = header(HEADER + 48 + 16 * pages.length, CHECKPOINT, 0, 0);
        b.putLong(redoStart)
                .putLong(nextTxnId)
                .putLong(activeTxn)
                .putLong(activeFirst)
                .putLong(activeLast)
                .putInt(pages.length)
                .putInt(0);
        for (int i = 0; i < pages.length; i++) {
            b.putLong(pages[i]).putLong(recLsns[i]);
        }
        return b.array();
    }

    /** Fills in LSN and checksum of an encoded record. */
    static void seal(byte[] rec, long lsn) {
        seal(rec, rec.length, lsn);
    }

    /** Fills in the LSN and the checksum of the record in {@code rec[0..length)}. */
    static void seal(byte[] rec, int length, long lsn) {
        ByteBuffer b = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(16, lsn);
        b.putInt(0, checksum(rec, length));
    }

    static int checksum(byte[] rec, int length) {
        CRC32C c = new CRC32C();
        c.update(rec, 4, length - 4);
        return (int) c.getValue();
    }

    /** The length field of a record prefix (at least 8 bytes). */
    static int peekLength(byte[] prefix) {
        return ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
    }

    /**
     * Decodes and validates a record read at {@code lsn}.
     *
     * @param fileOffset byte offset of the record in {@code file}, for error messages
     * @throws StoreFormatException naming the file, offset, field, expected and actual values
     */
    static LogRecord decode(String file, long fileOffset, long lsn, byte[] rec) {
        ByteBuffer b = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
        if (rec.length < HEADER) {
            throw bad(file, fileOffset, "record length", ">= " + HEADER, String.valueOf(rec.length));
        }
        int stored = b.getInt(0);
        int actual = checksum(rec, rec.length);
        if (stored != actual) {
            throw bad(
                    file,
                    fileOffset,
                    "log record checksum (CRC32C) at LSN " + lsn,
                    VolumeHeader.hex(stored),
                    VolumeHeader.hex(actual));
        }
        LogRecord r = new LogRecord();
        r.length = b.getInt(4);
        r.type = b.get(8);
        byte version = b.get(9);
        if (version != VERSION && version != VERSION_2 && version != VERSION_1) {
            throw bad(
                    file,
                    fileOffset + 9,
                    "log record version",
                    VERSION_1 + ", " + VERSION_2 + " or " + VERSION,
                    String.valueOf(version));
        }
        if (r.type == NEW_PAGE && version == VERSION_1) {
            throw bad(file, fileOffset + 9, "log record version of a NEW_PAGE record", String.valueOf(VERSION), "1");
        }
        r.lsn = b.getLong(16);
        if (r.lsn != lsn) {
            throw bad(file, fileOffset + 16, "log record LSN", String.valueOf(lsn), String.valueOf(r.lsn));
        }
        r.txnId = b.getLong(24);
        r.prevLsn = b.getLong(32);
        b.position(HEADER);
        try {
            switch (r.type) {
                case UPDATE, REDO, CLR, NEW_PAGE -> {
                    r.pageId = b.getLong();
                    r.undoNextLsn = b.getLong();
                    int n = b.getInt();
                    int moveCount = b.getInt();
                    int allowed = r.type == REDO && version >= 3 ? MAX_MOVES : 0;
                    if (moveCount < 0 || moveCount > allowed) {
                        throw bad(
                                file,
                                fileOffset + 60,
                                "move count of a " + typeName(r.type) + " record, version " + version,
                                "0.." + allowed,
                                String.valueOf(moveCount));
                    }
                    for (int i = 0; i < moveCount; i++) {
                        int from = b.getInt();
                        int to = b.getInt();
                        int len = b.getInt();
                        if (!moveWithin(from, to, len, 65536)) {
                            throw bad(
                                    file,
                                    fileOffset + b.position() - MOVE_BYTES,
                                    "move",
                                    "source and destination within a page, past its " + PageHeader.SIZE
                                            + "-byte header",
                                    from + "->" + to + "+" + len);
                        }
                        r.moves.add(from, to, len);
                    }
                    if (n < 0 || n > rec.length / RANGE_HEADER) {
                        throw bad(
                                file,
                                fileOffset + 56,
                                "range count",
                                "0.." + rec.length / RANGE_HEADER,
                                String.valueOf(n));
                    }
                    r.offsets = new int[n];
                    r.lengths = new int[n];
                    r.before = new byte[n][];
                    r.after = new byte[n][];
                    for (int i = 0; i < n; i++) {
                        r.offsets[i] = b.getInt();
                        r.lengths[i] = b.getInt();
                        if (r.offsets[i] < 0 || r.lengths[i] < 0 || r.lengths[i] > 65536 || r.offsets[i] > 65536) {
                            throw bad(
                                    file,
                                    fileOffset + b.position() - 8,
                                    "range",
                                    "offset and length within a page",
                                    r.offsets[i] + "+" + r.lengths[i]);
                        }
                        if (r.type == UPDATE) {
                            r.before[i] = new byte[r.lengths[i]];
                            b.get(r.before[i]);
                        }
                        r.after[i] = new byte[r.lengths[i]];
                        b.get(r.after[i]);
                    }
                }
                case COMMIT -> b.getLong();
                case END -> {
                    // no payload
                }
                case CHECKPOINT -> {
                    r.redoStartLsn = b.getLong();
                    r.nextTxnId = b.getLong();
                    r.activeTxnId = b.getLong();
                    r.activeFirstLsn = b.getLong();
                    r.activeLastLsn = b.getLong();
                    int n = b.getInt();
                    b.getInt();
                    if (n < 0 || n > rec.length / 16) {
                        throw bad(
                                file, fileOffset + 80, "dirty page count", "0.." + rec.length / 16, String.valueOf(n));
                    }
                    r.dirtyPages = new long[n];
                    r.dirtyRecLsns = new long[n];
                    for (int i = 0; i < n; i++) {
                        r.dirtyPages[i] = b.getLong();
                        r.dirtyRecLsns[i] = b.getLong();
                    }
                }
                default -> throw bad(file, fileOffset + 8, "log record type", "1..7", String.valueOf(r.type));
            }
        } catch (java.nio.BufferUnderflowException e) {
            throw bad(
                    file,
                    fileOffset,
                    "log record payload of " + typeName(r.type),
                    rec.length + " bytes consistent with its fields",
                    "fields running past the end");
        }
        if (b.position() != rec.length) {
            throw bad(
                    file,
                    fileOffset,
                    "log record length of " + typeName(r.type),
                    String.valueOf(b.position()),
                    String.valueOf(rec.length));
        }
        return r;
    }

    /**
     * Whether a move of {@code len} bytes from {@code from} to {@code to} stays inside a page of {@code pageSize}
     * bytes and clear of its header (the invariant of the moves; the writer never makes another, the reader refuses
     * one).
     */
    static boolean moveWithin(int from, int to, int len, long pageSize) {
        return Math.min(from, to) >= PageHeader.SIZE && len >= 0 && (long) Math.max(from, to) + len <= pageSize;
    }

    private static StoreFormatException bad(String file, long offset, String field, String expected, String actual) {
        return new StoreFormatException(file, -1, offset, field, expected, actual);
    }

    /**
     * Writes the redo images into {@code page} (NEW_PAGE: into a zeroed page; REDO: after its moves) and sets its
     * LSN.
     */
    public void redo(MemorySegment page) {
        if (type == NEW_PAGE) {
            page.asSlice(PageHeader.TYPE).fill((byte) 0); // all but the checksum, which is resealed on write
        }
        moves.applyTo(page);
        for (int i = 0; i < offsets.length; i++) {
            MemorySegment.copy(after[i], 0, page, java.lang.foreign.ValueLayout.JAVA_BYTE, offsets[i], lengths[i]);
        }
        PageHeader.setLsn(page, lsn);
    }

    /** Writes the before images of an UPDATE into {@code page} (LSN is set by the CLR). */
    public void undo(MemorySegment page) {
        assert type == UPDATE;
        for (int i = 0; i < offsets.length; i++) {
            MemorySegment.copy(before[i], 0, page, java.lang.foreign.ValueLayout.JAVA_BYTE, offsets[i], lengths[i]);
        }
    }

    /** The ranges of this record as {@link PageDiff.Ranges}. */
    public PageDiff.Ranges ranges() {
        PageDiff.Ranges r = new PageDiff.Ranges();
        for (int i = 0; i < offsets.length; i++) {
            r.add(offsets[i], offsets[i] + lengths[i]);
        }
        return r;
    }
}
