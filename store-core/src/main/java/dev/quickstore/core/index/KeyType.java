package dev.quickstore.core.index;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Key types of B+tree indexes. Keys are encoded into fixed-length byte strings whose unsigned
 * lexicographic order is the key order: INT and LONG big-endian with the sign bit flipped; STRING as
 * UTF-8 padded with zero bytes to the index's key length (so a string may not contain U+0000).
 */
public enum KeyType {
    INT,
    LONG,
    STRING;

    public int encodedLength(int stringLength) {
        return switch (this) {
            case INT -> 4;
            case LONG -> 8;
            case STRING -> stringLength;
        };
    }

    public byte[] encode(Object key, int length) {
        return encode(key, length, length);
    }

    /**
     * {@link #encode(Object, int)} into the first {@code length} bytes of a new array of {@code capacity} bytes, the
     * rest zero: a B+tree entry whose value is still zero (the start of a lookup), made with one allocation. A
     * STRING key of ASCII characters is copied in one pass; any other string goes through the UTF-8 encoder.
     */
    public byte[] encode(Object key, int length, int capacity) {
        if (capacity < length) {
            throw new IllegalArgumentException("capacity " + capacity + " is below the key length " + length);
        }
        if (this == STRING && key instanceof String s && s.length() <= length) {
            byte[] out = new byte[capacity];
            for (int i = 0, n = s.length(); i < n; i++) {
                char c = s.charAt(i);
                if (c == 0 || c >= 0x80) {
                    return Arrays.copyOf(encodeOnce(key, length), capacity); // the checks and messages
                }
                out[i] = (byte) c;
            }
            return out;
        }
        byte[] k = encodeOnce(key, length);
        return capacity == k.length ? k : Arrays.copyOf(k, capacity);
    }

    private byte[] encodeOnce(Object key, int length) {
        return switch (this) {
            case INT -> {
                if (!(key instanceof Integer i)) {
                    throw new IllegalArgumentException("INT index needs an Integer key, got " + describe(key));
                }
                yield ByteBuffer.allocate(4).putInt(i ^ Integer.MIN_VALUE).array();
            }
            case LONG -> {
                if (!(key instanceof Long l)) {
                    throw new IllegalArgumentException("LONG index needs a Long key, got " + describe(key));
                }
                yield ByteBuffer.allocate(8).putLong(l ^ Long.MIN_VALUE).array();
            }
            case STRING -> {
                if (!(key instanceof String s)) {
                    throw new IllegalArgumentException("STRING index needs a String key, got " + describe(key));
                }
                if (s.indexOf('\0') >= 0) {
                    throw new IllegalArgumentException("string keys may not contain U+0000");
                }
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                if (utf8.length > length) {
                    throw new IllegalArgumentException(
                            "string key of " + utf8.length + " UTF-8 bytes exceeds the index key length " + length);
                }
                yield Arrays.copyOf(utf8, length);
            }
        };
    }

    public Object decode(byte[] b, int off, int length) {
        return switch (this) {
            case INT -> ByteBuffer.wrap(b, off, 4).getInt() ^ Integer.MIN_VALUE;
            case LONG -> ByteBuffer.wrap(b, off, 8).getLong() ^ Long.MIN_VALUE;
            case STRING -> {
                int n = 0;
                while (n < length && b[off + n] != 0) {
                    n++;
                }
                yield new String(b, off, n, StandardCharsets.UTF_8);
            }
        };
    }

    private static String describe(Object o) {
        return o == null ? "null" : o.getClass().getSimpleName();
    }
}
