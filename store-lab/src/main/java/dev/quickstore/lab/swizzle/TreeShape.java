package dev.quickstore.lab.swizzle;

/**
 * The shape of one of Moss's benchmark collections (Moss 1992, "Working with persistent objects: to swizzle or not
 * to swizzle", section 5.1): a complete binary tree of {@code 2^height - 1} objects whose internal nodes and leaves
 * each have a number of slots (8-byte references here; 4-byte in Mneme), of which a number are initialized, and a
 * number of non-reference bytes. Slots 0 and 1 of an internal node are its children (the tree's backbone); the other
 * initialized slots are self-loops, as in the paper; the rest are null. A leaf's initialized slots are all self-loops.
 *
 * @param height tree height: {@code 2^height - 1} objects, {@code 2^(height-1)} of them leaves
 * @param innerSlots slots of an internal node (at least 2)
 * @param innerInit initialized slots of an internal node (2..innerSlots)
 * @param innerBytes non-reference bytes of an internal node
 * @param leafSlots slots of a leaf
 * @param leafInit initialized slots (self-loops) of a leaf
 * @param leafBytes non-reference bytes of a leaf
 */
public record TreeShape(
        int height, int innerSlots, int innerInit, int innerBytes, int leafSlots, int leafInit, int leafBytes) {
    /** Bytes of one slot (a persistent oid or a swizzled address). */
    public static final int SLOT_BYTES = 8;

    public TreeShape {
        if (height < 1 || height > 24) {
            throw new IllegalArgumentException("tree height " + height + " not in 1..24");
        }
        if (innerSlots < 2 || innerInit < 2 || innerInit > innerSlots) {
            throw new IllegalArgumentException(
                    "an internal node needs 2 <= initialized <= slots, got " + innerInit + " of " + innerSlots);
        }
        if (leafSlots < 0 || leafInit < 0 || leafInit > leafSlots || innerBytes < 0 || leafBytes < 0) {
            throw new IllegalArgumentException("negative or over-initialized leaf shape " + leafInit + "/" + leafSlots);
        }
    }

    /** Same slots and bytes in internal nodes and leaves (leaves keep the same number of initialized self-loops). */
    public static TreeShape uniform(int height, int slots, int bytes) {
        return new TreeShape(height, slots, 2, bytes, slots, 0, bytes);
    }

    public long objects() {
        return (1L << height) - 1;
    }

    public long leaves() {
        return 1L << (height - 1);
    }

    public long inner() {
        return objects() - leaves();
    }

    /** Moss's b summed over the collection: user bytes, slots included, headers excluded. */
    public long userBytes() {
        return inner() * ((long) innerSlots * SLOT_BYTES + innerBytes)
                + leaves() * ((long) leafSlots * SLOT_BYTES + leafBytes);
    }

    public long slots() {
        return inner() * innerSlots + leaves() * leafSlots;
    }

    public long initializedSlots() {
        return inner() * innerInit + leaves() * leafInit;
    }

    /** Whether node {@code node} (numbered 1.. breadth first, children of k are 2k and 2k+1) is a leaf. */
    public boolean isLeaf(long node) {
        return node >= (1L << (height - 1));
    }

    public int slotsOf(long node) {
        return isLeaf(node) ? leafSlots : innerSlots;
    }

    public int initOf(long node) {
        return isLeaf(node) ? leafInit : innerInit;
    }

    public int bytesOf(long node) {
        return isLeaf(node) ? leafBytes : innerBytes;
    }

    /** The initial value of byte {@code j} of node {@code node} (the same in the store and in the heap model). */
    public static byte initialByte(long node, int j) {
        return (byte) (node * 31 + j * 7 + 1);
    }

    @Override
    public String toString() {
        return "h" + height + " slots " + innerInit + "/" + innerSlots + ":" + leafInit + "/" + leafSlots + " bytes "
                + innerBytes + ":" + leafBytes;
    }
}
