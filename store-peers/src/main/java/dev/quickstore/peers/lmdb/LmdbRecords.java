package dev.quickstore.peers.lmdb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The binary encoding of the OO7 objects in the LMDB peer's DBIs (format version {@value #FORMAT_VERSION}):
 * what an lmdbjava user writes by hand with a {@link ByteBuffer}, a fixed-size head of scalar fields followed
 * by lists of object ids. All integers are big-endian 4-byte values (keys too, so LMDB's default byte order
 * sorts positive ids numerically). References are ids: 0 means none; an assembly reference in a complex
 * assembly's sub-assembly list is the complex assembly's id or the negated base assembly's id.
 *
 * <pre>
 * kind        key                 head (offset: field)                                         lists
 * atomic      atomic id           0 type[10], 10 buildDate, 14 x, 18 y, 22 docId, 26 partOf    to, from (connection ids)
 * connection  connection id       0 type[10], 10 length, 14 from, 18 to                         -
 * composite   composite id        0 type[10], 10 buildDate, 14 documentation, 18 rootPart        usedInPriv, usedInShar, parts
 * module      module id           0 type[10], 10 buildDate, 14 man, 18 designRoot                assemblies (base ids)
 * complex     complex id          0 type[10], 10 buildDate, 14 superAssembly, 18 module          subAssemblies (tagged)
 * base        base id             0 type[10], 10 buildDate, 14 superAssembly, 18 module          componentsPriv, componentsShar
 * document    document id         0 part, 4 title (string), then text                          -
 * manual      manual id           0 mod, 4 title (string), then text                           -
 * </pre>
 *
 * A list is {@code count} followed by {@code count} ids. {@code type[10]} is the type string's ASCII bytes,
 * zero-padded. A string is a 2-byte length and UTF-8 bytes. A text is one encoding byte (0: ISO-8859-1, one
 * byte per char; 1: UTF-16BE, two), a 4-byte length in chars and the chars, so that {@link LmdbText} reads
 * a character straight from the mapped page. The index DBIs: {@code buildDate} (MDB_DUPSORT: key the build
 * date with its sign bit flipped, so that the byte order is the numeric order; values the atomic ids), {@code
 * documentTitle} (key the title's UTF-8 bytes, value the document id), and {@code meta} (key {@code
 * "format"}: the format version; {@code "nextConnection"}: the next connection id). LMDB keeps no checksum of
 * its pages, and neither does this encoding: it is what users of lmdbjava write (see docs/peers.md).
 */
final class LmdbRecords {
    /** The version stored under {@code meta/"format"}; an environment of another version is refused. */
    static final int FORMAT_VERSION = 1;

    static final int TYPE_BYTES = 10;
    static final int DESIGN_HEAD = 22; // composite, module, complex, base
    static final int ATOMIC_HEAD = 30;
    static final int CONNECTION_SIZE = 22;

    static final int BUILD_DATE = 10, X = 14, Y = 18, DOC_ID = 22, PART_OF = 26; // atomic
    static final int LENGTH = 10, FROM = 14, TO = 18; // connection
    static final int FIELD_A = 14, FIELD_B = 18; // documentation/rootPart, man/designRoot, super/module

    private LmdbRecords() {}

    // ------------------------------------------------------------------------------------- fields

    static void putType(ByteBuffer b, String type) {
        if (type.length() > TYPE_BYTES) {
            throw new IllegalArgumentException("type '" + type + "' longer than " + TYPE_BYTES + " characters");
        }
        for (int i = 0; i < TYPE_BYTES; i++) {
            char c = i < type.length() ? type.charAt(i) : 0;
            if (c > 0x7f) {
                throw new IllegalArgumentException("type '" + type + "' is not ASCII");
            }
            b.put(i, (byte) c);
        }
    }

    static String type(ByteBuffer r) {
        int n = 0;
        while (n < TYPE_BYTES && r.get(n) != 0) {
            n++;
        }
        byte[] bytes = new byte[n];
        r.get(0, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** Writes a string at {@code offset}; returns the offset after it. */
    static int putString(ByteBuffer b, int offset, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0xffff) {
            throw new IllegalArgumentException("string of " + bytes.length + " bytes is too long");
        }
        b.putShort(offset, (short) bytes.length);
        b.put(offset + 2, bytes);
        return offset + 2 + bytes.length;
    }

    static int stringSize(String s) {
        return 2 + s.getBytes(StandardCharsets.UTF_8).length;
    }

    static String string(ByteBuffer r, int offset) {
        byte[] bytes = new byte[Short.toUnsignedInt(r.getShort(offset))];
        r.get(offset + 2, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static int stringEnd(ByteBuffer r, int offset) {
        return offset + 2 + Short.toUnsignedInt(r.getShort(offset));
    }

    static boolean latin1(CharSequence s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) > 0xff) {
                return false;
            }
        }
        return true;
    }

    static int textSize(CharSequence s) {
        return 5 + s.length() * (latin1(s) ? 1 : 2);
    }

    static void putText(ByteBuffer b, int offset, CharSequence s) {
        boolean latin1 = latin1(s);
        b.put(offset, (byte) (latin1 ? 0 : 1));
        b.putInt(offset + 1, s.length());
        int p = offset + 5;
        for (int i = 0, n = s.length(); i < n; i++) {
            if (latin1) {
                b.put(p++, (byte) s.charAt(i));
            } else {
                b.putChar(p, s.charAt(i));
                p += 2;
            }
        }
    }

    // -------------------------------------------------------------------------------------- lists

    /** The offset of list {@code k} of a record whose lists start at {@code head}. */
    static int listOffset(ByteBuffer r, int head, int k) {
        int offset = head;
        for (int i = 0; i < k; i++) {
            offset += 4 + 4 * r.getInt(offset);
        }
        return offset;
    }

    static int listSize(ByteBuffer r, int head, int k) {
        return r.getInt(listOffset(r, head, k));
    }

    static int listGet(ByteBuffer r, int head, int k, int index) {
        int offset = listOffset(r, head, k);
        int size = r.getInt(offset);
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        return r.getInt(offset + 4 + 4 * index);
    }

    /**
     * Copies {@code r} into {@code out} with list {@code k} edited: {@code delta} +1 inserts {@code value} at
     * {@code index}, -1 removes the element at {@code index}, 0 replaces it by {@code value}. Returns {@code out}
     * flipped (position 0, limit the new size).
     */
    static ByteBuffer editList(ByteBuffer r, int head, int k, int index, int value, int delta, ByteBuffer out) {
        int offset = listOffset(r, head, k);
        int size = r.getInt(offset);
        int limit = delta > 0 ? size : size - 1;
        if (index < 0 || index > limit) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        int at = offset + 4 + 4 * index; // the element's position
        int total = r.limit() + 4 * delta;
        out.clear();
        out.put(0, r, 0, at);
        out.putInt(offset, size + delta);
        if (delta >= 0) {
            out.putInt(at, value);
        }
        int restFrom = delta > 0 ? at : at + 4;
        int restTo = delta < 0 ? at : at + 4;
        out.put(restTo, r, restFrom, r.limit() - restFrom);
        out.limit(total);
        return out;
    }
}
