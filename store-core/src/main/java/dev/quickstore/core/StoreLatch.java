package dev.quickstore.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The store latch: a reentrant mutual-exclusion lock taken once per store operation (once per nest of them,
 * {@link OperationNest}), whose uncontended acquire is one compare-and-set and whose release is one release store.
 *
 * <p>Why not {@link java.util.concurrent.locks.ReentrantLock}: its release is a volatile store of its state (on x86
 * a locked instruction, a full fence) and its acquire a compare-and-set plus the owner's store; the latch is taken
 * and released per top-level store operation (a point lookup, an object's creation), and the pair cost 21.5 ns
 * against 9.6 ns for a compare-and-set and a release store on this project's machine (docs/results.md, "The store
 * latch without a fence at its release"). The other waits of a lock (conditions, fairness) are not needed here.
 *
 * <p>Waiting. A thread that finds the latch held spins briefly, then counts itself in {@link #waiting} (an atomic
 * increment: a full fence), queues itself and retries, and parks for at most {@link #MAX_PARK_NANOS} at a time
 * (from {@link #MIN_PARK_NANOS}, doubling). The releaser, after its release store, reads the count and unparks the
 * first queued thread, unless a release unparked it already and it has not woken since. Because the release store is not fenced, the releaser's read of the count may be ordered
 * before its store becomes visible (store-load reordering, allowed by the memory model and by x86): a waiter that
 * counted itself and retried within that window misses its wake-up and wakes by its timeout instead. A wait is
 * therefore never lost, and overstays by at most {@link #MAX_PARK_NANOS}. The latch is not fair: a running thread
 * may take it before a parked one, as with {@code ReentrantLock}'s default.
 *
 * <p>Memory ordering: the acquire is a compare-and-set (volatile), the release a release store of the owner; an
 * acquire that reads the released {@link #FREE} sees every write made under the latch before that release.
 *
 * <p>Invariants (asserted): {@code holds > 0} exactly while {@code owner != FREE}; {@code holds} is read and
 * written by the owner only. {@link #isHeldByCurrentThread} is exact for the calling thread: the owner it reads is
 * either its own last write or another thread's id or {@link #FREE}, never this thread's by mistake.
 */
final class StoreLatch {
    /**
     * Spins (each a {@link Thread#onSpinWait}) before a waiter counts and queues itself. Few: with 128, two threads
     * taking turns on the latch took 136 ns a turn against {@code ReentrantLock}'s 93 (the latch's cache line going
     * back and forth); with 16, 32 ns against 78 ({@code StoreLatchBenchmark}, docs/results.md).
     */
    static final int SPINS = 16;

    /** A waiter's first park, in nanoseconds; each further park doubles it up to {@link #MAX_PARK_NANOS}. */
    static final long MIN_PARK_NANOS = 20_000;

    /** The longest park: the bound by which a wait overstays a release whose wake-up it missed. */
    static final long MAX_PARK_NANOS = 1_000_000;

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup()
                    .findVarHandle(StoreLatch.class, "owner", long.class)
                    .withInvokeExactBehavior();
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The holding thread's {@link Thread#threadId()}, {@link #FREE} when free; written by compare-and-set (acquire)
     * and release store only. An id rather than the {@code Thread}: a primitive compare-and-set has no garbage
     * collector's barriers, and the handle's exact types (enforced) keep every access a plain instruction.
     */
    @SuppressWarnings("unused") // through OWNER
    private long owner;

    /** {@link #owner} when no thread holds the latch (thread ids are positive). */
    private static final long FREE = 0L;

    /** Acquisitions by the owner not yet released (owner only). */
    private int holds;

    /** Threads counted as waiting (queued or about to be); read by the releaser. */
    private final AtomicInteger waiting = new AtomicInteger();

    /** The waiting threads, in arrival order; the releaser unparks the first. */
    private final ConcurrentLinkedQueue<Thread> queue = new ConcurrentLinkedQueue<>();

    /**
     * Whether a releaser has unparked the first waiter since that waiter last woke: a release then unparks nobody
     * (unparking a parked thread is a system call, and a running holder releases many times while its waiter wakes
     * once). Set by the releaser, cleared by a waiter after each park and when it stops waiting (it may take the
     * latch without parking after a release unparked it: left set, the flag would keep the next waiter to its
     * timeouts).
     */
    private final AtomicBoolean wakeSent = new AtomicBoolean();

    /** Takes the latch, waiting as long as it takes; reentrant. Interrupts are kept for the caller, not acted on. */
    void lock() {
        long me = Thread.currentThread().threadId();
        long o = (long) OWNER.getOpaque(this);
        if (o == me) {
            assert holds > 0;
            holds++;
            return;
        }
        if (o != FREE || !(boolean) OWNER.compareAndSet(this, FREE, me)) {
            try {
                await(me, false, 0L);
            } catch (InterruptedException e) {
                throw new AssertionError("an uninterruptible wait was interrupted", e);
            }
        }
        assert holds == 0 : "a free latch with " + holds + " holds";
        holds = 1;
    }

    /**
     * Takes the latch if it is free within {@code timeout}; reentrant.
     *
     * @return whether the latch was taken
     * @throws InterruptedException if the thread is interrupted while it waits (the latch not taken)
     */
    boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
        long me = Thread.currentThread().threadId();
        long o = (long) OWNER.getOpaque(this);
        if (o == me) {
            holds++;
            return true;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if ((o == FREE && (boolean) OWNER.compareAndSet(this, FREE, me))
                || await(me, true, Math.max(1, unit.toNanos(timeout)))) {
            assert holds == 0 : "a free latch with " + holds + " holds";
            holds = 1;
            return true;
        }
        return false;
    }

    /**
     * Releases one hold; the last one frees the latch and wakes the first waiter.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the latch
     */
    void unlock() {
        if ((long) OWNER.getOpaque(this) != Thread.currentThread().threadId()) {
            throw new IllegalMonitorStateException("the store latch is released by a thread that does not hold it: "
                    + Thread.currentThread().getName());
        }
        assert holds > 0;
        if (--holds > 0) {
            return;
        }
        OWNER.setRelease(this, FREE);
        if (waiting.getOpaque() != 0 && !wakeSent.getOpaque() && wakeSent.compareAndSet(false, true)) {
            Thread first = queue.peek();
            if (first != null) {
                LockSupport.unpark(first);
            }
        }
    }

    /** Whether the calling thread holds the latch (exact for the calling thread). */
    boolean isHeldByCurrentThread() {
        return (long) OWNER.getOpaque(this) == Thread.currentThread().threadId();
    }

    /** The calling thread's holds; 0 if it does not hold the latch. */
    int getHoldCount() {
        return isHeldByCurrentThread() ? holds : 0;
    }

    /** Whether a thread waits for the latch (counted after its spins, until it takes the latch or gives up). */
    boolean hasQueuedThreads() {
        return waiting.get() > 0;
    }

    /**
     * Waits until this thread takes the latch (it was held when called); with {@code timed}, at most
     * {@code timeoutNanos}. An uninterruptible wait keeps an interrupt for the caller.
     */
    private boolean await(long me, boolean interruptible, long timeoutNanos) throws InterruptedException {
        boolean timed = timeoutNanos > 0;
        for (int i = 0; i < SPINS; i++) {
            Thread.onSpinWait();
            if ((long) OWNER.getOpaque(this) == FREE && (boolean) OWNER.compareAndSet(this, FREE, me)) {
                return true;
            }
        }
        long deadline = timed ? System.nanoTime() + timeoutNanos : 0L;
        boolean interrupted = false;
        Thread self = Thread.currentThread();
        waiting.incrementAndGet();
        queue.add(self);
        try {
            long park = MIN_PARK_NANOS;
            while (true) {
                if ((boolean) OWNER.compareAndSet(this, FREE, me)) {
                    return true;
                }
                long wait = park;
                if (timed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    wait = Math.min(wait, left);
                }
                LockSupport.parkNanos(this, wait);
                wakeSent.setOpaque(false); // awake: the next release may unpark again
                if (Thread.interrupted()) {
                    if (interruptible) {
                        throw new InterruptedException();
                    }
                    interrupted = true;
                }
                park = Math.min(park * 2, MAX_PARK_NANOS);
            }
        } finally {
            queue.remove(self);
            waiting.decrementAndGet();
            wakeSent.setOpaque(false); // a wake-up sent to this thread, which took the latch or gave up, is spent
            if (interrupted) {
                self.interrupt();
            }
        }
    }
}
