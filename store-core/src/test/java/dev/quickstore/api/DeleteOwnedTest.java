package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A delete frees what the object owns out of line - its strings' and byte arrays' blobs, small and large, and its
 * reference lists' node trees - and nothing else: the objects its references and lists point to stay. {@code
 * Session.delete}, and {@code SoftObjects.delete} on a software store, read these fields at offsets computed once per
 * type ({@code TypeDescriptor.ownedOffsets}: the blobs first, then the arrays). A blob freed as an array, an array
 * freed as a blob, or a field left out leaves the store's structures or its object count wrong ({@code verify} counts
 * every live small object and every large one).
 */
class DeleteOwnedTest {
    @TempDir
    Path dir;

    private static long objects(PersistentStore s) {
        var r = s.storageManager().verify();
        assertTrue(r.ok(), r.toString());
        return r.objects();
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    /** A new store of {@link Kinds}: mapped, or software persistence (objects named by OIDs, SoftwareObjectApiTest). */
    private PersistentStore create(boolean software) throws Exception {
        Path db = dir.resolve("db");
        return software
                ? PersistentStore.create(db, SoftwareObjectApiTest.software(64), Kinds.class)
                : PersistentStore.create(db, Kinds.class);
    }

    /** On a mapped store and on a software-persistence store (objects named by OIDs, SoftwareObjectApiTest). */
    @ParameterizedTest(name = "software = {0}")
    @ValueSource(booleans = {false, true})
    void aDeleteFreesTheBlobsAndListsItOwnsAndKeepsWhatTheyReferTo(boolean software) throws Exception {
        try (PersistentStore s = create(software)) {
            try (ObjectTransaction tx = s.begin()) {
                tx.root("keep", tx.create(Kinds.class));
                tx.commit();
            }
            long base = objects(s);
            List<Long> owners = new ArrayList<>();
            List<Long> elements = new ArrayList<>();
            try (ObjectTransaction tx = s.begin()) {
                Kinds keep = tx.root("keep", Kinds.class);
                for (int k = 0; k < 6; k++) {
                    Kinds o = tx.create(Kinds.class, keep);
                    o.i(k);
                    o.other(keep); // a reference: the referent stays
                    o.type("t" + k); // @Chars: in the object, nothing out of line
                    if (k != 1) {
                        o.name("name " + k); // k = 1: a null string
                    }
                    // k = 2: a text and a byte array larger than a page: large objects
                    o.text(k == 2 ? "x".repeat(20_000) : "text " + k);
                    if (k != 3) {
                        o.data(k == 2 ? bytes(30_000, k) : bytes(40 + k, k)); // k = 3: a null array
                    }
                    // k = 4: an empty list (no node tree); k = 5: 253 elements, a tree of several nodes
                    for (int e = 0; e < (k == 4 ? 0 : 3 + 50 * k); e++) {
                        Kinds element = tx.create(Kinds.class, o);
                        element.i(1000 * k + e);
                        element.data(bytes(8, e));
                        o.children().add(element);
                        elements.add(tx.addressOf(element));
                    }
                    owners.add(tx.addressOf(o));
                }
                tx.commit();
            }
            long withOwners = objects(s);
            // each element is an object and owns one blob; each owner owns at least a text
            assertTrue(withOwners > base + 2L * elements.size() + 2L * owners.size(), withOwners + " objects");
            try (ObjectTransaction tx = s.begin()) {
                for (long a : owners) {
                    tx.delete(tx.get(a, Kinds.class));
                }
                tx.commit();
            }
            // exactly the owners and what they owned are gone: the elements (and their blobs) and the root stay
            assertEquals(base + 2L * elements.size(), objects(s));
            try (ObjectTransaction tx = s.begin()) {
                for (int n = 0; n < elements.size(); n++) {
                    Kinds element = tx.get(elements.get(n), Kinds.class);
                    assertEquals(0, element.children().size());
                    assertTrue(element.i() % 1000 < 253, "element " + n + " reads " + element.i());
                    assertArrayEquals(bytes(8, element.i() % 1000), element.data());
                }
                assertEquals(0, tx.root("keep", Kinds.class).i());
            }
        }
    }

    /**
     * A list of more elements than one node holds on either store (a software store's node holds 512): the delete frees
     * its whole node tree, the elements stay.
     */
    @ParameterizedTest(name = "software = {0}")
    @ValueSource(booleans = {false, true})
    void aDeleteFreesAListOfSeveralNodes(boolean software) throws Exception {
        try (PersistentStore s = create(software)) {
            long base = objects(s);
            long owner;
            int n = 1_200;
            try (ObjectTransaction tx = s.begin()) {
                Kinds o = tx.create(Kinds.class);
                for (int e = 0; e < n; e++) {
                    Kinds element = tx.create(Kinds.class, o);
                    element.i(e);
                    o.children().add(element);
                }
                owner = tx.addressOf(o);
                tx.commit();
            }
            assertTrue(objects(s) > base + n + 2, "the list's nodes are objects too: " + objects(s));
            try (ObjectTransaction tx = s.begin()) {
                tx.delete(tx.get(owner, Kinds.class));
                tx.commit();
            }
            assertEquals(base + n, objects(s), "the owner and its list's nodes are gone, the elements are not");
        }
    }
}
