package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.api.internal.View;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Persistent list, set and bag fields (generated {@code Refs}, {@code SetRefs}, {@code BagRefs} over
 * {@code RefArray}): every collection operation against the java.util contract, growth past one page and past
 * several levels of the node tree, shrinking, freeing on delete, abort, relocation.
 */
class CollectionsTest {
    /** Elements per node with 8 KiB pages (RefArray: the largest power of two that fits a small object). */
    static final int FANOUT = 512;

    @TempDir
    Path dir;

    static Leaf[] leaves(ObjectTransaction tx, Holder near, int n) {
        Leaf[] out = new Leaf[n];
        for (int i = 0; i < n; i++) {
            out[i] = tx.create(Leaf.class, near);
            out[i].v(i);
        }
        return out;
    }

    static List<Integer> values(Collection<Leaf> c) {
        List<Integer> out = new ArrayList<>();
        for (Leaf l : c) {
            out.add(l == null ? -1 : l.v());
        }
        return out;
    }

    static long objects(PersistentStore s) {
        var r = s.storageManager().verify();
        assertTrue(r.ok(), r.toString());
        return r.objects();
    }

    @Test
    void listFollowsTheListContract() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.create(Holder.class);
                Leaf[] x = leaves(tx, h, 8);
                List<Leaf> l = h.list();
                List<Leaf> m = new ArrayList<>();
                assertTrue(l.isEmpty());
                assertEquals(0, l.size());
                assertFalse(l.iterator().hasNext());
                for (List<Leaf> c : List.of(l, m)) {
                    c.add(x[0]);
                    c.add(x[1]);
                    c.add(null);
                    c.add(0, x[2]);
                    c.add(4, x[3]);
                    c.add(2, x[1]);
                }
                assertEquals(m, l);
                assertEquals(values(m), values(l));
                assertEquals(m.hashCode(), l.hashCode());
                assertEquals(x[1], l.set(2, x[4]));
                m.set(2, x[4]);
                assertNull(l.set(4, x[5]));
                m.set(4, x[5]);
                assertEquals(m, l);
                assertTrue(l.contains(x[5]));
                assertFalse(l.contains(x[7]));
                assertFalse(l.contains("not a leaf"));
                assertFalse(l.contains(h), "an object of another type is not an element");
                assertEquals(m.indexOf(x[1]), l.indexOf(x[1]));
                assertEquals(m.lastIndexOf(x[1]), l.lastIndexOf(x[1]));
                assertEquals(-1, l.indexOf(null));
                l.add(null);
                m.add(null);
                assertEquals(m.indexOf(null), l.indexOf(null));
                assertTrue(l.contains(null));
                assertEquals(m.remove(1), l.remove(1));
                assertEquals(m.remove(x[3]), l.remove(x[3]));
                assertEquals(m.remove(x[7]), l.remove(x[7]));
                assertEquals(m, l);
                // list iterators: set, add, remove, both directions
                ListIterator<Leaf> it = l.listIterator();
                ListIterator<Leaf> mt = m.listIterator();
                while (it.hasNext()) {
                    Leaf a = it.next();
                    assertEquals(mt.next(), a);
                    if (a == null) {
                        it.set(x[6]);
                        mt.set(x[6]);
                    } else if (a.v() == 0) {
                        it.remove();
                        mt.remove();
                    } else if (a.v() == 4) {
                        it.add(x[7]);
                        mt.add(x[7]);
                    }
                }
                while (it.hasPrevious()) {
                    assertEquals(mt.previous(), it.previous());
                }
                assertEquals(m, l);
                assertEquals(values(m), values(l));
                assertEquals(m.subList(1, 3), l.subList(1, 3));
                // bounds, fail-fast iteration, wrong element type
                int n = l.size();
                assertThrows(IndexOutOfBoundsException.class, () -> l.get(-1));
                assertThrows(IndexOutOfBoundsException.class, () -> l.get(n));
                assertThrows(IndexOutOfBoundsException.class, () -> l.set(n, x[0]));
                assertThrows(IndexOutOfBoundsException.class, () -> l.add(n + 1, x[0]));
                assertThrows(IndexOutOfBoundsException.class, () -> l.remove(n));
                Iterator<Leaf> ff = l.iterator();
                ff.next();
                l.add(x[0]);
                assertThrows(ConcurrentModificationException.class, ff::next);
                @SuppressWarnings({"unchecked", "rawtypes"})
                List<Object> raw = (List) l;
                assertThrows(IllegalArgumentException.class, () -> raw.add(h));
                assertThrows(IllegalArgumentException.class, () -> raw.add("text"));
                assertEquals(n + 1, l.size());
                m.add(x[0]);
                tx.root("h", h);
                tx.commit();
                try (ObjectTransaction tx2 = s.begin()) {
                    List<Leaf> again = tx2.root("h", Holder.class).list();
                    assertEquals(values(m), values(again), "committed");
                    again.clear();
                    assertTrue(again.isEmpty());
                    assertEquals(0, tx2.root("h", Holder.class).list().size(), "a new view sees the clear");
                    tx2.commit();
                }
            }
        }
    }

    @Test
    void setFollowsTheSetContract() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            Holder h = tx.create(Holder.class);
            Leaf[] x = leaves(tx, h, 10);
            Set<Leaf> set = h.set();
            Set<Leaf> m = new HashSet<>();
            for (int i = 0; i < 10; i++) {
                assertEquals(m.add(x[i % 6]), set.add(x[i % 6]), "add " + i);
            }
            assertEquals(6, set.size());
            assertEquals(m, set);
            assertEquals(set, m);
            assertEquals(m.hashCode(), set.hashCode());
            assertTrue(set.contains(x[5]));
            assertFalse(set.contains(x[6]));
            assertFalse(set.contains(null));
            assertFalse(set.contains(h));
            Leaf same = tx.get(tx.addressOf(x[2]), Leaf.class);
            assertFalse(set.add(same), "identity is the address: another proxy of the same object");
            assertThrows(NullPointerException.class, () -> set.add(null));
            assertTrue(set.remove(x[0]));
            assertFalse(set.remove(x[0]));
            assertFalse(set.remove(null));
            m.remove(x[0]);
            assertEquals(m, set);
            // every element once; iterator remove visits the element that takes the removed one's place
            Set<Leaf> seen = new HashSet<>();
            for (Iterator<Leaf> it = set.iterator(); it.hasNext(); ) {
                Leaf a = it.next();
                assertTrue(seen.add(a), "visited twice: " + a.v());
                if (a.v() % 2 == 1) {
                    it.remove();
                    m.remove(a);
                }
            }
            assertEquals(Set.of(1, 2, 3, 4, 5), new HashSet<>(values(new ArrayList<>(seen))));
            assertEquals(m, set);
            assertEquals(Set.of(2, 4), new HashSet<>(values(set)));
            Iterator<Leaf> it = set.iterator();
            assertThrows(IllegalStateException.class, it::remove);
            it.next();
            set.add(x[9]);
            assertThrows(ConcurrentModificationException.class, it::next);
            Iterator<Leaf> end = set.iterator();
            while (end.hasNext()) {
                end.next();
            }
            assertThrows(NoSuchElementException.class, end::next);
            assertTrue(set.containsAll(List.of(x[2], x[9])));
            assertTrue(set.removeAll(List.of(x[2])));
            assertEquals(Set.of(4, 9), new HashSet<>(values(set)));
            set.clear();
            assertTrue(set.isEmpty());
            assertEquals(0, h.set().size());
        }
    }

    @Test
    void bagKeepsDuplicatesAndRemovesOneOccurrence() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            Holder h = tx.create(Holder.class);
            Leaf[] x = leaves(tx, h, 4);
            Collection<Leaf> bag = h.bag();
            for (int i = 0; i < 12; i++) {
                assertTrue(bag.add(x[i % 3]));
            }
            assertEquals(12, bag.size());
            assertEquals(Map.of(0, 4, 1, 4, 2, 4), counts(bag));
            assertTrue(bag.contains(x[1]));
            assertFalse(bag.contains(x[3]));
            assertFalse(bag.contains(null));
            assertThrows(NullPointerException.class, () -> bag.add(null));
            assertTrue(bag.remove(x[1]));
            assertEquals(Map.of(0, 4, 1, 3, 2, 4), counts(bag));
            assertFalse(bag.remove(x[3]));
            for (Iterator<Leaf> it = bag.iterator(); it.hasNext(); ) {
                if (it.next().v() == 0) {
                    it.remove();
                }
            }
            assertEquals(Map.of(1, 3, 2, 4), counts(bag));
            Iterator<Leaf> it = bag.iterator();
            it.next();
            bag.remove(x[2]);
            assertThrows(ConcurrentModificationException.class, it::next);
            assertEquals(6, h.bag().size());
            @SuppressWarnings({"unchecked", "rawtypes"})
            Collection<Object> raw = (Collection) bag;
            assertThrows(IllegalArgumentException.class, () -> raw.add(h));
            bag.clear();
            assertTrue(h.bag().isEmpty());
        }
    }

    static Map<Integer, Integer> counts(Collection<Leaf> c) {
        Map<Integer, Integer> out = new HashMap<>();
        for (Leaf l : c) {
            out.merge(l.v(), 1, Integer::sum);
        }
        return out;
    }

    /** 300,000 elements: three levels of nodes (512 x 512 < 300,000), hundreds of pages. */
    @Test
    void listsGrowPastSeveralPagesShrinkAndAreFreedWithTheirOwner() throws Exception {
        int n = 300_000;
        Path db = dir.resolve("db");
        long base;
        try (PersistentStore s = PersistentStore.create(db, Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.create(Holder.class);
                tx.root("h", h);
                tx.commit();
            }
            base = objects(s);
        }
        try (PersistentStore s = PersistentStore.open(db, Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.root("h", Holder.class);
                Leaf[] pool = leaves(tx, h, 1000);
                List<Leaf> l = h.list();
                for (int i = 0; i < n; i++) {
                    l.add(pool[(int) ((i * 7L) % 1000)]);
                    if (i == FANOUT - 1 || i == FANOUT || i == FANOUT * FANOUT || i == n - 1) {
                        assertEquals(i + 1, l.size());
                        assertEquals((i * 7L) % 1000, l.get(i).v(), "element " + i + " after growth");
                        assertEquals(0, l.get(0).v());
                    }
                }
                tx.commit();
            }
            long grown = objects(s);
            assertTrue(
                    grown >= base + 1000 + n / FANOUT + 2,
                    "nodes are small objects: " + grown + " objects, base " + base);
            try (ObjectTransaction tx = s.begin()) {
                List<Leaf> l = tx.root("h", Holder.class).list();
                assertEquals(n, l.size());
                long sum = 0;
                for (int i = 0; i < n; i++) {
                    int v = l.get(i).v();
                    assertEquals((i * 7L) % 1000, v, "element " + i);
                    sum += v;
                }
                long expected = 0;
                for (int i = 0; i < n; i++) {
                    expected += (i * 7L) % 1000;
                }
                assertEquals(expected, sum);
                // insert and remove in the middle move elements across nodes
                Leaf first = l.get(0);
                l.add(FANOUT * FANOUT - 1, first);
                assertEquals(first, l.get(FANOUT * FANOUT - 1));
                assertEquals(
                        ((FANOUT * FANOUT - 1) * 7L) % 1000,
                        l.get(FANOUT * FANOUT).v());
                assertEquals(((n - 1) * 7L) % 1000, l.get(n).v());
                assertEquals(first, l.remove(FANOUT * FANOUT - 1));
                assertEquals(
                        ((FANOUT * FANOUT - 1) * 7L) % 1000,
                        l.get(FANOUT * FANOUT - 1).v());
                // shrink from the end to 10 elements: every emptied node is freed
                for (int i = n - 1; i >= 10; i--) {
                    assertEquals((i * 7L) % 1000, l.remove(i).v());
                }
                assertEquals(10, l.size());
                tx.commit();
            }
            long shrunk = objects(s);
            assertEquals(base + 1000 + 1, shrunk, "1,000 new leaves and one root node remain");
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.root("h", Holder.class);
                assertEquals(List.of(0, 7, 14, 21, 28, 35, 42, 49, 56, 63), values(h.list()));
                Leaf[] some = new Leaf[3 * FANOUT];
                for (int i = 0; i < some.length; i++) {
                    some[i] = tx.create(Leaf.class, h);
                    h.set().add(some[i]);
                    h.bag().add(some[i % 5]);
                    h.list().add(some[i]);
                }
                tx.root("h2", tx.create(Holder.class));
                tx.delete(h);
                tx.root("h", (Object) null);
                tx.commit();
            }
            // the holder and its three node trees are gone; the elements are not (they are objects of their own)
            assertEquals(base - 1 + 1000 + 3 * FANOUT + 1, objects(s));
        }
    }

    @Test
    void abortRestoresTheCollections() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), Holder.class, Leaf.class)) {
            List<Integer> list;
            Set<Integer> set;
            Map<Integer, Integer> bag;
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.create(Holder.class);
                Leaf[] x = leaves(tx, h, 3000);
                for (int i = 0; i < 3000; i++) {
                    h.list().add(x[(i * 13) % 3000]);
                    if (i % 3 == 0) {
                        h.set().add(x[i]);
                    }
                    h.bag().add(x[i % 7]);
                }
                tx.root("h", h);
                list = values(h.list());
                set = new HashSet<>(values(h.set()));
                bag = counts(h.bag());
                tx.commit();
            }
            long before = objects(s);
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.root("h", Holder.class);
                Leaf[] y = leaves(tx, h, 5000);
                for (Leaf l : y) {
                    h.list().add(0, l);
                    h.bag().add(l);
                }
                h.set().clear();
                h.list().subList(100, 4000).clear();
                assertNotEquals(list, values(h.list()));
                tx.abort();
            }
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.root("h", Holder.class);
                assertEquals(list, values(h.list()));
                assertEquals(set, new HashSet<>(values(h.set())));
                assertEquals(1000, h.set().size());
                assertEquals(bag, counts(h.bag()));
            }
            assertEquals(before, objects(s));
        }
    }

    /**
     * A reference array written before node format 1 ({@code u32 size, u32 capacity}, here 1,000 entries, more
     * than the fan-out) reads as a leaf, and becomes a tree of 512-entry leaves when it outgrows its capacity.
     */
    @Test
    void formatZeroArraysAreReadAndConvertedWhenTheyGrow() throws Exception {
        Path db = dir.resolve("db");
        StoreOptions o = StoreOptions.defaults().withFrames(FramesMode.MAPPED);
        int n = 1001;
        long[] addr = new long[n];
        try (PersistentStore s = PersistentStore.create(db, o, Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.create(Holder.class);
                Leaf[] x = leaves(tx, h, n);
                for (int k = 0; k < n; k++) {
                    addr[k] = tx.addressOf(x[k]);
                }
                tx.root("h", h);
                tx.commit();
            }
            long empty = objects(s);
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.root("h", Holder.class);
                int cap = 1000;
                int[] pointers = new int[cap];
                for (int k = 0; k < cap; k++) {
                    pointers[k] = 8 + 8 * k;
                }
                long owner = tx.addressOf(h);
                long arr = tx.storeTransaction().allocate(8 + 8 * cap, owner, pointers);
                var seg = View.segment();
                long at = arr - View.base();
                seg.set(ValueLayout.JAVA_INT, at, 700);
                seg.set(ValueLayout.JAVA_INT, at + 4, cap);
                for (int k = 0; k < 700; k++) {
                    seg.set(ValueLayout.JAVA_LONG, at + 8 + 8L * k, addr[k]);
                }
                seg.set(ValueLayout.JAVA_LONG, owner - View.base() + Holder$Impl.OFF_LIST, arr);
                List<Leaf> l = h.list();
                assertEquals(700, l.size());
                assertEquals(699, l.get(699).v());
                for (int k = 700; k < n; k++) {
                    l.add(tx.get(addr[k], Leaf.class));
                }
                assertEquals(n, l.size());
                for (int k = 0; k < n; k++) {
                    assertEquals(k, l.get(k).v(), "element " + k);
                }
                tx.commit();
            }
            assertEquals(empty + 3, objects(s), "the format-0 array became a root and two 512-entry leaves");
        }
        try (PersistentStore s = PersistentStore.open(db, o, Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            List<Leaf> l = tx.root("h", Holder.class).list();
            for (int k = 0; k < n; k++) {
                assertEquals(k, l.get(k).v(), "element " + k);
            }
        }
    }

    /** Digest of the holder's collections, in storage order. */
    static String digest(Holder h) {
        return h.id() + " " + values(h.list()).hashCode() + " " + h.list().size() + " "
                + values(h.set()).hashCode() + " " + values(h.bag()).hashCode() + " "
                + h.list().get(h.list().size() - 1).v();
    }

    /**
     * A list of 20,000 references (40 leaf nodes, two levels) over elements on many pages, read and updated
     * with 0 %, 50 % and 100 % of the pages relocated (QS-CR: every element word translated at fault time
     * through the page pointer maps), gives identical results.
     */
    @Test
    void relocationGivesIdenticalResults() throws Exception {
        List<String> results = new ArrayList<>();
        for (double fraction : new double[] {0, 0.5, 1}) {
            Path db = dir.resolve("db" + fraction);
            StoreOptions o = StoreOptions.defaults().withFrames(FramesMode.MAPPED);
            try (PersistentStore s = PersistentStore.create(db, o, Holder.class, Leaf.class);
                    ObjectTransaction tx = s.begin()) {
                Holder h = tx.create(Holder.class);
                h.id(7);
                Leaf[] x = leaves(tx, h, 4000);
                for (int i = 0; i < 20_000; i++) {
                    h.list().add(x[(int) ((i * 31L) % 4000)]);
                }
                for (int i = 0; i < 1500; i++) {
                    h.set().add(x[(i * 17) % 4000]);
                    h.bag().add(x[i % 11]);
                }
                tx.root("h", h);
                tx.commit();
            }
            StringBuilder out = new StringBuilder();
            StoreOptions relocated = o.withRelocation(Relocation.CONTINUAL, fraction);
            try (PersistentStore s = PersistentStore.open(db, relocated, Holder.class, Leaf.class)) {
                assertEquals(fraction > 0, s.storageManager().relocatedPages() > 0, "relocated pages at " + fraction);
                try (ObjectTransaction tx = s.begin()) {
                    Holder h = tx.root("h", Holder.class);
                    out.append(digest(h)).append('\n');
                    List<Leaf> l = h.list();
                    for (int i = 0; i < l.size(); i += 3) {
                        l.set(i, l.get((i * 7) % l.size()));
                    }
                    for (int i = 0; i < 600; i++) {
                        l.add(l.get(i));
                        h.set().remove(l.get(i * 5));
                    }
                    tx.commit();
                }
                try (ObjectTransaction tx = s.begin()) {
                    out.append(digest(tx.root("h", Holder.class))).append('\n');
                }
            }
            try (PersistentStore s = PersistentStore.open(db, o, Holder.class, Leaf.class);
                    ObjectTransaction tx = s.begin()) {
                out.append(digest(tx.root("h", Holder.class)));
            }
            results.add(out.toString());
        }
        assertEquals(results.get(0), results.get(1), "50 % relocated");
        assertEquals(results.get(0), results.get(2), "100 % relocated");
        List<String> lines = results.get(0).lines().toList();
        assertNotEquals(lines.get(0), lines.get(1), "the update changed the collections");
        assertEquals(lines.get(1), lines.get(2), "committed and reopened without relocation");
    }
}
