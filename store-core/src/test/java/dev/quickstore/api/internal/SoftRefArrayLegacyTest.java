package dev.quickstore.api.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.api.Holder;
import dev.quickstore.api.Leaf;
import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentObject;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collection stored in {@link SoftRefArray}'s format 1 (the first landing's single node of OIDs, tag "QSRA")
 * still reads, and its first change rewrites it as a format-2 tree that keeps every element.
 */
class SoftRefArrayLegacyTest {
    @TempDir
    Path dir;

    /** Writes a format-1 node holding {@code oids} and stores its OID in {@code owner}'s field at {@code field}. */
    private static void writeLegacy(Session session, SoftObject owner, long field, long[] oids) {
        byte[] image = new byte[SoftRefArray.LEGACY_HEADER + 8 * oids.length];
        MemorySegment img = MemorySegment.ofArray(image);
        img.set(ValueLayout.JAVA_INT_UNALIGNED, 0, SoftRefArray.LEGACY_TAG);
        img.set(ValueLayout.JAVA_SHORT_UNALIGNED, 4, (short) oids.length);
        img.set(ValueLayout.JAVA_SHORT_UNALIGNED, 6, (short) oids.length);
        int[] pointers = new int[oids.length];
        for (int k = 0; k < oids.length; k++) {
            img.set(ValueLayout.JAVA_LONG_UNALIGNED, SoftRefArray.LEGACY_HEADER + 8L * k, oids[k]);
            pointers[k] = SoftRefArray.LEGACY_HEADER + 8 * k;
        }
        var tx = session.storeTransaction();
        long ref = tx.allocate(image.length, SoftObjects.refOf(owner.oid()), pointers);
        tx.write(ref, 0, image);
        long node = SoftObjects.oidOfRef(ref);
        SoftView.region().set(ValueLayout.JAVA_LONG, owner.writable(field), node);
    }

    private static long listField() {
        return dev.quickstore.api.Holder$Impl.TYPE.fields().stream()
                .filter(f -> f.kind() == FieldKind.LIST)
                .findFirst()
                .orElseThrow()
                .offset();
    }

    @Test
    void aFormatOneNodeReadsAndBecomesATreeOnItsFirstChange() throws Exception {
        Path db = dir.resolve("db");
        int n = 1000; // more than one format-2 leaf (512)
        StoreOptions options = StoreOptions.builder()
                .frames(FramesMode.SOFTWARE)
                .bufferPoolPages(64)
                .build();
        try (PersistentStore s = PersistentStore.create(db, options, Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            Holder h = tx.create(Holder.class);
            long[] oids = new long[n];
            for (int i = 0; i < n; i++) {
                Leaf l = tx.create(Leaf.class, h);
                l.v(i);
                oids[i] = tx.addressOf(l);
            }
            writeLegacy(PersistentObject.sessionOf((PersistentObject) h), (SoftObject) h, listField(), oids);
            tx.root("h", h);
            tx.commit();
        }
        try (PersistentStore s = PersistentStore.open(db, options, Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            List<Leaf> list = tx.root("h", Holder.class).list();
            assertEquals(n, list.size());
            assertEquals(500, list.get(500).v());
            assertEquals(999, list.indexOf(list.get(999)));
            list.add(1, list.get(0)); // the first change: rewritten as format 2 (a root over two leaves)
            list.remove(n); // the old last element
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                expected.add(i);
            }
            expected.add(1, 0);
            List<Integer> ids = new ArrayList<>();
            list.forEach(l -> ids.add(l.v()));
            assertEquals(expected, ids);
            long root = SoftRefArray.root((SoftObject) tx.root("h", Holder.class), listField());
            assertEquals(SoftRefArray.TAG, SoftView.region().get(ValueLayout.JAVA_INT, root), "format 2 now");
            assertEquals(1, SoftRefArray.height(root));
            tx.commit();
        }
    }
}
