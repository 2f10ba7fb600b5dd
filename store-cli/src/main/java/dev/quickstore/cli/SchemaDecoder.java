package dev.quickstore.cli;

import dev.quickstore.api.internal.Catalog;
import dev.quickstore.api.internal.Catalog.TypeRecord;
import dev.quickstore.api.internal.FieldDescriptor;
import dev.quickstore.api.internal.TypeDescriptor;
import dev.quickstore.core.inspect.ObjectView;
import dev.quickstore.core.inspect.StoreInspector;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Typed decoding of objects through the schema catalog a store keeps (the persistent object API's named
 * root {@value Catalog#ROOT}; layout in docs/object-api.md). Read-only: the catalog blob and the objects
 * are read from the files through the {@link StoreInspector}, without opening the store. An object's type
 * is found from the 4-byte type tag at its start; fields are decoded by kind and offset (little-endian,
 * as the generated accessors store them).
 */
final class SchemaDecoder {
    /** Characters of an out-of-line text shown beside its address. */
    static final int TEXT_PREVIEW = 60;

    private final StoreInspector inspector;
    private final List<TypeRecord> types;

    private SchemaDecoder(StoreInspector inspector, List<TypeRecord> types) {
        this.inspector = inspector;
        this.types = types;
    }

    /** Reads the catalog; a store without one gives a decoder with no types. */
    static SchemaDecoder read(StoreInspector inspector) throws IOException {
        Long at = inspector.roots().get(Catalog.ROOT);
        if (at == null || at == 0) {
            return new SchemaDecoder(inspector, List.of());
        }
        ObjectView o = inspector.object(at);
        byte[] blob = inspector.objectBytes(o, (int) Math.min(Integer.MAX_VALUE, o.length()));
        return new SchemaDecoder(inspector, Catalog.fromBlobBytes(blob, at));
    }

    boolean present() {
        return !types.isEmpty();
    }

    /** The catalog as {@code qs info} shows it. */
    List<Map<String, Object>> describeTypes() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (TypeRecord t : types) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", t.name());
            m.put("typeId", String.format("0x%016x", t.id()));
            m.put("size", t.size());
            List<String> fields = new ArrayList<>();
            for (FieldDescriptor f : t.fields()) {
                fields.add(f.name() + " " + f.describe() + " @" + f.offset());
            }
            m.put("fields", fields);
            out.add(m);
        }
        return out;
    }

    /** The type whose tag the object's first four bytes hold. */
    Optional<TypeRecord> typeOf(byte[] object) {
        if (object.length < 4) {
            return Optional.empty();
        }
        int tag = ByteBuffer.wrap(object).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        return types.stream().filter(t -> TypeDescriptor.tag(t.id()) == tag).findFirst();
    }

    /** Field name to decoded value (numbers, text, or addresses with their page). */
    Map<String, Object> decode(TypeRecord type, byte[] object) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(object).order(ByteOrder.LITTLE_ENDIAN);
        Map<String, Object> fields = new LinkedHashMap<>();
        for (FieldDescriptor f : type.fields()) {
            int off = f.offset();
            if (off + Math.max(f.kind().size(), f.length()) > object.length) {
                fields.put(f.name(), "(beyond the object's " + object.length + " bytes)");
                continue;
            }
            Object v = switch (f.kind()) {
                case BYTE -> b.get(off);
                case SHORT -> b.getShort(off);
                case CHAR -> String.valueOf(b.getChar(off));
                case INT -> b.getInt(off);
                case LONG -> b.getLong(off);
                case FLOAT -> b.getFloat(off);
                case DOUBLE -> b.getDouble(off);
                case BOOLEAN -> b.get(off) != 0;
                case CHARS -> fixedChars(object, off, f.length());
                case STRING -> address(b.getLong(off), true);
                case BYTES, REF, LIST, SET, BAG -> address(b.getLong(off), false);
            };
            fields.put(f.name(), v);
        }
        return fields;
    }

    /** A {@code @Chars(n)} field: ISO-8859-1 up to the first zero byte (as the accessors read it). */
    private static String fixedChars(byte[] object, int off, int length) {
        int end = off;
        while (end < off + length && object[end] != 0) {
            end++;
        }
        return new String(object, off, end - off, StandardCharsets.ISO_8859_1);
    }

    private String address(long a, boolean text) throws IOException {
        if (a == 0) {
            return "null";
        }
        String where = String.format("0x%x (page %d offset %d)", a, inspector.pageOf(a), inspector.offsetOf(a));
        if (!text) {
            return where;
        }
        try {
            ObjectView o = inspector.object(a);
            byte[] blob = inspector.objectBytes(o, 8 + 2 * TEXT_PREVIEW);
            if (blob.length < 8) {
                return where;
            }
            int len = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            String s = blob[4] == 3
                    ? new String(blob, 8, blob.length - 8, StandardCharsets.UTF_16LE)
                    : new String(blob, 8, blob.length - 8, StandardCharsets.ISO_8859_1);
            int chars = blob[4] == 3 ? len / 2 : len;
            if (s.length() > TEXT_PREVIEW) {
                s = s.substring(0, TEXT_PREVIEW);
            }
            return where + " \"" + s.replace("\n", "\\n") + (chars > s.length() ? "...\" (" + chars + " chars)" : "\"");
        } catch (RuntimeException e) {
            return where + " (text unreadable: " + e.getMessage() + ")";
        }
    }
}
