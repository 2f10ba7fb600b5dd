package dev.quickstore.lab.swizzle;

/**
 * The work of a Moss session (Moss 1992, sections 2 and 5.2): {@code visits} preorder traversals of the tree (each
 * visits every object once, so Moss's v is {@code visits}), an activity on every visited object ({@link Work}:
 * Moss's reading of slots, bytes or integers, each on up to {@code items} items of the object), and in the first
 * traversal an update of the objects chosen by {@link #updates}: Moss's slot update (swap even-odd pairs) and byte
 * update (negate each byte), so a fraction {@code updateFraction} of the objects is modified (Moss's u).
 *
 * @param visits traversals (at least 1)
 * @param updateFraction probability that an object is updated (0..1), drawn per node from {@code seed}
 * @param work the activity at each visit
 * @param items how many slots, bytes or integers the activity reads per visit (capped by the object's)
 * @param seed chooses the updated objects
 * @param skip how much of the collection a traversal touches: it follows only the first child for this many levels
 *     before visiting a whole subtree, so it touches about {@code 2^-skip} of the objects (0: all of them); the
 *     objects a traversal does not reach are loaded by the eager schemes all the same
 */
public record Workload(int visits, double updateFraction, Work work, int items, long seed, int skip) {
    /** Moss's work activities (section 5.2, the reading half; updating is the session's update). */
    public enum Work {
        /** No-work traversal (Table 5). */
        NONE,
        /** Bump a counter for each null slot read (Table 6, slot read). */
        READ_SLOTS,
        /** Add each byte to a sum (Table 6, byte read). */
        READ_BYTES,
        /** Add each little-endian 4-byte integer to a sum (Table 6, integer read). */
        READ_INTS
    }

    public Workload {
        if (visits < 1) {
            throw new IllegalArgumentException("visits " + visits + " < 1");
        }
        if (!(updateFraction >= 0 && updateFraction <= 1)) {
            throw new IllegalArgumentException("update fraction " + updateFraction + " not in 0..1");
        }
        if (skip < 0) {
            throw new IllegalArgumentException("skip " + skip + " < 0");
        }
        if (items < 0) {
            throw new IllegalArgumentException("items " + items + " < 0");
        }
    }

    /** A workload over the whole collection. */
    public Workload(int visits, double updateFraction, Work work, int items, long seed) {
        this(visits, updateFraction, work, items, seed, 0);
    }

    public static Workload traversals(int visits) {
        return new Workload(visits, 0, Work.NONE, 0, 1);
    }

    /** Whether node {@code node} is updated in the first traversal. */
    public boolean updates(long node) {
        if (updateFraction <= 0) {
            return false;
        }
        long z = seed ^ (node * 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53 < updateFraction;
    }
}
