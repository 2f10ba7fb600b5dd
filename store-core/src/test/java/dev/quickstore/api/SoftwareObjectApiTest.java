package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.software.Oid;
import dev.quickstore.core.software.Swizzler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The object API on a software-persistence store (FramesMode.SOFTWARE, docs/software-mode.md): the same
 * {@code @Persistent} interfaces through the generated {@code $Soft} classes. Every field kind round-trips
 * through commit and reopen; a graph far larger than the buffer pool is built and traversed against a heap
 * model (so proxies re-resolve their OIDs after evictions and eviction unswizzles referrers); collections,
 * abort, roots and delete behave as documented (collections of any size: SoftwareCollectionTest).
 */
class SoftwareObjectApiTest {
    static final int N = 3000;

    @TempDir
    Path dir;

    static StoreOptions software(int poolPages) {
        return StoreOptions.builder()
                .frames(FramesMode.SOFTWARE)
                .bufferPoolPages(poolPages)
                .build();
    }

    @Test
    void everyFieldKindRoundTripsThroughCommitAndReopen() throws Exception {
        Path db = dir.resolve("db");
        byte[] big = new byte[200_000]; // more than a small object: the large-object OID form
        new Random(7).nextBytes(big);
        long oid;
        try (PersistentStore s = PersistentStore.create(db, software(64), Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                assertEquals("dev.quickstore.api.Kinds$Soft", k.getClass().getName());
                k.b((byte) -3);
                k.s((short) 30_000);
                k.c('\u00e9');
                k.i(-123_456);
                k.l(1L << 50);
                k.f(1.5f);
                k.d(-2.25);
                k.z(true);
                k.type("gear");
                k.name("first name");
                k.name("a longer second name, the first blob is freed");
                k.text("caf\u00e9 \u263a");
                k.data(big);
                Kinds other = tx.create(Kinds.class, k);
                other.i(99);
                k.other(other);
                k.children().add(other);
                k.children().add(k);
                tx.root("k", k);
                oid = tx.addressOf(k);
                tx.commit();
            }
        }
        assertTrue(Oid.isOid(oid), "a software store's objects are named by OIDs: " + Long.toHexString(oid));
        try (PersistentStore s = PersistentStore.open(db, software(8), Kinds.class);
                ObjectTransaction tx = s.begin()) {
            Kinds k = tx.root("k", Kinds.class);
            assertEquals(oid, tx.addressOf(k));
            assertEquals((byte) -3, k.b());
            assertEquals((short) 30_000, k.s());
            assertEquals('\u00e9', k.c());
            assertEquals(-123_456, k.i());
            assertEquals(1L << 50, k.l());
            assertEquals(1.5f, k.f());
            assertEquals(-2.25, k.d());
            assertTrue(k.z());
            assertEquals("gear", k.type());
            assertEquals("a longer second name, the first blob is freed", k.name());
            assertEquals("caf\u00e9 \u263a", k.text().toString());
            assertArrayEquals(big, k.data());
            assertEquals(99, k.other().i());
            assertEquals(2, k.children().size());
            assertEquals(k.other(), k.children().get(0));
            assertEquals(k, k.children().get(1));
            assertSame(null, k.other().other());
            assertNull(k.other().name());
            assertTrue(s.storageManager().verify().ok(), "store verifies");
            tx.commit();
        }
    }

    /** Graph node i: next = i+1, other = (7i+3) mod N, out = {(i+1), (i*13+5) mod N}, label "n" + i. */
    static void build(PersistentStore s) {
        try (ObjectTransaction tx = s.begin()) {
            List<GraphNode> nodes = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                GraphNode g = tx.create(GraphNode.class, i == 0 ? null : nodes.get(i - 1));
                g.id(i);
                g.weight(i * 3L);
                g.label("n" + i);
                nodes.add(g);
            }
            for (int i = 0; i < N; i++) {
                GraphNode g = nodes.get(i);
                g.next(nodes.get((i + 1) % N));
                g.other(nodes.get((i * 7 + 3) % N));
                g.out().add(nodes.get((i + 1) % N));
                g.out().add(nodes.get((i * 13 + 5) % N));
            }
            tx.root("g", nodes.get(0));
            tx.commit();
        }
    }

    /** Follows next N times from the root; checks every field and reference against the model. */
    static long traverse(PersistentStore s, long weightFactor) {
        long sum = 0;
        try (ObjectTransaction tx = s.begin()) {
            GraphNode g = tx.root("g", GraphNode.class);
            for (int step = 0; step < N; step++) {
                assertEquals(step, g.id());
                assertEquals(step * weightFactor, g.weight(), "weight of " + step);
                assertEquals("n" + step, g.label());
                assertEquals((step * 7 + 3) % N, g.other().id(), "other of " + step);
                List<GraphNode> out = g.out();
                assertEquals(2, out.size());
                assertEquals((step + 1) % N, out.get(0).id());
                assertEquals((step * 13 + 5) % N, out.get(1).id());
                sum += g.weight();
                g = g.next();
            }
            assertEquals(0, g.id(), "next is a cycle of N");
            tx.commit();
        }
        return sum;
    }

    @Test
    void aGraphLargerThanThePoolIsTraversedAndUpdatedCorrectly() throws Exception {
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, software(256), GraphNode.class)) {
            build(s);
        }
        try (PersistentStore s = PersistentStore.open(db, software(8), GraphNode.class)) {
            Swizzler sw = s.storageManager().swizzler();
            traverse(s, 3);
            assertTrue(sw.pageReads() > 20, "pages read by resolution: " + sw.pageReads());
            assertTrue(sw.swizzles() > 0, "references swizzled in place");
            assertTrue(sw.frames().unswizzledAtEviction() > 0, "evictions unswizzled referrers");
            assertTrue(sw.frames().evictions() > 0, "the pool of 8 pages evicted");
            try (ObjectTransaction tx = s.begin()) { // every weight tripled, through proxies that outlive evictions
                GraphNode g = tx.root("g", GraphNode.class);
                for (int i = 0; i < N; i++) {
                    g.weight(g.weight() * 3);
                    g = g.next();
                }
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) { // an aborted change leaves nothing behind
                GraphNode g = tx.root("g", GraphNode.class);
                for (int i = 0; i < N; i++) {
                    g.weight(-1);
                    g.other(null);
                    g = g.next();
                }
                tx.abort();
            }
            traverse(s, 9);
        }
        try (PersistentStore s = PersistentStore.open(db, software(64), GraphNode.class)) {
            traverse(s, 9);
            assertTrue(s.storageManager().verify().ok(), "store verifies");
        }
    }

    @Test
    void listSetAndBagKeepTheirSemanticsAndGrowPastANode() throws Exception {
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, software(64), Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Holder h = tx.create(Holder.class);
                List<Leaf> leaves = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    Leaf l = tx.create(Leaf.class, h);
                    l.v(i);
                    leaves.add(l);
                    h.list().add(l); // 4, 8, ... 512: the node is replaced as it grows
                }
                h.list().add(0, leaves.get(299));
                h.list().remove(1);
                h.list().set(5, leaves.get(7));
                Set<Leaf> set = h.set();
                assertTrue(set.add(leaves.get(1)));
                assertFalse(set.add(leaves.get(1)), "a set refuses a duplicate");
                assertTrue(set.add(leaves.get(2)));
                assertTrue(set.remove(leaves.get(1)));
                Collection<Leaf> bag = h.bag();
                bag.add(leaves.get(3));
                bag.add(leaves.get(3));
                tx.root("h", h);
                tx.commit();
            }
        }
        try (PersistentStore s = PersistentStore.open(db, software(8), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            Holder h = tx.root("h", Holder.class);
            List<Leaf> list = h.list();
            assertEquals(300, list.size());
            assertEquals(299, list.get(0).v());
            assertEquals(7, list.get(5).v());
            for (int i = 1; i < 300; i++) {
                if (i != 5) {
                    assertEquals(i, list.get(i).v(), "element " + i);
                }
            }
            assertEquals(1, h.set().size());
            assertEquals(2, h.set().iterator().next().v());
            assertEquals(2, h.bag().size());
            assertTrue(h.bag().stream().allMatch(l -> l.v() == 3), "a bag keeps duplicates");
            assertEquals(0, list.indexOf(list.get(299)), "the first occurrence of leaf 299");
            assertEquals(1, list.indexOf(list.get(1)));
            assertEquals(-1, list.indexOf("not a persistent object"));
            tx.commit();
        }
    }

    /**
     * The abort limit of the first landings: an aborted transaction's new objects stayed in the OID table, so a new
     * object of the same type given the same slot at another offset resolved to the old offset and its writes
     * landed in its neighbour. Abort now drops every restored page's objects from the table.
     */
    @Test
    void anAbortedTransactionsObjectsLeaveTheOidTable() throws Exception {
        Path db = dir.resolve("db");
        long reused;
        try (PersistentStore s = PersistentStore.create(db, software(64), Holder.class, Leaf.class)) {
            long anchor;
            try (ObjectTransaction tx = s.begin()) {
                anchor = tx.addressOf(tx.create(Leaf.class));
                tx.root("anchor", tx.get(anchor, Leaf.class));
                tx.commit();
            }
            long aborted;
            try (ObjectTransaction tx = s.begin()) {
                Leaf near = tx.get(anchor, Leaf.class);
                tx.create(Leaf.class, near); // slot s
                aborted = tx.addressOf(tx.create(Leaf.class, near)); // slot s + 1, entered in the OID table
                assertEquals(0, tx.get(aborted, Leaf.class).v());
                tx.abort();
            }
            try (ObjectTransaction tx = s.begin()) {
                Leaf near = tx.get(anchor, Leaf.class);
                Holder h = tx.create(Holder.class, near); // slot s, larger than a leaf
                h.id(7);
                Leaf l = tx.create(Leaf.class, near); // slot s + 1 at another offset: the same OID
                reused = tx.addressOf(l);
                assertEquals(aborted, reused, "precondition: the same slot and type, so the same OID");
                l.v(42);
                assertEquals(7, h.id(), "the new leaf's write did not land in the holder");
                tx.root("h", h);
                tx.commit();
            }
        }
        try (PersistentStore s = PersistentStore.open(db, software(64), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(42, tx.get(reused, Leaf.class).v());
            assertEquals(7, tx.root("h", Holder.class).id());
            assertTrue(s.storageManager().verify().ok(), "store verifies");
        }
    }

    @Test
    void deleteFreesTheObjectAndItsOidNoLongerResolves() throws Exception {
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, software(64), GraphNode.class)) {
            long oid;
            try (ObjectTransaction tx = s.begin()) {
                GraphNode g = tx.create(GraphNode.class);
                g.label("doomed");
                g.out().add(g);
                oid = tx.addressOf(g);
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                tx.delete(tx.get(oid, GraphNode.class));
                IllegalArgumentException e =
                        assertThrows(IllegalArgumentException.class, () -> tx.get(oid, GraphNode.class));
                assertTrue(e.getMessage().contains("page " + Oid.page(oid)), e.getMessage());
                tx.commit();
            }
            assertTrue(s.storageManager().verify().ok(), "store verifies");
        }
    }

    /**
     * OO7 SM2's pattern: an object is deleted while another still holds a swizzled pointer to it, and the holder's
     * page is then written (first write: its disk-form pre-image) or committed (its disk form). Both must unswizzle
     * the pointer to the deleted object; the dangling reference then fails when followed, naming the page.
     */
    @Test
    void aPointerSwizzledToADeletedObjectStillHasADiskForm() throws Exception {
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, software(64), GraphNode.class)) {
            long far;
            long near;
            long target;
            try (ObjectTransaction tx = s.begin()) {
                GraphNode a = tx.create(GraphNode.class);
                GraphNode b = tx.create(GraphNode.class);
                a.next(b); // a and b share a page
                for (int i = 0; i < 600; i++) {
                    tx.create(GraphNode.class).id(i);
                }
                GraphNode c = tx.create(GraphNode.class);
                c.next(b); // c's page is another one
                near = tx.addressOf(a);
                far = tx.addressOf(c);
                target = tx.addressOf(b);
                assertEquals(Oid.page(near), Oid.page(target), "precondition: a and b on one page");
                assertTrue(Oid.page(far) != Oid.page(target), "precondition: c on another page");
                tx.root("a", a);
                tx.root("c", c);
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                GraphNode a = tx.root("a", GraphNode.class);
                GraphNode c = tx.root("c", GraphNode.class);
                GraphNode b = a.next(); // swizzles a's word in place
                assertEquals(target, tx.addressOf(c.next())); // and c's
                tx.delete(b);
                c.weight(7); // c's page: first write, pre-image in disk form
                a.weight(5);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, a::next);
                assertTrue(e.getMessage().contains("page " + Oid.page(target)), e.getMessage());
                tx.commit(); // both pages in disk form
            }
        }
        try (PersistentStore s = PersistentStore.open(db, software(64), GraphNode.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(5, tx.root("a", GraphNode.class).weight());
            assertEquals(7, tx.root("c", GraphNode.class).weight());
            assertThrows(
                    IllegalArgumentException.class,
                    () -> tx.root("c", GraphNode.class).next());
            assertTrue(s.storageManager().verify().ok(), "store verifies");
        }
    }
}
