package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;

/**
 * A {@link CharSequence} over a stored text blob ({@link Blobs}), read in place through the application
 * view: what a generated getter declared {@code CharSequence} returns, so that a scan of a 2,000-byte
 * document or a 100,000-byte manual (OO7 T4, T8) copies nothing. {@code charAt} of a small blob is one
 * load; of a large object it maps the logical position to the page holding it (the data continues after
 * each following page's 32-byte header) and remembers that page's run, so a sequential scan computes the
 * mapping once per page.
 *
 * <p>Valid while the blob lives: until the owning field is set again (which frees the old blob), the owner is
 * deleted, or the store closes. Like a proxy, it is meant for use inside the transaction that read it;
 * {@link #toString()} copies the text out. {@code equals} is identity, as for any {@code CharSequence}.
 */
final class BlobText implements CharSequence {
    private static final int LARGE_HEAD_DATA = 48;
    private static final int PAGE_HEADER = 32;

    private final long address;
    private final int length;
    private final boolean utf16;
    private final boolean large;
    // cached run of the large object: logical positions [runLo, runHi) are at view offset runAt + (pos - runLo)
    private long runLo;
    private long runHi;
    private long runAt;

    BlobText(long address) {
        this.address = address;
        byte kind = Blobs.kind(address);
        if (kind != Blobs.LATIN1 && kind != Blobs.UTF16) {
            throw new IllegalStateException(String.format("blob at 0x%x is not text (kind %d)", address, kind));
        }
        this.utf16 = kind == Blobs.UTF16;
        this.length = Blobs.length(address) >> (utf16 ? 1 : 0);
        this.large = Blobs.isLarge(address);
        long off = address - View.base();
        this.runLo = 0;
        this.runHi = large ? View.pageSize() - LARGE_HEAD_DATA : Blobs.HEADER + Blobs.length(address);
        this.runAt = off;
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
        long at = runAt + (pos - runLo);
        return utf16
                ? View.segment().get(JAVA_CHAR_UNALIGNED, at)
                : (char) (View.segment().get(JAVA_BYTE, at) & 0xff);
    }

    /** Finds the page run of logical position {@code pos} of a large object (same rule as {@link Blobs#copy}). */
    private void locate(long pos) {
        int ps = View.pageSize();
        long off = address - View.base();
        long first = ps - LARGE_HEAD_DATA;
        if (pos < first) {
            runLo = 0;
            runHi = first;
            runAt = off;
            return;
        }
        long per = ps - PAGE_HEADER;
        long k = (pos - first) / per;
        runLo = first + k * per;
        runHi = runLo + per;
        runAt = off - LARGE_HEAD_DATA + (k + 1) * ps + PAGE_HEADER;
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        if (start < 0 || end > length || start > end) {
            throw new IndexOutOfBoundsException("range [" + start + ", " + end + ") of a stored text of " + length);
        }
        StringBuilder sb = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            sb.append(charAt(i));
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return Blobs.readString(address);
    }
}
