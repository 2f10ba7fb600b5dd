package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.api.internal.FieldDescriptor;
import dev.quickstore.api.internal.TypeDescriptor;
import dev.quickstore.api.internal.Types;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** QS-B padding ({@link ObjectPadding}): sizes on the volume grow by the rule, contents and API do not change. */
class ObjectPaddingTest {
    @TempDir
    Path dir;

    private static int childrenOffset(TypeDescriptor<Kinds> type) {
        return type.fields().stream()
                .filter(f -> f.name().equals("children"))
                .mapToInt(FieldDescriptor::offset)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void paddedObjectsAndReferenceArraysAreLargerByTheRuleAndReadTheSame() throws Exception {
        TypeDescriptor<Kinds> type = Types.of(Kinds.class);
        int pointers = type.pointerOffsets().length;
        assertTrue(pointers >= 4, "Kinds has strings, bytes, a reference and a list");
        ObjectPadding pad = new ObjectPadding(16, 8);
        Path db = dir.resolve("db");
        String plainText;
        String paddedText;
        try (PersistentStore s = PersistentStore.create(db, Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                KindsFixture.fill(tx, k);
                tx.root("plain", k);
                plainText = KindsFixture.describe(k);
                tx.commit();
            }
            s.objectPadding(pad);
            assertEquals(pad, s.objectPadding());
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                KindsFixture.fill(tx, k);
                tx.root("padded", k);
                paddedText = KindsFixture.describe(k);
                tx.commit();
            }
            assertTrue(s.storageManager().verify().ok());
        }
        // a reader needs no knowledge of the padding
        try (PersistentStore s = PersistentStore.open(db, Kinds.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(paddedText, KindsFixture.describe(tx.root("padded", Kinds.class)));
            assertEquals(plainText, KindsFixture.describe(tx.root("plain", Kinds.class)));
            var st = tx.storeTransaction();
            long plain = st.root("plain");
            long padded = st.root("padded");
            assertEquals(type.size(), st.sizeOf(plain), "unpadded object");
            assertEquals(type.size() + 16 + 8 * pointers, st.sizeOf(padded), "header + 8 per address field");
            long plainArray = st.getLong(plain, childrenOffset(type));
            long paddedArray = st.getLong(padded, childrenOffset(type));
            assertTrue(plainArray != 0 && paddedArray != 0, "the fixture fills the list");
            int capacity = (st.sizeOf(plainArray) - 8) / 8; // 8-byte header (size, capacity), 8 per element
            assertEquals(8 + 16 * capacity + 16, st.sizeOf(paddedArray), "array: header + 16 per element");
        }
    }

    @Test
    void badPaddingIsRefusedWithTheValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ObjectPadding(-1, 8));
        assertTrue(e.getMessage().contains("header -1"), e.getMessage());
        assertTrue(ObjectPadding.NONE.isNone());
        assertEquals(0, ObjectPadding.NONE.objectExtra(5));
        assertEquals(16 + 40, ObjectPadding.OID_LAYOUT.objectExtra(5));
    }
}
