package dev.quickstore.api.internal;

import dev.quickstore.api.SchemaMismatchException;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.error.StoreFormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schema catalog stored in the store: the named root {@value #ROOT} holds the address of a byte blob
 * ({@link Blobs}) with every persistent type ever created in the store. Encoding (big-endian,
 * {@link DataOutputStream}; strings are modified UTF-8 with a 2-byte length):
 *
 * <pre>
 * "QSSCHEMA"  u32 version = 1  u32 typeCount
 * per type:   str name  u64 typeId  u32 size  u32 fieldCount
 * per field:  str name  str kind (FieldKind name)  u32 offset  u32 length  str refType ("" if none)
 * </pre>
 *
 * A type is added the first time an object of it is created (or when the store is opened with it); the
 * catalog blob is rewritten in that transaction and replaced atomically with it. A type whose name is in the
 * catalog with another type id is refused with a {@link SchemaMismatchException} naming the first differing
 * field.
 */
public final class Catalog {
    public static final String ROOT = "qs.schema";
    private static final byte[] MAGIC = "QSSCHEMA".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int VERSION = 1;

    /** One stored type. */
    public record TypeRecord(String name, long id, int size, List<FieldDescriptor> fields) {
        static TypeRecord of(TypeDescriptor<?> d) {
            return new TypeRecord(d.name(), d.id(), d.size(), d.fields());
        }
    }

    private final Map<String, TypeRecord> committed = new LinkedHashMap<>();
    private final Map<String, TypeRecord> pending = new LinkedHashMap<>();
    private long blob;
    private long pendingBlob;

    private Catalog() {}

    /** Reads the catalog through the bound view (the store's view must be bound). */
    public static Catalog load(Transaction tx) {
        Catalog c = new Catalog();
        c.blob = tx.root(ROOT);
        if (c.blob != 0) {
            byte[] bytes = SoftView.bound() ? SoftObjects.readBlob(tx, c.blob, new byte[1]) : Blobs.readBytes(c.blob);
            for (TypeRecord r : decode(bytes, c.blob)) {
                c.committed.put(r.name(), r);
            }
        }
        return c;
    }

    /**
     * This catalog, or the store's current one if another client of a page server changed it since (its root
     * names another blob: a change always writes a new blob before freeing the old one). Called when a
     * client's transaction begins, with nothing pending.
     */
    public Catalog refreshed(Transaction tx) {
        assert pending.isEmpty() : "catalog changes pending at begin";
        return tx.root(ROOT) == blob ? this : load(tx);
    }

    /** The committed types, in the order they were added. */
    public Map<String, TypeRecord> types() {
        return Collections.unmodifiableMap(committed);
    }

    private TypeRecord find(String name) {
        TypeRecord r = pending.get(name);
        return r != null ? r : committed.get(name);
    }

    /** Fails if the store knows {@code d}'s type with another layout. */
    void check(TypeDescriptor<?> d) {
        TypeRecord r = find(d.name());
        if (r != null && r.id() != d.id()) {
            throw mismatch(r, d);
        }
    }

    /**
     * Descriptors found {@link #committed} with their own id, by identity: such an entry never changes in this
     * catalog (a reload makes another one), so {@link #ensure} of one of them is settled by a reference compare
     * instead of two map lookups per created object (issue #20). A small ring; OO7 creates objects of 8 types.
     */
    private final TypeDescriptor<?>[] ensured = new TypeDescriptor<?>[8];

    private int ensuredNext;

    /** {@link #check}, then records the type if the store does not know it yet. */
    public void ensure(TypeDescriptor<?> d) {
        for (TypeDescriptor<?> e : ensured) {
            if (e == d) {
                return;
            }
        }
        TypeRecord r = find(d.name());
        if (r != null) {
            if (r.id() != d.id()) {
                throw mismatch(r, d);
            }
            if (!pending.containsKey(d.name())) {
                ensured[ensuredNext] = d;
                ensuredNext = (ensuredNext + 1) & (ensured.length - 1);
            }
            return;
        }
        for (TypeRecord o : all()) {
            if (TypeDescriptor.tag(o.id()) == d.tag()) {
                throw new SchemaMismatchException(
                        d.name(),
                        "",
                        "persistent types " + o.name() + " and " + d.name() + " have the same type tag 0x"
                                + Integer.toHexString(d.tag()) + "; rename one of them");
            }
        }
        pending.put(d.name(), TypeRecord.of(d));
    }

    /** The catalogued type with this tag, or null. */
    String typeNameOfTag(int tag) {
        for (TypeRecord r : all()) {
            if (TypeDescriptor.tag(r.id()) == tag) {
                return r.name();
            }
        }
        return null;
    }

    String nameOfTag(int tag) {
        for (TypeRecord r : all()) {
            if (TypeDescriptor.tag(r.id()) == tag) {
                return r.name();
            }
        }
        return String.format("object of unknown type (tag 0x%x)", tag);
    }

    private List<TypeRecord> all() {
        List<TypeRecord> l = new ArrayList<>(committed.values());
        l.addAll(pending.values());
        return l;
    }

    /**
     * Names the root cause first: a field removed from the code, then a field added to it, then a field whose
     * kind, length or referenced type changed, then one that only moved (because another one changed).
     */
    static SchemaMismatchException mismatch(TypeRecord stored, TypeDescriptor<?> code) {
        String prefix = "incompatible definition of persistent type " + code.name() + ": ";
        String suffix = String.format(" (store type id 0x%016x, code 0x%016x)", stored.id(), code.id());
        Map<String, FieldDescriptor> inCode = new LinkedHashMap<>();
        for (FieldDescriptor f : code.fields()) {
            inCode.put(f.name(), f);
        }
        Map<String, FieldDescriptor> inStore = new LinkedHashMap<>();
        for (FieldDescriptor f : stored.fields()) {
            inStore.put(f.name(), f);
        }
        for (FieldDescriptor s : stored.fields()) {
            if (!inCode.containsKey(s.name())) {
                return new SchemaMismatchException(
                        code.name(),
                        s.name(),
                        prefix + "field '" + s.name() + "' (" + s.describe() + ") is in the store but not in the code"
                                + suffix);
            }
        }
        for (FieldDescriptor c : code.fields()) {
            if (!inStore.containsKey(c.name())) {
                return new SchemaMismatchException(
                        code.name(),
                        c.name(),
                        prefix + "field '" + c.name() + "' (" + c.describe() + ") is in the code but not in the store"
                                + suffix);
            }
        }
        FieldDescriptor moved = null;
        for (FieldDescriptor s : stored.fields()) {
            FieldDescriptor c = inCode.get(s.name());
            boolean retyped = c.kind() != s.kind()
                    || c.length() != s.length()
                    || !c.refType().equals(s.refType());
            if (retyped || (moved == null && c.offset() != s.offset())) {
                String msg = prefix + "field '" + s.name() + "' is " + s.describe() + " in the store but "
                        + c.describe() + " in the code" + suffix;
                if (retyped) {
                    return new SchemaMismatchException(code.name(), s.name(), msg);
                }
                moved = s;
            }
        }
        if (moved != null) {
            FieldDescriptor c = inCode.get(moved.name());
            return new SchemaMismatchException(
                    code.name(),
                    moved.name(),
                    prefix + "field '" + moved.name() + "' is " + moved.describe() + " in the store but " + c.describe()
                            + " in the code" + suffix);
        }
        return new SchemaMismatchException(
                code.name(),
                "",
                prefix + "size " + stored.size() + " in the store, " + code.size() + " in the code" + suffix);
    }

    /** Before commit: writes a new catalog blob if types were added. */
    void flush(Session s) {
        if (pending.isEmpty()) {
            return;
        }
        long fresh = s.software() != null
                ? s.software().writeBlob(0, Blobs.BYTES, encode(all()))
                : Blobs.write(s, 0, Blobs.BYTES, encode(all()));
        s.storeTransaction().setRoot(ROOT, fresh);
        if (blob != 0) {
            s.freeBlob(blob);
        }
        pendingBlob = fresh;
    }

    void committed() {
        if (!pending.isEmpty()) {
            committed.putAll(pending);
            pending.clear();
            blob = pendingBlob;
        }
    }

    void rolledBack() {
        pending.clear();
    }

    static byte[] encode(List<TypeRecord> types) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(types.size());
            for (TypeRecord t : types) {
                out.writeUTF(t.name());
                out.writeLong(t.id());
                out.writeInt(t.size());
                out.writeInt(t.fields().size());
                for (FieldDescriptor f : t.fields()) {
                    out.writeUTF(f.name());
                    out.writeUTF(f.kind().name());
                    out.writeInt(f.offset());
                    out.writeInt(f.length());
                    out.writeUTF(f.refType());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes the catalog from the raw bytes of its blob object (the {@link Blobs} header, then the
     * encoding above), as a tool reads it from the files without opening the store.
     *
     * @param at the blob's address, for error messages
     * @throws StoreFormatException when the header or the encoding is damaged
     */
    public static List<TypeRecord> fromBlobBytes(byte[] blob, long at) {
        if (blob.length < Blobs.HEADER) {
            throw new StoreFormatException(
                    String.format("schema catalog at 0x%x", at),
                    -1,
                    0,
                    "blob header",
                    Blobs.HEADER + " bytes",
                    blob.length + " bytes");
        }
        int len = (blob[0] & 0xff) | (blob[1] & 0xff) << 8 | (blob[2] & 0xff) << 16 | (blob[3] & 0xff) << 24;
        if (len < 0 || Blobs.HEADER + (long) len > blob.length) {
            throw new StoreFormatException(
                    String.format("schema catalog at 0x%x", at),
                    -1,
                    0,
                    "blob length",
                    "at most " + (blob.length - Blobs.HEADER),
                    Integer.toString(len));
        }
        return decode(java.util.Arrays.copyOfRange(blob, Blobs.HEADER, Blobs.HEADER + len), at);
    }

    /**
     * Decodes the catalog encoding. Every damaged field (a count or a field layout that cannot be, an unknown
     * field kind, bytes that end inside a record) raises {@link StoreFormatException} naming the byte offset.
     */
    static List<TypeRecord> decode(byte[] b, long at) {
        String where = String.format("schema catalog at 0x%x", at);
        ByteArrayInputStream bytes = new ByteArrayInputStream(b);
        DataInputStream in = new DataInputStream(bytes);
        try {
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new StoreFormatException(where, -1, 0, "magic", "QSSCHEMA", new String(magic, "ISO-8859-1"));
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new StoreFormatException(where, -1, 8, "version", "1", Integer.toString(version));
            }
            // a type record takes at least 18 bytes, a field 14: counts beyond the bytes left are damage
            int n = count(in, bytes, b.length, 18, where, "type count");
            List<TypeRecord> types = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String name = in.readUTF();
                long id = in.readLong();
                int size = in.readInt();
                int nf = count(in, bytes, b.length, 14, where, "field count of type " + name);
                List<FieldDescriptor> fields = new ArrayList<>(nf);
                for (int j = 0; j < nf; j++) {
                    int pos = b.length - bytes.available();
                    String fieldName = in.readUTF();
                    String kindName = in.readUTF();
                    int offset = in.readInt();
                    int length = in.readInt();
                    String refType = in.readUTF();
                    FieldKind kind;
                    try {
                        kind = FieldKind.valueOf(kindName);
                    } catch (IllegalArgumentException e) {
                        throw new StoreFormatException(
                                where,
                                -1,
                                pos,
                                "kind of field " + fieldName + " of type " + name,
                                "one of " + java.util.Arrays.toString(FieldKind.values()),
                                "\"" + kindName + "\"");
                    }
                    try {
                        fields.add(new FieldDescriptor(fieldName, kind, offset, length, refType));
                    } catch (IllegalArgumentException e) {
                        throw new StoreFormatException(
                                where,
                                -1,
                                pos,
                                "layout of field " + fieldName + " of type " + name,
                                "offset >= 4 and the length of a " + kind,
                                "offset " + offset + " length " + length);
                    }
                }
                types.add(new TypeRecord(name, id, size, List.copyOf(fields)));
            }
            return types;
        } catch (java.io.EOFException | java.io.UTFDataFormatException e) {
            throw new StoreFormatException(
                    where,
                    -1,
                    b.length - bytes.available(),
                    "catalog encoding",
                    "complete type records in " + b.length + " bytes",
                    e instanceof java.io.EOFException
                            ? "the bytes end inside a record"
                            : "malformed text: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("reading the " + where, e);
        }
    }

    private static int count(
            DataInputStream in, ByteArrayInputStream bytes, int total, int minBytesEach, String where, String what)
            throws IOException {
        int pos = total - bytes.available();
        int n = in.readInt();
        if (n < 0 || (long) n * minBytesEach > bytes.available()) {
            throw new StoreFormatException(
                    where, -1, pos, what, "0.." + bytes.available() / minBytesEach, Integer.toString(n));
        }
        return n;
    }
}
