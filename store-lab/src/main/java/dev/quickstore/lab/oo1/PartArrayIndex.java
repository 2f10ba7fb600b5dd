package dev.quickstore.lab.oo1;

import dev.quickstore.api.ObjectTransaction;
import java.util.List;

/**
 * OO1's index of part ids as a persistent array of raw references ({@link Oo1PartArray}, the named root {@value
 * #ROOT}) instead of the B+tree: the Texas paper's "all-raw" configuration (Kakkad and Wilson 1999,
 * texas-kakkad-wilson-1999.txt section 5, Figure 3). A lookup is {@code parts().get(id - 1)}: two or three words
 * of the reference array's radix tree, each an ordinary reference swizzled (in Texas mode) when its page was
 * loaded. Inserting appends, so ids must arrive in order {@code 1, 2, 3, ...} (the generator's and OO1's insert's
 * order); any other id is refused.
 */
final class PartArrayIndex {
    /** The named root holding the array. */
    static final String ROOT = "oo1.part.array";

    private PartArrayIndex() {}

    /** Creates the empty array and its root in {@code tx}. */
    static void create(ObjectTransaction tx) {
        tx.root(ROOT, tx.create(Oo1PartArray.class));
    }

    /** The live list of parts of the store {@code tx} runs on. */
    static List<Oo1Part> parts(ObjectTransaction tx) {
        Oo1PartArray a = tx.root(ROOT, Oo1PartArray.class);
        if (a == null) {
            throw new IllegalStateException("this OO1 store has no part array (root " + ROOT
                    + "): it was created with the B+tree index, open it with IdIndex.BTREE");
        }
        return a.parts();
    }

    /** Part {@code id}, or null if there is none. */
    static Oo1Part get(List<Oo1Part> parts, int id) {
        return id >= 1 && id <= parts.size() ? parts.get(id - 1) : null;
    }

    /** Appends part {@code p} as part {@code id}, which must be the next id. */
    static void add(List<Oo1Part> parts, int id, Oo1Part p) {
        if (id != parts.size() + 1) {
            throw new IllegalArgumentException(
                    "part id " + id + ": the part array takes ids in order, the next is " + (parts.size() + 1));
        }
        parts.add(p);
    }
}
