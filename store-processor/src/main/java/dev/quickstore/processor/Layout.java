package dev.quickstore.processor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The object layout rule (docs/object-api.md, "Layout"), duplicated from nothing: the run time only
 * recomputes the {@linkplain #typeId type id} from the generated field list and checks it.
 *
 * <ul>
 *   <li>Bytes 0..3 hold the type tag (low 32 bits of the type id folded with the high ones, never 0).
 *   <li>Fields are placed in order of decreasing alignment (declaration order among equals), each at the
 *       lowest offset &gt;= 4 that is a multiple of its alignment and overlaps nothing placed before (first
 *       fit: a 4-byte field fills bytes 4..7 before any 8-byte field starts at 8).
 *   <li>The size is the end of the last field rounded up to 8 (the slotted-page allocation unit).
 * </ul>
 */
record Layout(List<FieldModel> fields, int size, long typeId) {
    static final int HEADER = 4;

    static Layout place(List<FieldModel> declared) {
        List<FieldModel> order = new ArrayList<>(declared);
        order.sort(
                Comparator.comparingInt((FieldModel f) -> f.kind().alignment()).reversed());
        List<FieldModel> placed = new ArrayList<>();
        List<int[]> used = new ArrayList<>();
        used.add(new int[] {0, HEADER});
        for (FieldModel f : order) {
            int align = f.kind().alignment();
            int off = HEADER;
            off = (off + align - 1) / align * align;
            boolean moved = true;
            while (moved) {
                moved = false;
                for (int[] u : used) {
                    if (off < u[1] && u[0] < off + f.length()) {
                        off = (u[1] + align - 1) / align * align;
                        moved = true;
                    }
                }
            }
            used.add(new int[] {off, off + f.length()});
            placed.add(f.at(off));
        }
        placed.sort(Comparator.comparingInt(FieldModel::offset));
        int end = HEADER;
        for (FieldModel f : placed) {
            end = Math.max(end, f.offset() + f.length());
        }
        int size = (end + 7) & ~7;
        return new Layout(placed, size, 0);
    }

    Layout withId(String qualifiedName) {
        return new Layout(fields, size, typeId(qualifiedName, size, fields));
    }

    /** The type tag stored in bytes 0..3 of every object: must match {@code TypeDescriptor.tag}. */
    int tag() {
        int t = (int) (typeId ^ (typeId >>> 32));
        return t == 0 ? 1 : t;
    }

    /**
     * FNV-1a (64 bit) of the canonical description {@code name|size|f1:KIND:offset:length:refType;...} with
     * fields in offset order. Must stay identical to {@code dev.quickstore.api.internal.TypeDescriptor}.
     */
    static long typeId(String qualifiedName, int size, List<FieldModel> fields) {
        StringBuilder sb =
                new StringBuilder(qualifiedName).append('|').append(size).append('|');
        for (FieldModel f : fields) {
            sb.append(f.name())
                    .append(':')
                    .append(f.kind().name())
                    .append(':')
                    .append(f.offset())
                    .append(':')
                    .append(f.length())
                    .append(':')
                    .append(f.refType())
                    .append(';');
        }
        long h = 0xcbf29ce484222325L;
        for (byte b : sb.toString().getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
