package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.MemorySegment;
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
 */
public final class Blobs {
    static final int HEADER = 8;
    static final byte BYTES = 1;
    static final byte LATIN1 = 2;
    static final byte UTF16 = 3;
    private static final int LARGE_HEAD_DATA = 48;
    private static final int PAGE_HEADER = 32;

    private Blobs() {}

    static long write(Session s, long near, byte kind, byte[] data) {
        long total = HEADER + (long) data.length;
        boolean large = total > s.maxSmall();
        long a = large ? s.allocateLarge(total, near) : s.allocate((int) total, near, new int[0]);
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
        String str = text.toString();
        boolean latin1 = true;
        for (int i = 0; i < str.length() && latin1; i++) {
            latin1 = str.charAt(i) <= 0xff;
        }
        return latin1
                ? write(s, near, LATIN1, str.getBytes(StandardCharsets.ISO_8859_1))
                : write(s, near, UTF16, str.getBytes(StandardCharsets.UTF_16LE));
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
        long headStart = off - LARGE_HEAD_DATA;
        int done = 0;
        long pos = from;
        while (done < buf.length) {
            long at;
            long room;
            long first = ps - LARGE_HEAD_DATA;
            if (pos < first) {
                at = off + pos;
                room = first - pos;
            } else {
                long j = pos - first;
                long k = j / (ps - PAGE_HEADER);
                long in = j % (ps - PAGE_HEADER);
                at = headStart + (k + 1) * ps + PAGE_HEADER + in;
                room = ps - PAGE_HEADER - in;
            }
            int n = (int) Math.min(room, buf.length - done);
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
