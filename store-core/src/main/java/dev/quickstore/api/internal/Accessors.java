package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/** Accessor bodies too long to inline into every generated class: fixed-length text and blob reads. */
public final class Accessors {
    private Accessors() {}

    /** Reads a {@code @Chars(n)} field at {@code address}: ISO-8859-1 up to the first zero byte. */
    public static String getChars(long address, int n) {
        MemorySegment s = View.segment();
        long off = address - View.base();
        byte[] b = new byte[n];
        MemorySegment.copy(s, JAVA_BYTE, off, b, 0, n);
        int len = 0;
        while (len < n && b[len] != 0) {
            len++;
        }
        return new String(b, 0, len, StandardCharsets.ISO_8859_1);
    }

    /** Writes a {@code @Chars(n)} field; null stores the empty text. */
    public static void setChars(long address, int n, CharSequence value, String field) {
        byte[] b = new byte[n];
        if (value != null) {
            if (value.length() > n) {
                throw new IllegalArgumentException(
                        "text of " + value.length() + " characters does not fit @Chars(" + n + ") " + field);
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == 0 || c > 0xff) {
                    throw new IllegalArgumentException(String.format(
                            "@Chars field %s holds ISO-8859-1 without U+0000; character %d is U+%04X",
                            field, i, (int) c));
                }
                b[i] = (byte) c;
            }
        }
        View.markRange(address, n);
        MemorySegment.copy(b, 0, View.segment(), JAVA_BYTE, address - View.base(), n);
    }

    public static String getString(long blob) {
        return blob == 0 ? null : Blobs.readString(blob);
    }

    /** A {@code CharSequence} getter: a view over the stored text, no copy ({@link BlobText}). */
    public static CharSequence getText(long blob) {
        return blob == 0 ? null : new BlobText(blob);
    }

    public static byte[] getBytes(long blob) {
        return blob == 0 ? null : Blobs.readBytes(blob);
    }
}
