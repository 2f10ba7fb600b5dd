package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * A {@link CharSequence} over a stored text blob ({@link Blobs}), read from the application view: what a
 * generated getter declared {@code CharSequence} returns. {@code charAt} maps the logical position to the page
 * run holding it (a small blob is one run; a large object's data continues after each following page's
 * 32-byte header). The first {@code charAt} in a window of {@value #WINDOW} bytes of a run reads its character
 * alone; the second copies that window out of the view with one bulk copy, and further {@code charAt}s of the
 * window are array loads (a reader of one character per window, OO7 T9's first and last, copies nothing). A scan of a 2,000-byte document or a 100,000-byte
 * manual (OO7 T4, T8) therefore costs one {@code memcpy} per window instead of a checked segment access per
 * character (issue 13: the per-character access was most of T8 and T5's reading, docs/results.md "Hot path,
 * second landing"), and a test of a prefix (T5) copies one window, not the whole text ("fifth landing"). {@link #subSequence} and {@link #toString} decode the range with one bulk copy, and
 * {@link #getChars} copies the characters into the caller's array run by run.
 *
 * <p>Valid while the blob lives: until the owning field is set again (which frees or rewrites the old blob), the
 * owner is deleted, or the store closes. Like a proxy, it is meant for use inside the transaction that read it
 * (a run read before a change of the blob in the same transaction is not read again). {@code equals} is
 * identity, as for any {@code CharSequence}.
 */
final class BlobText implements CharSequence {
    private static final int LARGE_HEAD_DATA = 48;
    private static final int PAGE_HEADER = 32;
    /** Bytes copied per {@link #locate}: even (a UTF-16 character never straddles two windows). */
    static final int WINDOW = 512;

    private final long address;
    private final int length;
    private final boolean utf16;
    private final boolean large;
    // the current window of a run: logical positions [runLo, runHi), copied in bytes[0, runHi - runLo) (none
    // until the first charAt); invariant: runHi - runLo <= WINDOW, runLo even
    private long runLo;
    private long runHi;
    private byte[] bytes;
    // the window window(pos) found last: logical positions [winLo, winHi), at view offset winAt
    private long winLo;
    private long winHi;
    private long winAt;
    // the logical start of the window of the last charAt read alone (-1: none): a second charAt in that window
    // copies it
    private long aloneLo = -1;

    BlobText(long address) {
        this.address = address;
        long header = Blobs.header(address); // one read for length, kind and flags
        byte kind = (byte) (header >>> 32);
        if (kind != Blobs.LATIN1 && kind != Blobs.UTF16) {
            throw new IllegalStateException(String.format("blob at 0x%x is not text (kind %d)", address, kind));
        }
        this.utf16 = kind == Blobs.UTF16;
        this.length = (int) header >> (utf16 ? 1 : 0);
        this.large = (header >>> 40 & 1) != 0;
    }

    /** The stored blob this text views. */
    long address() {
        return address;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + " of a stored text of " + length);
        }
        long pos = Blobs.HEADER + ((long) index << (utf16 ? 1 : 0));
        if (pos < runLo || pos >= runHi) {
            window(pos);
            if (winLo != aloneLo) {
                // the first character read in this window is read alone, without copying the window: a reader of
                // one or two characters (OO7 T9: the first and the last of a manual) copies nothing; a second
                // character of the same window copies it, so a scan reads one character per window alone
                aloneLo = winLo;
                long a = View.base() + winAt + (pos - winLo);
                int lo = FlatView.getByte(a) & 0xff;
                return utf16 ? (char) (lo | (FlatView.getByte(a + 1) & 0xff) << 8) : (char) lo;
            }
            copyWindow();
        }
        int i = (int) (pos - runLo);
        byte[] b = bytes;
        // runs start and end at even logical positions, so a UTF-16 character never straddles two
        return utf16 ? (char) ((b[i] & 0xff) | (b[i + 1] & 0xff) << 8) : (char) (b[i] & 0xff);
    }

    /** Makes the window of logical position {@code pos} current ({@link #window}) and copies it ({@link #copyWindow}). */
    private void locate(long pos) {
        window(pos);
        copyWindow();
    }

    /**
     * Finds the window of logical position {@code pos}: the run by the same page rule as {@link Blobs#copy}, then
     * the {@value #WINDOW}-byte window of that run, up to the end of the run and of the text; sets {@code winLo},
     * {@code winHi} and {@code winAt} (its view offset).
     */
    private void window(long pos) {
        long off = address - View.base();
        long lo;
        long hi;
        long at;
        long end = Blobs.HEADER + ((long) length << (utf16 ? 1 : 0));
        if (!large) {
            lo = 0;
            hi = end;
            at = off;
        } else {
            int ps = View.pageSize();
            long first = ps - LARGE_HEAD_DATA;
            if (pos < first) {
                lo = 0;
                hi = first;
                at = off;
            } else {
                long per = ps - PAGE_HEADER;
                long k = (pos - first) / per;
                lo = first + k * per;
                hi = lo + per;
                at = off - LARGE_HEAD_DATA + (k + 1) * ps + PAGE_HEADER;
            }
            hi = Math.min(hi, end);
        }
        // only the window of the run holding pos: a reader of a few characters (T5's prefix test) copies and
        // allocates WINDOW bytes, not the whole text
        long w = (pos - lo) / WINDOW * WINDOW;
        winAt = at + w;
        winLo = lo + w;
        winHi = Math.min(hi, winLo + WINDOW);
    }

    /** Copies the window {@link #window} found last out of the view and makes it current. */
    private void copyWindow() {
        runLo = winLo;
        runHi = winHi;
        int n = (int) (runHi - runLo);
        if (bytes == null) {
            bytes = new byte[WINDOW];
        }
        MemorySegment.copy(View.segment(), JAVA_BYTE, winAt, bytes, 0, n);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        if (start < 0 || end > length || start > end) {
            throw new IndexOutOfBoundsException("range [" + start + ", " + end + ") of a stored text of " + length);
        }
        int shift = utf16 ? 1 : 0;
        byte[] b = new byte[(end - start) << shift];
        Blobs.copy(address, large, Blobs.HEADER + ((long) start << shift), b, false);
        return new String(b, utf16 ? StandardCharsets.UTF_16LE : StandardCharsets.ISO_8859_1);
    }

    @Override
    public void getChars(int srcBegin, int srcEnd, char[] dst, int dstBegin) {
        if (srcBegin < 0 || srcEnd > length || srcBegin > srcEnd) {
            throw new IndexOutOfBoundsException(
                    "range [" + srcBegin + ", " + srcEnd + ") of a stored text of " + length);
        }
        java.util.Objects.checkFromIndexSize(dstBegin, srcEnd - srcBegin, dst.length);
        int shift = utf16 ? 1 : 0;
        int i = srcBegin;
        while (i < srcEnd) {
            long pos = Blobs.HEADER + ((long) i << shift);
            if (pos < runLo || pos >= runHi) {
                locate(pos);
            }
            int at = (int) (pos - runLo);
            int n = (int) Math.min(srcEnd - i, (runHi - pos) >> shift); // characters left in this run
            byte[] b = bytes;
            int d = dstBegin + (i - srcBegin);
            if (utf16) {
                for (int j = 0; j < n; j++, at += 2) {
                    dst[d + j] = (char) ((b[at] & 0xff) | (b[at + 1] & 0xff) << 8);
                }
            } else {
                for (int j = 0; j < n; j++) {
                    dst[d + j] = (char) (b[at + j] & 0xff);
                }
            }
            i += n;
        }
    }

    @Override
    public String toString() {
        return Blobs.readString(address);
    }
}
