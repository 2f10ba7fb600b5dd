package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * A {@link CharSequence} over a stored text blob ({@link Blobs}), read from the application view: what a
 * generated getter declared {@code CharSequence} returns. {@code charAt} maps the logical position to the page
 * run holding it (a small blob is one run; a large object's data continues after each following page's
 * 32-byte header) and, on the first access to a run, copies that run's bytes out of the view with one bulk
 * copy; further {@code charAt}s of the run are array loads. A scan of a 2,000-byte document or a 100,000-byte
 * manual (OO7 T5, T8) therefore costs one {@code memcpy} per page instead of a checked segment access per
 * character (issue 13: the per-character access was most of T8 and T5's reading, docs/results.md "Hot path,
 * second landing"). {@link #subSequence} and {@link #toString} decode the range with one bulk copy, and
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

    private final long address;
    private final int length;
    private final boolean utf16;
    private final boolean large;
    // the current run: logical positions [runLo, runHi), copied in bytes[0, runHi - runLo) (none until the
    // first charAt)
    private long runLo;
    private long runHi;
    private byte[] bytes;

    BlobText(long address) {
        this.address = address;
        byte kind = Blobs.kind(address);
        if (kind != Blobs.LATIN1 && kind != Blobs.UTF16) {
            throw new IllegalStateException(String.format("blob at 0x%x is not text (kind %d)", address, kind));
        }
        this.utf16 = kind == Blobs.UTF16;
        this.length = Blobs.length(address) >> (utf16 ? 1 : 0);
        this.large = Blobs.isLarge(address);
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
            locate(pos);
        }
        int i = (int) (pos - runLo);
        byte[] b = bytes;
        // runs start and end at even logical positions, so a UTF-16 character never straddles two
        return utf16 ? (char) ((b[i] & 0xff) | (b[i + 1] & 0xff) << 8) : (char) (b[i] & 0xff);
    }

    /**
     * Makes the run of logical position {@code pos} current (same page rule as {@link Blobs#copy}) and copies
     * its bytes out of the view (up to the end of the text).
     */
    private void locate(long pos) {
        long off = address - View.base();
        long runAt;
        long end = Blobs.HEADER + ((long) length << (utf16 ? 1 : 0));
        if (!large) {
            runLo = 0;
            runHi = end;
            runAt = off;
        } else {
            int ps = View.pageSize();
            long first = ps - LARGE_HEAD_DATA;
            if (pos < first) {
                runLo = 0;
                runHi = first;
                runAt = off;
            } else {
                long per = ps - PAGE_HEADER;
                long k = (pos - first) / per;
                runLo = first + k * per;
                runHi = runLo + per;
                runAt = off - LARGE_HEAD_DATA + (k + 1) * ps + PAGE_HEADER;
            }
            runHi = Math.min(runHi, end);
        }
        int n = (int) (runHi - runLo);
        if (bytes == null || bytes.length < n) {
            bytes = new byte[n];
        }
        MemorySegment.copy(View.segment(), JAVA_BYTE, runAt, bytes, 0, n);
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
