package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.api.PersistentObject;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.software.Oid;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * The object operations of one transaction on a software-persistence store (docs/software-mode.md): creating,
 * looking up and deleting objects named by OIDs, and the out-of-line values (strings, byte arrays) of the
 * generated {@code $Soft} classes. The storage manager allocates and frees by its own references (the arena
 * form of a page and offset, never dereferenced in this mode); the object API converts at this boundary: an
 * OID becomes a storage-manager reference by resolving it (its page and the object's offset in its frame), a
 * new object's OID is read from its page's slot array.
 *
 * <h2>Out-of-line values</h2>
 *
 * The blob format is {@link Blobs}' (8-byte header: length, kind, flags; then the data). The owning field holds
 * the blob's OID. A small blob is a slotted-page object (its uniquifier is the low bits of its length word,
 * which never changes: a new value is a new blob). A large blob (more than a small object holds) has the
 * <em>large-object OID form</em>: page = the head page of its run, slot {@value #LARGE_SLOT}, uniquifier 0; it is
 * read and written through the storage manager's large-object calls, never swizzled.
 */
public final class SoftObjects {
    /** The slot number of the large-object OID form. */
    public static final int LARGE_SLOT = 0xffff;

    /** A large object's storage-manager reference points this far into its head page (docs/formats.md). */
    private static final int LARGE_HEAD_DATA = 48;

    private final Session session;
    private final Transaction tx;

    SoftObjects(Session session, Transaction tx) {
        this.session = session;
        this.tx = tx;
    }

    private static int pageSize() {
        return SoftView.pageSize();
    }

    /** The storage manager's reference of the small object {@code oid} (its page is read if needed). */
    static long refOf(long oid) {
        long at = SoftView.resolve(-1, oid);
        return SoftView.arenaBase() + Oid.page(oid) * pageSize() + at % pageSize();
    }

    /** The OID of the small object the storage manager knows as {@code ref}. */
    static long oidOfRef(long ref) {
        long rel = ref - SoftView.arenaBase();
        return SoftView.swizzler().oidOf(rel / pageSize(), (int) (rel % pageSize()));
    }

    private static byte[] intBytes(int v) {
        byte[] b = new byte[4];
        MemorySegment.ofArray(b).set(JAVA_INT_UNALIGNED, 0, v); // native order, as the region is read
        return b;
    }

    <T> T create(TypeDescriptor<T> type, long nearOid) {
        long near = nearOid == 0 ? 0 : refOf(nearOid);
        long ref = tx.allocate(type.size(), near, type.pointerOffsetsShared());
        tx.write(ref, 0, intBytes(type.tag()));
        long oid = oidOfRef(ref);
        return software(type).createSoftware(session, oid, SoftView.resolve(-1, oid));
    }

    /** The descriptor with its software factory registered (loads {@code <Name>$Soft} once). */
    static <T> TypeDescriptor<T> software(TypeDescriptor<T> d) {
        if (d.softwareFactory() == null) {
            String name = d.type().getName() + "$Soft";
            try {
                Class.forName(name, true, d.type().getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException(
                        "no generated software implementation " + name + ": recompile "
                                + d.type().getName() + " with this store-processor",
                        e);
            }
            if (d.softwareFactory() == null) {
                throw new IllegalArgumentException(name + " did not register a software factory");
            }
        }
        return d;
    }

    /**
     * The proxy of {@code oid} resident at {@code at}, as a {@code T} or a subtype of it by the object's type tag
     * (the default case of a generated {@code of}).
     */
    public static <T> T resolve(TypeDescriptor<T> type, Session session, long oid, long at) {
        int tag = SoftView.region().get(JAVA_INT, at);
        TypeDescriptor<?> d = tag == type.tag()
                ? type
                : Types.byTag(
                        tag,
                        session == null ? null : session.catalog(),
                        type.type().getClassLoader());
        if (d == null || !type.type().isAssignableFrom(d.type())) {
            throw new ClassCastException(String.format(
                    "object %s is a %s, not a %s",
                    Oid.toString(oid),
                    d != null
                            ? d.name()
                            : session == null ? "tag 0x" + Integer.toHexString(tag) : session.nameOfTag(tag),
                    type.name()));
        }
        return type.type().cast(software(d).createSoftware(session, oid, at));
    }

    /** The object named by {@code oid} (a root, an index value, {@code ObjectTransaction.get}), checked. */
    <T> T get(long oid, TypeDescriptor<T> type, String what) {
        if (oid == 0) {
            return null;
        }
        if (!Oid.isOid(oid) || Oid.slot(oid) == LARGE_SLOT) {
            throw new IllegalArgumentException(
                    Session.described(what, oid) + " is not an object's OID in a software store: " + Oid.toString(oid));
        }
        long at;
        try {
            at = SoftView.resolve(-1, oid);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    Session.described(what, oid) + " is not a live persistent object: " + e.getMessage(), e);
        }
        return resolve(type, session, oid, at);
    }

    void delete(PersistentObject object) {
        long oid = PersistentObject.addressOf(object);
        long at = SoftView.resolve(-1, oid);
        int tag = SoftView.region().get(JAVA_INT, at);
        TypeDescriptor<?> type = Types.byTag(tag);
        if (type == null) {
            throw new IllegalArgumentException(String.format("%s has unknown type tag 0x%x", Oid.toString(oid), tag));
        }
        // the owned blobs and reference arrays, at the offsets the mapped store's delete reads too
        int[] owned = type.ownedOffsets();
        for (int k = 0, arrays = type.ownedArraysFrom(); k < owned.length; k++) {
            long w = SoftView.region().get(JAVA_LONG, SoftView.resolve(-1, oid) + owned[k]);
            if (w != 0) {
                long out = Oid.isOid(w) ? w : SoftView.oidAt(w);
                if (k < arrays) {
                    freeOut(out);
                } else {
                    SoftRefArray.free(session, out);
                }
            }
        }
        free(oid);
    }

    /** Frees the small object {@code oid}: it leaves the OID table, then the storage manager frees its slot. */
    void free(long oid) {
        long at = SoftView.resolve(-1, oid);
        long ref = SoftView.arenaBase() + Oid.page(oid) * pageSize() + at % pageSize();
        SoftView.swizzler().frames().deleted(oid, at); // pointers swizzled to it become its OID again
        tx.delete(ref);
    }

    /** Frees an out-of-line value (a blob) by its OID. */
    void freeOut(long oid) {
        if (Oid.slot(oid) == LARGE_SLOT) {
            tx.deleteLarge(largeRef(oid));
        } else {
            free(oid);
        }
    }

    // ---- blobs ----

    private static long largeRef(long oid) {
        return SoftView.arenaBase() + Oid.page(oid) * pageSize() + LARGE_HEAD_DATA;
    }

    /** Writes a blob (header and data) near {@code nearOid}; returns its OID (small) or large-object OID. */
    long writeBlob(long nearOid, byte kind, byte[] data) {
        long total = Blobs.HEADER + (long) data.length;
        boolean large = total > session.maxSmall();
        byte[] all = new byte[(int) total];
        MemorySegment.ofArray(all).set(JAVA_INT_UNALIGNED, 0, data.length);
        all[4] = kind;
        all[5] = (byte) (large ? 1 : 0);
        System.arraycopy(data, 0, all, Blobs.HEADER, data.length);
        long near = nearOid == 0 ? 0 : refOf(nearOid);
        if (!large) {
            long ref = tx.allocate(all.length, near, new int[0]);
            tx.write(ref, 0, all);
            return oidOfRef(ref);
        }
        long ref = tx.allocateLarge(total, near);
        long rel = ref - SoftView.arenaBase();
        if (rel % pageSize() != LARGE_HEAD_DATA) {
            throw new IllegalStateException(String.format(
                    "large object at 0x%x does not start %d bytes into its head page: no OID form for it",
                    ref, LARGE_HEAD_DATA));
        }
        tx.writeLarge(ref, 0, all, 0, all.length);
        return Oid.of(rel / pageSize(), LARGE_SLOT, 0);
    }

    long writeText(long nearOid, CharSequence text) {
        String str = text.toString();
        boolean latin1 = true;
        for (int i = 0; i < str.length() && latin1; i++) {
            latin1 = str.charAt(i) <= 0xff;
        }
        return latin1
                ? writeBlob(nearOid, Blobs.LATIN1, str.getBytes(StandardCharsets.ISO_8859_1))
                : writeBlob(nearOid, Blobs.UTF16, str.getBytes(StandardCharsets.UTF_16LE));
    }

    /** The blob's bytes after the header, and its kind in {@code kind[0]}. */
    static byte[] readBlob(Transaction tx, long oid, byte[] kind) {
        if (Oid.slot(oid) == LARGE_SLOT) {
            long ref = largeRef(oid);
            byte[] h = new byte[Blobs.HEADER];
            tx.readLarge(ref, 0, h, 0, h.length);
            int len = MemorySegment.ofArray(h).get(JAVA_INT_UNALIGNED, 0);
            kind[0] = h[4];
            byte[] b = new byte[len];
            tx.readLarge(ref, Blobs.HEADER, b, 0, len);
            return b;
        }
        long at = SoftView.resolve(-1, oid);
        MemorySegment r = SoftView.region();
        int len = r.get(JAVA_INT, at);
        kind[0] = r.get(JAVA_BYTE, at + 4);
        byte[] b = new byte[len];
        MemorySegment.copy(r, JAVA_BYTE, at + Blobs.HEADER, b, 0, len);
        return b;
    }

    private static String text(long oid, byte kind, byte[] b) {
        return switch (kind) {
            case Blobs.LATIN1 -> new String(b, StandardCharsets.ISO_8859_1);
            case Blobs.UTF16 -> new String(b, StandardCharsets.UTF_16LE);
            default ->
                throw new IllegalStateException("blob " + Oid.toString(oid) + " is not text (kind " + kind + ")");
        };
    }

    private static long blobOid(long word) {
        return Oid.isOid(word) ? word : SoftView.oidAt(word);
    }

    /** A String field's value from its word (0 = null). */
    public static String getString(Session session, long word) {
        if (word == 0) {
            return null;
        }
        long oid = blobOid(word);
        byte[] kind = new byte[1];
        byte[] b = readBlob(session.storeTransaction(), oid, kind);
        return text(oid, kind[0], b);
    }

    /** A CharSequence field's value (a copy: a region offset does not outlive the next page read). */
    public static CharSequence getText(Session session, long word) {
        return getString(session, word);
    }

    public static byte[] getBytes(Session session, long word) {
        if (word == 0) {
            return null;
        }
        return readBlob(session.storeTransaction(), blobOid(word), new byte[1]);
    }

    /** Stores a new blob for a String or CharSequence field of {@code owner} and frees the old one. */
    public static void setString(Session session, SoftObject owner, long offset, CharSequence value) {
        session.checkWritable();
        SoftObjects s = session.software();
        long now = value == null ? 0 : s.writeText(owner.oid(), value);
        replace(s, owner, offset, now);
    }

    public static void setBytes(Session session, SoftObject owner, long offset, byte[] value) {
        session.checkWritable();
        SoftObjects s = session.software();
        long now = value == null ? 0 : s.writeBlob(owner.oid(), Blobs.BYTES, value);
        replace(s, owner, offset, now);
    }

    private static void replace(SoftObjects s, SoftObject owner, long offset, long now) {
        long old = SoftView.region().get(JAVA_LONG, owner.at() + offset);
        long oldOid = old == 0 ? 0 : blobOid(old);
        SoftView.region().set(JAVA_LONG, owner.writable(offset), now);
        if (oldOid != 0) {
            s.freeOut(oldOid);
        }
    }

    // ---- fixed-length text ----

    /** Reads a {@code @Chars(n)} field at region offset {@code at}: ISO-8859-1 up to the first zero byte. */
    public static String getChars(long at, int n) {
        byte[] b = new byte[n];
        MemorySegment.copy(SoftView.region(), JAVA_BYTE, at, b, 0, n);
        int len = 0;
        while (len < n && b[len] != 0) {
            len++;
        }
        return new String(b, 0, len, StandardCharsets.ISO_8859_1);
    }

    /** Writes a {@code @Chars(n)} field of {@code owner} at {@code offset}; null stores the empty text. */
    public static void setChars(SoftObject owner, long offset, int n, CharSequence value, String field) {
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
        MemorySegment.copy(b, 0, SoftView.region(), JAVA_BYTE, owner.writable(offset), n);
    }
}
