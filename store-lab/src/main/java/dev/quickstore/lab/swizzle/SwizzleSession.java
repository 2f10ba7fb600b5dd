package dev.quickstore.lab.swizzle;

import java.lang.foreign.MemorySegment;

/**
 * One load-work-save session of Moss's application model (Moss 1992, section 2) under one scheme: {@link #load}
 * (eager schemes read and swizzle the whole collection; lazy ones only find the root), {@link #traverse} once per
 * visit (lazy schemes load and swizzle on the way), {@link #save} (unswizzle, write the dirty pages back); or, for a
 * create-work-save session, {@link #create} instead of {@link #load}. The three mechanisms are {@link NoSwizzling},
 * {@link InPlaceSwizzling} and {@link CopySwizzling}; {@link Strategy} names the five schemes.
 */
public abstract sealed class SwizzleSession permits NoSwizzling, InPlaceSwizzling, CopySwizzling {
    final PageBuffers buffers;
    final MemorySegment m;
    final Workload work;
    final Tally tally;
    /** Node numbers from here on are leaves (no children to follow). */
    final long leafFrom;
    /** Levels where a traversal follows only the first child ({@link Workload#skip}). */
    final int skip;
    /** The pointer words of new store objects of the shape's internal nodes and leaves. */
    private final int[] innerWords;

    private final int[] leafWords;

    SwizzleSession(PageBuffers buffers, Workload work, Tally tally) {
        this.buffers = buffers;
        this.m = buffers.memory();
        this.work = work;
        this.tally = tally;
        this.leafFrom = 1L << (buffers.descriptor().shape().height() - 1);
        this.skip = work.skip();
        TreeShape sh = buffers.descriptor().shape();
        this.innerWords = CollectionFile.pointerWords(sh.innerSlots());
        this.leafWords = CollectionFile.pointerWords(sh.leafSlots());
    }

    /** The load phase (Moss's reading and, for eager schemes, swizzling). */
    public abstract void load();

    /** One preorder traversal; {@code pass} 0 is the first, where the chosen objects are updated. */
    public abstract void traverse(int pass);

    /**
     * The create phase of a create-work-save session (Moss 1992, sections 2 and 5.4.1), instead of {@link #load}, on
     * buffers from {@link PageBuffers#create}: builds the collection of the descriptor's shape in the scheme's
     * in-memory form (no swizzling: store objects in new pages; in-place swizzling: transient objects in buffer
     * format; copy swizzling: Java objects), counting n, p, i, b as it goes. Objects are created in preorder, as
     * {@link CollectionFile#write} places them, so the saved file is laid out like a written one.
     */
    public abstract void create();

    /** The save phase: preparing (unswizzling, or making store objects of new ones) and writing. */
    public final void save() {
        prepare();
        write();
    }

    /** Moss's preparing: unswizzle, copy back or (after {@link #create}) make the store objects. */
    public abstract void prepare();

    /** Moss's writing: the dirty pages back to the file (after {@link #create}: every page). */
    public void write() {
        buffers.writeBack();
    }

    /** The pointer words of a new store object of {@code slots} slots (cached for the shape's two kinds). */
    final int[] pointerWords(int slots) {
        TreeShape sh = buffers.descriptor().shape();
        if (slots == sh.innerSlots()) {
            return innerWords;
        }
        return slots == sh.leafSlots() ? leafWords : CollectionFile.pointerWords(slots);
    }

    /** Writes a header (Moss's object header: sizes, Table 1 state, node number, own oid). */
    static void header(MemorySegment m, long a, int slots, int bytes, byte state, long node, long self) {
        m.set(CollectionFile.SHORT, a, (short) slots);
        m.set(CollectionFile.SHORT, a + 2, (short) bytes);
        m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, a + CollectionFile.STATE, state);
        m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, a + 5, (byte) node);
        m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, a + 6, (byte) (node >>> 8));
        m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, a + 7, (byte) (node >>> 16));
        m.set(CollectionFile.LONG, a + CollectionFile.SELF, self);
    }

    /** Sets an object's bytes to their initial values ({@link TreeShape#initialByte}, as the heap model). */
    static void initBytes(MemorySegment m, long a, int slots, long node, int bytes) {
        long base = a + CollectionFile.HEADER_BYTES + (long) slots * TreeShape.SLOT_BYTES;
        for (int j = 0; j < bytes; j++) {
            m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, base + j, TreeShape.initialByte(node, j));
        }
    }

    /**
     * Counts the objects the session used into the tally after the timed phases, for a scheme that does not see
     * every slot while it runs (no swizzling); the swizzling schemes count as they swizzle and do nothing here.
     */
    public void census() {}
}
