package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Out-of-line variable-length values (String, CharSequence and byte[] fields; the schema catalog). A blob
 * is a separately allocated object whose address the owning field holds:
 *
 * <pre>
 * offset size
 *      0    4 length    bytes of data
 *      4    1 kind      1 bytes, 2 ISO-8859-1 text, 3 UTF-16LE text
 *      5    1 flags     bit 0: large object (else a small object on a slotted page)
 *      6    2 reserved  0
 *      8    . data
 * </pre>
 *
 * A blob of up to {@code maxSmall - 8} bytes is a small object; a longer one is a large object, whose data
 * continues on the following pages of its run after each page's 32-byte header (docs/formats.md, "Large
 * object"); {@link #copy} walks that layout.
 *
 * <p><b>Capacity and rewriting in place</b> (issue 13, OO7 T5). A small blob's slot may be longer than
 * {@code 8 + length}: the bytes after the data are the blob's room (zero). A text field set again is rewritten
 * in place when the new text's encoding fits the old blob's slot ({@link #rewriteText}): header and data are
 * stored over the old ones through the view, the bytes the text no longer uses are zeroed, and the field keeps
 * its address - no allocation, no free, no pointer-map change. Otherwise a new blob is allocated, and a text
 * that replaces an older one gets {@link #growthRoom} bytes of room, so the next small growth of a text that is
 * edited (T5 makes a document 3 characters longer, then shorter again) stays in place. Texts written once (a
 * database build) get no room, so stores built before keep their size. This is QuickStore's update model for
 * text as for any field: the application updates the object directly in the buffer pool and commit diffs the
 * page against its pre-image (White and DeWitt 1994, section 3.6), so a rewrite that shifts the text by three
 * characters logs the changed bytes of one page instead of a new blob, a freed one and their slot entries.
 */
public final class Blobs {
    static final int HEADER = 8;
    static final byte BYTES = 1;
    static final byte LATIN1 = 2;
    static final byte UTF16 = 3;
    private static final int LARGE_HEAD_DATA = 48;
    // a large object's size and run length in its head page (core.space.LargeObjects; docs/formats.md)
    private static final int LARGE_HEAD_LENGTH = 32;
    private static final int LARGE_HEAD_RUN_PAGES = 40;
    private static final ValueLayout.OfLong LE_LONG = JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int PAGE_HEADER = 32;

    private Blobs() {}

    static long write(Session s, long near, byte kind, byte[] data) {
        return write(s, near, kind, data, 0);
    }

    /** Writes a new blob; a small one gets up to {@code room} zero bytes after its data (capacity). */
    static long write(Session s, long near, byte kind, byte[] data, int room) {
        long total = HEADER + (long) data.length;
        boolean large = total > s.maxSmall();
        long a = large
                ? s.allocateLarge(total, near)
                : s.allocate((int) Math.min(total + room, s.maxSmall()), near, new int[0]);
        byte[] h = new byte[HEADER];
        h[0] = (byte) data.length;
        h[1] = (byte) (data.length >>> 8);
        h[2] = (byte) (data.length >>> 16);
        h[3] = (byte) (data.length >>> 24);
        h[4] = kind;
        h[5] = (byte) (large ? 1 : 0);
        copy(a, large, 0, h, true);
        copy(a, large, HEADER, data, true);
        return a;
    }

    static long writeText(Session s, long near, CharSequence text) {
        return writeText(s, near, text, false);
    }

    /** @param replacing whether the text replaces an older one (then it gets {@link #growthRoom}) */
    static long writeText(Session s, long near, CharSequence text, boolean replacing) {
        String str = text.toString();
        byte[] data = latin1OrNull(str);
        boolean latin1 = data != null;
        if (!latin1) {
            data = str.getBytes(StandardCharsets.UTF_16LE);
        }
        return write(s, near, latin1 ? LATIN1 : UTF16, data, replacing ? growthRoom(data.length) : 0);
    }

    /** Room given to a text that replaces another: 1/16 of its bytes, at least 16 (T5's 2,000 bytes: 124). */
    static int growthRoom(int bytes) {
        return Math.max(16, bytes >>> 4);
    }

    private static final ValueLayout.OfInt LE_INT = JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * Stores {@code text} over the text blob at {@code a} if its encoding fits the blob's slot (see the class
     * comment); returns false, changing nothing, when it does not (a large blob, or not enough room) or when
     * {@code text} is a view over a stored text (which may be this very blob: the caller copies it first).
     */
    static boolean rewriteText(Session s, long a, CharSequence text) {
        if (text instanceof BlobText || isLarge(a)) {
            return false;
        }
        // encoded on the heap first and stored with one bulk copy: a store per character through the view
        // kept its checks in the loop (the profile of T5 after the first step, docs/results.md)
        byte[] data = latin1OrNull(text);
        boolean latin1 = data != null;
        if (!latin1) {
            data = text.toString().getBytes(StandardCharsets.UTF_16LE);
        }
        int bytes = data.length;
        if (HEADER + (long) bytes > s.slotSize(a)) {
            return false;
        }
        int old = length(a);
        MemorySegment seg = View.segment();
        long off = a - View.base();
        View.markRange(a, HEADER + (long) Math.max(bytes, old));
        seg.set(LE_INT, off, bytes);
        seg.set(JAVA_BYTE, off + 4, latin1 ? LATIN1 : UTF16);
        MemorySegment.copy(data, 0, seg, JAVA_BYTE, off + HEADER, bytes);
        if (old > bytes) {
            seg.asSlice(off + HEADER + bytes, old - bytes).fill((byte) 0);
        }
        return true;
    }

    /**
     * Applies {@code splice}, a {@link Splice} of the text stored in the blob at {@code a} (which had
     * {@code heldLength} characters when the caller's view of it was made), to the stored bytes: the tail after
     * the replaced range moves by the length difference (one overlapping {@code MemorySegment.copy}, memmove
     * semantics), the replacement is written over the range, the length updated and the bytes the text no
     * longer uses zeroed. Only the header and the bytes from the replaced range on are marked written, so a
     * commit diffs and logs the changed part of the page (class comment). A large blob is edited across its
     * run's pages ({@link #spliceLarge}). Returns false, changing nothing, when it does not apply: a length that
     * is no longer the view's, a replacement that the blob's encoding cannot hold (a character beyond U+00FF in
     * ISO-8859-1), or a result longer than the slot (a large blob: than its run).
     *
     * <p>Invariant (asserted): the new byte length is the splice's; a small blob's fits its slot, so every byte
     * written lies in the blob.
     */
    static boolean spliceInPlace(Session s, long a, int heldLength, dev.quickstore.api.Splice splice) {
        boolean utf16 = kind(a) == UTF16;
        int shift = utf16 ? 1 : 0;
        int oldChars = length(a) >> shift;
        if (oldChars != heldLength) {
            return false; // the view is older than the stored text
        }
        CharSequence with = splice.replacement();
        byte[] data;
        if (utf16) {
            data = with.toString().getBytes(StandardCharsets.UTF_16LE);
        } else {
            data = latin1OrNull(with);
            if (data == null) {
                return false;
            }
        }
        int start = splice.start() << shift;
        int end = splice.end() << shift;
        int oldBytes = oldChars << shift;
        int newBytes = oldBytes - (end - start) + data.length;
        assert newBytes == splice.length() << shift : "splice length";
        if (isLarge(a)) {
            return spliceLarge(a, start, end, data, oldBytes, newBytes);
        }
        if (newBytes > oldBytes && HEADER + (long) newBytes > s.slotSize(a)) {
            return false; // (a text that does not grow fits the slot that holds it)
        }
        MemorySegment seg = View.segment();
        long off = a - View.base();
        long data0 = off + HEADER;
        View.markRange(a, HEADER);
        View.markRange(a + HEADER + start, Math.max(newBytes, oldBytes) - start);
        int tail = oldBytes - end;
        int to = start + data.length;
        if (to != end && tail > 0) {
            MemorySegment.copy(seg, data0 + end, seg, data0 + to, tail);
        }
        MemorySegment.copy(data, 0, seg, JAVA_BYTE, data0 + start, data.length);
        if (oldBytes > newBytes) {
            seg.asSlice(data0 + newBytes, oldBytes - newBytes).fill((byte) 0);
        }
        seg.set(LE_INT, off, newBytes);
        return true;
    }

    /**
     * {@link #spliceInPlace} of a large blob (a text longer than a small object: OO7 medium's documents), if the new
     * text fits the pages of its run: the bytes after the edit move by the length change, the replacement is
     * written, a shrunk tail is zeroed, and the blob's length (and the large object's, if it grew) is updated, all
     * through the view as {@link #copy} writes (so the write detection sees them); the run keeps its pages. Without
     * this, every edit of a large text freed its run and allocated a new one (docs/results.md, "Write-ahead",
     * medium T5). Returns false, changing nothing, when the new text does not fit the run.
     */
    private static boolean spliceLarge(long a, int start, int end, byte[] data, int oldBytes, int newBytes) {
        MemorySegment seg = View.segment();
        long head = a - View.base() - LARGE_HEAD_DATA; // view offset of the run's head page
        int ps = View.pageSize();
        int runPages = seg.get(LE_INT, head + LARGE_HEAD_RUN_PAGES);
        long capacity = (ps - LARGE_HEAD_DATA) + (long) (runPages - 1) * (ps - PAGE_HEADER);
        if (runPages < 1 || HEADER + (long) newBytes > capacity) {
            return false; // (a copying view holds no run header: EXPLICIT frames edit a copy, as before)
        }
        announceSplice(View.base() + head, ps, HEADER + start, HEADER + Math.max(oldBytes, newBytes));
        int tail = oldBytes - end;
        int to = start + data.length;
        if (to != end && tail > 0) {
            moveLarge(a, HEADER + end, HEADER + to, tail);
        }
        copy(a, true, HEADER + start, data, true);
        if (oldBytes > newBytes) {
            copy(a, true, HEADER + newBytes, new byte[oldBytes - newBytes], true);
        }
        View.markRange(a, HEADER);
        seg.set(LE_INT, a - View.base(), newBytes);
        long size = seg.get(LE_LONG, head + LARGE_HEAD_LENGTH);
        if (HEADER + (long) newBytes > size) {
            View.markRange(View.base() + head + LARGE_HEAD_LENGTH, 8);
            seg.set(LE_LONG, head + LARGE_HEAD_LENGTH, HEADER + (long) newBytes);
        }
        return true;
    }

    /**
     * Moves {@code len} bytes of a large blob from blob offset {@code from} to {@code to} (offsets as {@link #copy}
     * takes them) in place, across its pages' headers: in chunks that cross no page boundary on either side,
     * ascending when the bytes move down and descending when they move up, so that no byte is overwritten before it
     * is read (each chunk's own overlap is {@link MemorySegment#copy}'s). Every chunk is marked before it is stored.
     */
    private static void moveLarge(long a, long from, long to, long len) {
        MemorySegment seg = View.segment();
        long off = a - View.base();
        int ps = View.pageSize();
        if (to < from) {
            for (long done = 0; done < len; ) {
                long n = Math.min(len - done, Math.min(roomFrom(from + done, ps), roomFrom(to + done, ps)));
                long dst = largeOffset(off, to + done, ps);
                View.markRange(View.base() + dst, n);
                MemorySegment.copy(seg, largeOffset(off, from + done, ps), seg, dst, n);
                done += n;
            }
        } else {
            for (long left = len; left > 0; ) {
                long n = Math.min(left, Math.min(roomUpTo(from + left, ps), roomUpTo(to + left, ps)));
                long dst = largeOffset(off, to + left - n, ps);
                View.markRange(View.base() + dst, n);
                MemorySegment.copy(seg, largeOffset(off, from + left - n, ps), seg, dst, n);
                left -= n;
            }
        }
    }

    /** View offset of blob byte {@code pos} of the large blob at view offset {@code off} ({@link #copy}'s layout). */
    private static long largeOffset(long off, long pos, int ps) {
        long k = runPage(pos, ps);
        return k == 0
                ? off + pos
                : off - LARGE_HEAD_DATA + k * ps + PAGE_HEADER + (pos - (ps - LARGE_HEAD_DATA)) % (ps - PAGE_HEADER);
    }

    /** Blob bytes from {@code pos} to the end of its page's data. */
    private static long roomFrom(long pos, int ps) {
        long first = ps - LARGE_HEAD_DATA;
        return pos < first ? first - pos : (ps - PAGE_HEADER) - (pos - first) % (ps - PAGE_HEADER);
    }

    /** Blob bytes of the page that holds byte {@code end - 1}, up to {@code end} (exclusive; {@code end > 0}). */
    private static long roomUpTo(long end, int ps) {
        long first = ps - LARGE_HEAD_DATA;
        long p = end - 1;
        return p < first ? end : (p - first) % (ps - PAGE_HEADER) + 1;
    }

    /**
     * Announces the pages a large splice writes ({@link View#announceWrites}): the head page (the blob's and the
     * object's lengths) and the pages holding blob bytes {@code [from, to)} (offsets from the blob's address, as
     * {@link #copy} takes them) - one run when they are adjacent to the head page.
     */
    private static void announceSplice(long headPage, int ps, long from, long to) {
        long firstPage = runPage(from, ps);
        long lastPage = to > from ? runPage(to - 1, ps) : firstPage;
        if (firstPage <= 1) {
            View.announceWrites(headPage, (lastPage + 1) * ps);
        } else {
            View.announceWrites(headPage, ps);
            View.announceWrites(headPage + firstPage * ps, (lastPage - firstPage + 1) * ps);
        }
    }

    /** The page of a large blob's run (0 = the head page) that holds blob byte {@code pos} ({@link #copy}'s layout). */
    private static long runPage(long pos, int ps) {
        long first = ps - LARGE_HEAD_DATA;
        return pos < first ? 0 : 1 + (pos - first) / (ps - PAGE_HEADER);
    }

    /**
     * {@code text} in ISO-8859-1, or null if a character is beyond U+00FF. A {@code String} is encoded, decoded again
     * and compared with itself: the JDK's copies and its compare are intrinsics, and a string of Latin-1 characters
     * holds these bytes already, so this takes a fraction of a loop over the characters (a 2,000-character OO7
     * document: 0.8-2.2 µs against 2.9-6.5; the loop took 0.5-6.4 % of SM1+SM2's profile, by the fork;
     * docs/results.md, "Deletes from the leaf of the last delete, and the Latin-1 check of a text"). A character
     * beyond U+00FF encodes as '?', so such a text never decodes to itself. Any other sequence is read character by
     * character.
     */
    static byte[] latin1OrNull(CharSequence text) {
        if (text instanceof String str) {
            byte[] b = str.getBytes(StandardCharsets.ISO_8859_1);
            return new String(b, StandardCharsets.ISO_8859_1).equals(str) ? b : null;
        }
        int n = text.length();
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c > 0xff) {
                return null;
            }
            b[i] = (byte) c;
        }
        return b;
    }

    private static final ValueLayout.OfLong LE_LONG_UNALIGNED =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The 8-byte header in one read: length in bits 0-31, kind in 32-39, flags in 40-47. */
    static long header(long a) {
        return View.segment().get(LE_LONG_UNALIGNED, a - View.base());
    }

    static boolean isLarge(long a) {
        return (View.segment().get(JAVA_BYTE, a - View.base() + 5) & 1) != 0;
    }

    static int length(long a) {
        return View.segment().get(JAVA_INT, a - View.base());
    }

    static byte kind(long a) {
        return View.segment().get(JAVA_BYTE, a - View.base() + 4);
    }

    static byte[] readBytes(long a) {
        byte[] b = new byte[length(a)];
        copy(a, isLarge(a), HEADER, b, false);
        return b;
    }

    static String readString(long a) {
        byte k = kind(a);
        byte[] b = readBytes(a);
        return switch (k) {
            case LATIN1 -> new String(b, StandardCharsets.ISO_8859_1);
            case UTF16 -> new String(b, StandardCharsets.UTF_16LE);
            default -> throw new IllegalStateException(String.format("blob at 0x%x is not text (kind %d)", a, k));
        };
    }

    /** Copies between {@code buf} and the blob's logical bytes from {@code from} (header included). */
    static void copy(long a, boolean large, long from, byte[] buf, boolean toBlob) {
        MemorySegment seg = View.segment();
        long off = a - View.base();
        if (!large) {
            if (toBlob) {
                View.markRange(a + from, buf.length);
                MemorySegment.copy(buf, 0, seg, JAVA_BYTE, off + from, buf.length);
            } else {
                MemorySegment.copy(seg, JAVA_BYTE, off + from, buf, 0, buf.length);
            }
            return;
        }
        int ps = View.pageSize();
        int done = 0;
        long pos = from;
        while (done < buf.length) {
            long at = largeOffset(off, pos, ps);
            int n = (int) Math.min(roomFrom(pos, ps), buf.length - done);
            if (toBlob) {
                View.markRange(View.base() + at, n);
                MemorySegment.copy(buf, done, seg, JAVA_BYTE, at, n);
            } else {
                MemorySegment.copy(seg, JAVA_BYTE, at, buf, done, n);
            }
            done += n;
            pos += n;
        }
    }
}
