package dev.quickstore.lab.swizzle;

import java.lang.foreign.MemorySegment;

/**
 * One load-work-save session of Moss's application model (Moss 1992, section 2) under one scheme: {@link #load}
 * (eager schemes read and swizzle the whole collection; lazy ones only find the root), {@link #traverse} once per
 * visit (lazy schemes load and swizzle on the way), {@link #save} (unswizzle, write the dirty pages back). The three
 * mechanisms are {@link NoSwizzling}, {@link InPlaceSwizzling} and {@link CopySwizzling}; {@link Strategy} names the
 * five schemes.
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

    SwizzleSession(PageBuffers buffers, Workload work, Tally tally) {
        this.buffers = buffers;
        this.m = buffers.memory();
        this.work = work;
        this.tally = tally;
        this.leafFrom = 1L << (buffers.descriptor().shape().height() - 1);
        this.skip = work.skip();
    }

    /** The load phase (Moss's reading and, for eager schemes, swizzling). */
    public abstract void load();

    /** One preorder traversal; {@code pass} 0 is the first, where the chosen objects are updated. */
    public abstract void traverse(int pass);

    /** The save phase: unswizzling (Moss's preparing) and writing the dirty pages. */
    public abstract void save();

    /**
     * Counts the objects the session used into the tally after the timed phases, for a scheme that does not see
     * every slot while it runs (no swizzling); the swizzling schemes count as they swizzle and do nothing here.
     */
    public void census() {}
}
