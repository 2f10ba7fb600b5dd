package dev.quickstore.core.remote;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The payloads of a client's commit and the server's answers ({@link SessionFrame} types 6 to 9), little-endian:
 *
 * <pre>
 *   COMMIT      u64 transaction sequence (the client's, echoed in the answer)
 *               u32 reads,  then per read page:  u64 page, u64 page LSN the client read
 *               u32 writes, then per written page: u64 page, u64 page LSN the client read, u32 ranges,
 *                           then per range: u32 offset, u32 length, the bytes
 *   COMMITTED   u64 transaction sequence, u64 commit LSN (durable at the server when sent), u32 pages,
 *               then per written page, in the COMMIT's order: u64 the page's new LSN
 *   CONFLICT    u64 transaction sequence, u32 pages, then per page: u64 page, u64 LSN read, u64 LSN now
 *   INVALIDATE  u32 pages, then u64 page per page
 * </pre>
 *
 * A page's version is its page LSN (PageHeader offset 16), which only the server changes: a client's ranges
 * never cover the checksum (bytes 0..3) or the LSN (16..23). Invariant of a decoded COMMIT: counts and lengths
 * match the bytes present exactly (no trailing bytes), every range has a positive length.
 */
public final class CommitMessages {
    private CommitMessages() {}

    /** A page and the version (page LSN) the client saw. */
    public record PageVersion(long page, long lsn) {}

    /** The changed ranges of one page: {@code offsets[i]} gets {@code bytes[i]}. */
    public record PageWrite(long page, long lsn, int[] offsets, byte[][] bytes) {
        public PageWrite {
            if (offsets.length != bytes.length) {
                throw new IllegalArgumentException(offsets.length + " offsets for " + bytes.length + " ranges");
            }
        }
    }

    /** A client transaction's commit request. */
    public record Commit(long seq, List<PageVersion> reads, List<PageWrite> writes) {}

    /** What the server applied: the commit record's LSN and each written page's new LSN, in order. */
    public record Applied(long commitLsn, long[] pageLsns) {}

    /** A page that changed at the server after the client read it. */
    public record Conflict(long page, long readLsn, long currentLsn) {}

    public static byte[] encodeCommit(Commit c) {
        int size = 8 + 4 + 16 * c.reads().size() + 4;
        for (PageWrite w : c.writes()) {
            size += 20;
            for (byte[] r : w.bytes()) {
                size += 8 + r.length;
            }
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(c.seq()).putInt(c.reads().size());
        for (PageVersion v : c.reads()) {
            b.putLong(v.page()).putLong(v.lsn());
        }
        b.putInt(c.writes().size());
        for (PageWrite w : c.writes()) {
            b.putLong(w.page()).putLong(w.lsn()).putInt(w.offsets().length);
            for (int i = 0; i < w.offsets().length; i++) {
                b.putInt(w.offsets()[i]).putInt(w.bytes()[i].length).put(w.bytes()[i]);
            }
        }
        return b.array();
    }

    public static Commit decodeCommit(byte[] payload) throws SessionFrame.ProtocolException {
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        try {
            long seq = b.getLong();
            int nr = count(b, 16, "reads");
            List<PageVersion> reads = new ArrayList<>(nr);
            for (int i = 0; i < nr; i++) {
                reads.add(new PageVersion(b.getLong(), b.getLong()));
            }
            int nw = count(b, 20, "writes");
            List<PageWrite> writes = new ArrayList<>(nw);
            for (int i = 0; i < nw; i++) {
                long page = b.getLong();
                long lsn = b.getLong();
                int n = count(b, 8, "ranges of page " + page);
                int[] offsets = new int[n];
                byte[][] bytes = new byte[n][];
                for (int k = 0; k < n; k++) {
                    offsets[k] = b.getInt();
                    int len = b.getInt();
                    if (len <= 0 || len > b.remaining()) {
                        throw new SessionFrame.ProtocolException("COMMIT page " + page + " range " + k + ": length "
                                + Integer.toUnsignedString(len) + " with " + b.remaining() + " bytes left");
                    }
                    bytes[k] = new byte[len];
                    b.get(bytes[k]);
                }
                writes.add(new PageWrite(page, lsn, offsets, bytes));
            }
            if (b.hasRemaining()) {
                throw new SessionFrame.ProtocolException("COMMIT: " + b.remaining() + " trailing bytes");
            }
            return new Commit(seq, reads, writes);
        } catch (BufferUnderflowException e) {
            throw new SessionFrame.ProtocolException("COMMIT of " + payload.length + " bytes is truncated");
        }
    }

    private static int count(ByteBuffer b, int minBytesEach, String what) throws SessionFrame.ProtocolException {
        int n = b.getInt();
        if (n < 0 || (long) n * minBytesEach > b.remaining()) {
            throw new SessionFrame.ProtocolException(
                    "COMMIT: " + Integer.toUnsignedString(n) + " " + what + " in " + b.remaining() + " bytes");
        }
        return n;
    }

    public static byte[] encodeCommitted(long seq, Applied a) {
        ByteBuffer b = ByteBuffer.allocate(20 + 8 * a.pageLsns().length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(seq).putLong(a.commitLsn()).putInt(a.pageLsns().length);
        for (long l : a.pageLsns()) {
            b.putLong(l);
        }
        return b.array();
    }

    /** The applied commit of a COMMITTED frame; {@code seq[0]} receives the transaction sequence. */
    public static Applied decodeCommitted(byte[] payload, long[] seq) throws SessionFrame.ProtocolException {
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        if (payload.length < 20 || (payload.length - 20) % 8 != 0 || b.getInt(16) != (payload.length - 20) / 8) {
            throw new SessionFrame.ProtocolException("COMMITTED payload of " + payload.length + " bytes");
        }
        seq[0] = b.getLong();
        long commitLsn = b.getLong();
        long[] lsns = new long[b.getInt()];
        for (int i = 0; i < lsns.length; i++) {
            lsns[i] = b.getLong();
        }
        return new Applied(commitLsn, lsns);
    }

    public static byte[] encodeConflict(long seq, List<Conflict> pages) {
        ByteBuffer b = ByteBuffer.allocate(12 + 24 * pages.size()).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(seq).putInt(pages.size());
        for (Conflict c : pages) {
            b.putLong(c.page()).putLong(c.readLsn()).putLong(c.currentLsn());
        }
        return b.array();
    }

    /** The conflicts of a CONFLICT frame; {@code seq[0]} receives the transaction sequence. */
    public static List<Conflict> decodeConflict(byte[] payload, long[] seq) throws SessionFrame.ProtocolException {
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        if (payload.length < 12 || (payload.length - 12) % 24 != 0) {
            throw new SessionFrame.ProtocolException("CONFLICT payload of " + payload.length + " bytes");
        }
        seq[0] = b.getLong();
        int n = b.getInt();
        if (n != (payload.length - 12) / 24) {
            throw new SessionFrame.ProtocolException("CONFLICT: " + n + " pages in " + payload.length + " bytes");
        }
        List<Conflict> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new Conflict(b.getLong(), b.getLong(), b.getLong()));
        }
        return out;
    }

    public static byte[] encodeInvalidate(long[] pages) {
        ByteBuffer b = ByteBuffer.allocate(4 + 8 * pages.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(pages.length);
        for (long p : pages) {
            b.putLong(p);
        }
        return b.array();
    }

    public static long[] decodeInvalidate(byte[] payload) throws SessionFrame.ProtocolException {
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        if (payload.length < 4 || b.getInt(0) != (payload.length - 4) / 8 || (payload.length - 4) % 8 != 0) {
            throw new SessionFrame.ProtocolException("INVALIDATE payload of " + payload.length + " bytes");
        }
        long[] pages = new long[b.getInt()];
        for (int i = 0; i < pages.length; i++) {
            pages[i] = b.getLong();
        }
        return pages;
    }
}
