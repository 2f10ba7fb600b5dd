package dev.quickstore.core.buffer;

import dev.quickstore.mmu.MappedArena;

/**
 * Allocates the arena memory of the frames a freshly opened store is about to load, on a background thread, so
 * that their cold faults do not (docs/native.md "When the control plane should call populate()").
 *
 * <p>A new arena sits on a new memfd that holds no memory. Its first load into a frame allocates and zeroes the
 * frame's shared memory inside the fault's {@code pread}: 43 % of a cold fault's CPU in the breakdown of
 * docs/results.md "Cold path (issue 13)" (two minor faults in the copy, {@code shmem_alloc_and_add_folio},
 * {@code clear_page}). The fault path must not allocate ahead by itself (it would stall safepoints for as long),
 * so the control plane does it ahead of the faults: this thread calls {@link
 * dev.quickstore.mmu.FrameLoading#allocate} over frames {@code [0, frames)} in runs of {@link #RUN} frames, in page order, from the moment the store is opened. A
 * fault that reaches a frame first allocates its memory itself, as before; allocating changes no bytes and no
 * frame states, so the two never conflict (qs_frames.c, {@code qs_allocate}). It is {@code fallocate} on the
 * memfd, not {@link dev.quickstore.mmu.FrameLoading#populate}'s {@code MADV_POPULATE_WRITE}: that one holds the
 * address space's lock for reading while it works, and every concurrent fault's {@code mprotect} (which needs it for writing)
 * waited behind it - on OO7 medium, whose operations started while 4,096 frames were being populated, the cold
 * T6 and Q5 handler times doubled or tripled (docs/results.md). The price is one minor fault per frame in the
 * load's copy to the alias view, which finds the memory allocated. This is the prefetching of
 * QuickStore's section 3 moved one level down: the pages are not read ahead (that is I/O the operation may not
 * need), only the memory they will be read into is made ready.
 *
 * <p>Cost and bound: the same ≈5 µs of kernel work per frame, on another thread, and memory for at most
 * {@code frames} frames, which the store bounds by the buffer pool's capacity and the volume's size. Off with
 * {@code -Dqs.populate=0}.
 *
 * <p>Invariant: after {@link #close} returns, the thread has ended, so the arena may be unmapped.
 */
final class ArenaPopulator implements AutoCloseable {

    /** Frames per {@code allocate} call: a fraction of a millisecond of work, the longest {@link #close} waits. */
    static final int RUN = 64;

    /**
     * The most frames a store populates at open (system property {@code qs.populate}; 0 = off); the store also
     * bounds it by its buffer pool's capacity and its volume's page count.
     */
    static final long LIMIT = Long.getLong("qs.populate", Long.MAX_VALUE);

    private final MappedArena arena;
    private final long frames;
    private final Thread thread;
    private volatile boolean stopped;
    private volatile long populated;
    private volatile RuntimeException failure;

    private ArenaPopulator(MappedArena arena, long frames, String name) {
        this.arena = arena;
        this.frames = frames;
        this.thread = new Thread(this::run, "qs-populate " + name);
        thread.setDaemon(true);
    }

    /** Starts populating frames {@code [0, frames)} of {@code arena}; {@code name} names the thread. */
    static ArenaPopulator start(MappedArena arena, long frames, String name) {
        if (frames < 0) {
            throw new IllegalArgumentException("frames " + frames + " < 0");
        }
        ArenaPopulator p = new ArenaPopulator(arena, frames, name);
        p.thread.start();
        return p;
    }

    private void run() {
        try {
            for (long first = 0; first < frames && !stopped; first += RUN) {
                long n = Math.min(RUN, frames - first);
                arena.loading().allocate(first, n);
                populated = first + n;
            }
        } catch (RuntimeException e) {
            failure = e; // an optimisation only: the faults allocate what was not populated
        }
    }

    /** Frames populated so far (all {@code frames} once the thread is done). */
    long populated() {
        return populated;
    }

    /** The failure that ended the thread early, or null. */
    RuntimeException failure() {
        return failure;
    }

    /** Waits for the thread to end (tests); false if it is still running after {@code millis}. */
    boolean awaitDone(long millis) throws InterruptedException {
        thread.join(millis);
        return !thread.isAlive();
    }

    /** Stops the thread after its current run and waits for it: the arena may be closed afterwards. */
    @Override
    public void close() {
        stopped = true;
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true; // the arena must not be unmapped under the thread: wait on
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        assert !thread.isAlive();
    }
}
