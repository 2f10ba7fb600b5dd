package dev.quickstore.lab.swizzle;

/**
 * An object as a plain Java heap object: references are Java references, bytes a {@code byte[]}. It is the copy in
 * Moss's copy swizzling (section 3.1, Figure 4 (b)), where before it is filled it is also the lazy scheme's fault
 * block (node marking, Figure 5: it holds the oid of an object not swizzled yet, and becomes the object when
 * filled), and it is the node of the heap model (Moss's non-persistent C, NPC).
 */
public final class MemoryObject {
    /** The object's oid (0 in the heap model, and for a new object until it is prepared). */
    long oid;
    /** The node number in the tree. */
    int node;
    /** Null until filled (a fault block), then the slots. */
    MemoryObject[] slots;

    byte[] bytes;
    /** Non-null references among the slots. */
    int initialized;

    boolean modified;

    MemoryObject(long oid) {
        this.oid = oid;
    }

    boolean filled() {
        return slots != null;
    }
}
