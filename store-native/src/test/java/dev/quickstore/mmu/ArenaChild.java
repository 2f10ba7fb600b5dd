package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Child-JVM workloads for the fault path (run by the tests through {@code dev.quickstore.testkit.ChildJvm}; every fault is a
 * real SIGSEGV on real mprotect'ed memory). Exit 0 and a line "OK scenario ..." on success; any
 * failed check throws, which exits non-zero with the message on stderr.
 */
public final class ArenaChild {
    static final int FS = MappedArena.DEFAULT_FRAME_SIZE;

    private ArenaChild() {}

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory(
                Path.of(System.getProperty("qs.test.tmp", System.getProperty("java.io.tmpdir"))), "arena-");
        try {
            switch (args[0]) {
                case "basics" -> basics(dir);
                case "stress" -> stress(dir, Integer.parseInt(args[1]));
                case "refusals" -> refusals(dir);
                case "enomem" -> enomem(dir);
                case "cards" -> cards(dir);
                case "aliasdirty" -> aliasDirty(dir);
                case "vmareserve" -> vmaReserve(dir);
                default -> throw new IllegalArgumentException(args[0]);
            }
            jvmStillWorks();
            System.out.println("OK " + args[0] + " signalMode=" + SignalHandler.mode());
        } finally {
            try (var s = Files.walk(dir)) {
                for (Path p :
                        s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * {@code -Dqs.test.minorFaults=true}: the arena's cold loads by userfaultfd minor faults ({@link
     * FrameLoading#selectMinorFaults}), selected before any frame is resident; prints the selection's result.
     */
    static void selectMinorFaults(MappedArena a) {
        if (Boolean.getBoolean("qs.test.minorFaults")) {
            int rc = a.loading().selectMinorFaults();
            System.out.println("minorFaults=" + rc);
            check(a.loading().minorFaults() == (rc == 0), "minor faults on exactly when selected: " + rc);
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static long off(long frame, int word) {
        return frame * FS + 8L * word;
    }

    // ---- the store's alias-only dirtying (qs_mark_dirty_alias) ---------------------------------------------

    static void aliasDirty(Path dir) throws Exception {
        Path file = PageFiles.write(dir.resolve("pages"), 16, FS);
        try (MappedArena a = MappedArena.open(16L * FS, FS, 0)) {
            MemorySegment v = a.view();
            int src = a.sources().addFileSource(file, 0);
            a.reserve(0, 16, src, 0);
            a.transaction(true);
            check(v.get(JAVA_LONG, off(2, 3)) == PageFiles.word(2, 3), "read fault value");
            check(
                    a.preimages().markDirtyAliasOnly(2) && a.state(2) == FrameState.DIRTY,
                    "alias-only dirtying captures");
            check(
                    a.preimages().preimage(2).get(JAVA_LONG, 24) == PageFiles.word(2, 3),
                    "pre-image holds the old value");
            check(!a.preimages().markDirtyAliasOnly(2), "dirty already: nothing captured twice");
            // the view stayed read-only: the application's first store faults once (it opens the view, no second
            // pre-image, not taken for spurious) and lands; the next store does not fault
            FaultCounters c = a.counters();
            v.set(JAVA_LONG, off(2, 3), 99L);
            FaultCounters d = a.counters();
            check(
                    d.referenceFaults() == c.referenceFaults() + 1
                            && d.writeFaults() == c.writeFaults()
                            && d.spuriousFaults() == c.spuriousFaults(),
                    "the first store through the view faults once and opens it: " + c + " -> " + d);
            check(v.get(JAVA_LONG, off(2, 3)) == 99L, "the store landed");
            check(
                    a.preimages().preimage(2).get(JAVA_LONG, 24) == PageFiles.word(2, 3),
                    "the pre-image is the first one");
            v.set(JAVA_LONG, off(2, 4), 98L);
            check(a.counters().referenceFaults() == d.referenceFaults(), "the view is open now");
            // markDirty of an alias-only dirty frame (a node page reused for objects) opens the view: no fault
            check(v.get(JAVA_LONG, off(3, 2)) == PageFiles.word(3, 2), "frame 3 read");
            check(a.preimages().markDirtyAliasOnly(3), "frame 3 alias-only dirty");
            check(!a.preimages().markDirty(3), "markDirty of a dirty frame captures nothing");
            long refs = a.counters().referenceFaults();
            v.set(JAVA_LONG, off(3, 1), 7L);
            check(a.counters().referenceFaults() == refs, "markDirty opened the view");
            // commit: both clean and write-protected again; the next store is a write fault with a new pre-image
            check(a.preimages().markCleanList(new long[] {2, 3}, 0, 2, 16) == 2, "two cleaned");
            long writes = a.counters().writeFaults();
            v.set(JAVA_LONG, off(2, 5), 1L);
            v.set(JAVA_LONG, off(3, 5), 1L);
            check(
                    a.state(2) == FrameState.DIRTY
                            && a.counters().writeFaults() == writes + 2
                            && a.preimages().preimage(2).get(JAVA_LONG, 24) == 99L,
                    "write-protected after commit");
            // an alias-only dirty frame cleaned on its own (qs_mark_clean) is write-protected too
            check(v.get(JAVA_LONG, off(4, 2)) == PageFiles.word(4, 2), "frame 4 read");
            check(a.preimages().markDirtyAliasOnly(4) && a.preimages().markClean(4), "frame 4 dirtied and cleaned");
            writes = a.counters().writeFaults();
            v.set(JAVA_LONG, off(4, 1), 1L);
            check(a.state(4) == FrameState.DIRTY && a.counters().writeFaults() == writes + 1, "frame 4 faults again");
        }
    }

    // ---- card marking (qs_cards.c) -------------------------------------------------------------------

    static void cards(Path dir) throws Exception {
        Path file = PageFiles.write(dir.resolve("pages"), 64, FS);
        try (MappedArena a = MappedArena.open(64L * FS, FS, 0)) {
            MemorySegment v = a.view();
            int src = a.sources().addFileSource(file, 0);
            a.reserve(0, 64, src, 0);
            a.cardTable().select(9);
            check(
                    a.cardTable().shift() == 9 && a.cardTable().bytes().byteSize() == 64L * FS / 512,
                    "card table covers the arena");
            a.transaction(true);
            check(v.get(JAVA_LONG, off(3, 7)) == PageFiles.word(3, 7), "read fault value");
            check(a.state(3) == FrameState.CLEAN, "clean after read");
            // the barrier's slow path, then the store: no write fault, pre-image captured, card marked
            check(a.cardTable().mark(off(3, 7)) == 1 && a.state(3) == FrameState.DIRTY, "first mark dirties the frame");
            v.set(JAVA_LONG, off(3, 7), 42L);
            check(
                    a.preimages().preimage(3).get(JAVA_LONG, 56) == PageFiles.word(3, 7),
                    "pre-image holds the old value");
            check(a.cardTable().bytes().get(JAVA_BYTE, off(3, 7) >>> 9) == 1, "card marked");
            check(
                    a.cardTable().mark(off(3, 700)) == 0
                            && a.cardTable().bytes().get(JAVA_BYTE, off(3, 700) >>> 9) == 1,
                    "second card");
            check(!a.cardTable().dirtiedWhole(3), "marked through the barrier only");
            // a clean resident frame is writable: a store without the barrier does not fault
            v.get(JAVA_LONG, off(5, 0));
            v.set(JAVA_LONG, off(5, 1), 7L);
            check(
                    a.state(5) == FrameState.CLEAN && a.preimages().preimage(5).equals(MemorySegment.NULL),
                    "undetected store");
            // the store's own write: whole-page diff
            v.get(JAVA_LONG, off(6, 0));
            check(a.preimages().markDirty(6) && a.cardTable().dirtiedWhole(6), "markDirty sets WHOLE");
            // clean: cards cleared, frame stays writable (no write fault on the next store either)
            check(a.preimages().markClean(3) && a.state(3) == FrameState.CLEAN, "mark clean");
            check(a.cardTable().bytes().get(JAVA_BYTE, off(3, 7) >>> 9) == 0, "cards cleared with the pre-image");
            check(a.preimages().markClean(6) && !a.cardTable().dirtiedWhole(6), "WHOLE cleared");
            v.set(JAVA_LONG, off(3, 8), 43L);
            check(a.state(3) == FrameState.CLEAN, "still writable after commit");
            // not resident: -1, the caller touches the page and retries
            check(a.cardTable().mark(off(20, 0)) == -1, "not resident");
            v.get(JAVA_LONG, off(20, 0));
            check(a.cardTable().mark(off(20, 0)) == 1, "resident after touching");
            // the clock's reprotection: PROT_NONE, the reference fault restores READ|WRITE for a clean frame
            a.preimages().markClean(20);
            check(a.reprotectAll() > 0 && a.reprotected(5), "reprotected");
            v.get(JAVA_LONG, off(5, 2));
            check(!a.reprotected(5), "reference fault");
            v.set(JAVA_LONG, off(5, 2), 8L);
            check(a.state(5) == FrameState.CLEAN, "the reference fault made the clean frame writable");
            // a store without the barrier to an inaccessible frame: a write fault, diffed whole at commit
            check(a.reprotected(3), "frame 3 reprotected");
            v.set(JAVA_LONG, off(3, 9), 44L);
            check(
                    a.state(3) == FrameState.DIRTY && a.cardTable().dirtiedWhole(3),
                    "write fault in card mode: whole page");
            // evicting a dirty frame clears its cards too
            check(a.cardTable().mark(off(9, 0)) == -1, "frame 9 not resident");
            v.get(JAVA_LONG, off(9, 0));
            a.cardTable().mark(off(9, 0));
            a.evict(9, 1, true);
            check(a.cardTable().bytes().get(JAVA_BYTE, off(9, 0) >>> 9) == 0, "eviction cleared the card");
            FaultCounters c = a.counters();
            check(c.writeFaults() == 1 && c.referenceFaults() == 1, "only the barrier-less store faulted: " + c);
            try {
                a.cardTable().select(9);
                check(false, "card marking set twice");
            } catch (ArenaException expected) {
                // EBUSY
            }
        }
    }

    // ---- basics ---------------------------------------------------------------------------------

    static void basics(Path dir) throws Exception {
        Path file = PageFiles.write(dir.resolve("pages"), 64, FS);
        long preferred = 0x5000_0000_0000L;
        try (MappedArena a = MappedArena.open(256L * FS, FS, preferred)) {
            check(a.atPreferredBase() && a.base() == preferred, "placed at the preferred base");
            try (MappedArena b = MappedArena.open(16L * FS, FS, preferred)) {
                check(!b.atPreferredBase() && b.base() != preferred, "second arena placed elsewhere");
            }
            MemorySegment v = a.view();
            int src = a.sources().addFileSource(file, 0);
            a.reserve(0, 64, src, 0);
            check(a.state(3) == FrameState.RESERVED && a.page(3) == 3, "reserved");
            a.transaction(true);
            check(v.get(JAVA_LONG, off(3, 7)) == PageFiles.word(3, 7), "read fault value");
            check(a.state(3) == FrameState.CLEAN, "clean after read");
            v.set(JAVA_LONG, off(3, 7), 42L);
            check(a.state(3) == FrameState.DIRTY && v.get(JAVA_LONG, off(3, 7)) == 42L, "dirty after write");
            check(
                    a.preimages().preimage(3).get(JAVA_LONG, 56) == PageFiles.word(3, 7),
                    "pre-image holds the old value");
            check(a.alias().get(JAVA_LONG, off(3, 7)) == 42L, "alias sees the write");
            check(Arrays.equals(a.preimages().dirtyFrames(), new long[] {3}), "dirty frames");
            check(
                    a.preimages().markClean(3)
                            && a.state(3) == FrameState.CLEAN
                            && a.preimages().preimage(3).equals(MemorySegment.NULL),
                    "mark clean");
            check(a.evict(0, 64, false) == 1 && a.state(3) == FrameState.RESERVED, "evict");
            check(v.get(JAVA_LONG, off(3, 7)) == PageFiles.word(3, 7) && a.loads(3) == 2, "re-read after evict");
            check(a.reprotectAll() == 1 && a.reprotected(3), "reprotect all");
            check(v.get(JAVA_LONG, off(3, 8)) == PageFiles.word(3, 8) && !a.reprotected(3), "reference fault");
            a.loading().prefetch(9);
            check(a.state(9) == FrameState.CLEAN, "prefetch");
            FaultCounters c = a.counters();
            check(
                    c.readFaults() == 2
                            && c.writeFaults() == 1
                            && c.referenceFaults() == 1
                            && c.evictions() == 1
                            && c.preimageBytes() == FS
                            && c.bytesRead() == 3L * FS
                            && c.handlerNanos() > 0,
                    "counters " + c);
            // the store's own access resolved like a fault (qs_touch, ABI 8): load, reference fault, pre-image
            a.loading().touch(11, false);
            check(a.state(11) == FrameState.CLEAN && a.loads(11) == 1, "touch loads a reserved frame");
            check(a.alias().get(JAVA_LONG, off(11, 3)) == PageFiles.word(11, 3), "touched bytes");
            a.reprotectAll();
            check(a.reprotected(11), "reprotected");
            a.loading().touch(11, false);
            check(!a.reprotected(11) && a.loads(11) == 1, "touch takes the reference fault, no reload");
            a.loading().touch(11, true);
            check(
                    a.state(11) == FrameState.DIRTY
                            && a.preimages().preimage(11).get(JAVA_LONG, 24) == PageFiles.word(11, 3),
                    "touch for write captures the pre-image");
            a.loading().touch(11, true);
            check(a.state(11) == FrameState.DIRTY, "touching a dirty frame again changes nothing");
            check(a.preimages().markClean(11), "clean again");
            // commit's reprotection (qs_mark_clean_list): one mprotect per run of listed frames and the clean
            // read-only frames between them; a frame that is not resident is never covered
            for (int f = 40; f < 46; f++) {
                if (f != 43) {
                    v.set(JAVA_LONG, off(f, 1), f);
                } else {
                    check(v.get(JAVA_LONG, off(f, 1)) == PageFiles.word(f, 1), "frame 43 read");
                }
            }
            long writes = a.counters().writeFaults();
            check(
                    a.preimages().markCleanList(new long[] {40, 41, 42, 44, 45}, 0, 5, 16) == 5,
                    "five dirty frames cleaned");
            for (int f = 40; f < 46; f++) {
                check(
                        a.state(f) == FrameState.CLEAN
                                && a.preimages().preimage(f).equals(MemorySegment.NULL),
                        "clean " + f);
            }
            v.set(JAVA_LONG, off(41, 2), 7L);
            v.set(JAVA_LONG, off(43, 2), 7L);
            check(
                    a.state(41) == FrameState.DIRTY
                            && a.state(43) == FrameState.DIRTY
                            && a.counters().writeFaults() == writes + 2,
                    "write-protected again, the bridge too: the next stores fault");
            v.set(JAVA_LONG, off(50, 1), 1L);
            v.set(JAVA_LONG, off(52, 1), 1L); // frame 51 stays RESERVED between them
            check(a.preimages().markCleanList(new long[] {41, 43, 50, 52}, 0, 4, 16) == 4, "four cleaned");
            long reads = a.counters().readFaults();
            check(a.state(51) == FrameState.RESERVED, "51 not resident");
            check(
                    v.get(JAVA_LONG, off(51, 1)) == PageFiles.word(51, 1)
                            && a.counters().readFaults() == reads + 1,
                    "a frame that is not resident between two runs still faults");
            check(a.preimages().markCleanList(new long[] {40, 41}, 0, 2, 16) == 0, "nothing dirty left");
            try {
                v.get(JAVA_LONG, 256L * FS);
                check(false, "view is bounded");
            } catch (IndexOutOfBoundsException expected) {
                // the application view is bounded to the arena
            }
            // bulk copy through the view (faults inside the JDK's copy code)
            long[] dst = new long[FS / 8];
            MemorySegment.copy(v, JAVA_LONG, 20L * FS, dst, 0, dst.length);
            check(dst[5] == PageFiles.word(20, 5) && dst[1023] == PageFiles.word(20, 1023), "bulk copy");
            // pointer translation through the Java API
            int t = a.translation()
                    .addTable(new long[] {PageFiles.word(30, 0)}, new long[] {PageFiles.word(30, 512)}, new long[] {
                        1_000_000_000L
                    });
            BitSet ptrs = new BitSet();
            ptrs.set(10);
            ptrs.set(600);
            a.translation().setRelocation(30, ptrs, t);
            check(v.get(JAVA_LONG, off(30, 10)) == PageFiles.word(30, 10) + 1_000_000_000L, "relocated pointer");
            check(v.get(JAVA_LONG, off(30, 600)) == PageFiles.word(30, 600), "pointer outside every range unchanged");
            check(v.get(JAVA_LONG, off(30, 11)) == PageFiles.word(30, 11), "non-pointer word unchanged");
            // capacity: 8 frames, the fault path evicts unreferenced ones or overcommits
            a.evict(0, 64, true);
            a.budgets(8, 0);
            for (int f = 0; f < 8; f++) {
                v.get(JAVA_LONG, off(f, 1));
            }
            a.reprotectAll();
            for (int f = 40; f < 48; f++) {
                v.get(JAVA_LONG, off(f, 1));
            }
            c = a.counters();
            check(c.faultPathEvictions() == 8 && a.residentFrames() == 8, "fault-path evictions " + c);
            v.get(JAVA_LONG, off(50, 1));
            check(a.counters().overcommits() == 1 && a.pressure() == 1, "overcommit");
            check(!a.refusals().hasPending(), "nothing refused");
            a.refusals().checkPending();
        }
        check(SignalHandler.mode() != SignalHandler.Mode.NONE, "handler stays installed after close");
        SignalHandler.install();
        if (SignalHandler.mode() == SignalHandler.Mode.INTERPOSED) {
            check(SignalHandler.uninstall() && !SignalHandler.uninstall(), "uninstall idempotent");
            check(SignalHandler.mode() == SignalHandler.Mode.NONE, "uninstalled");
            jvmStillWorks();
            SignalHandler.install();
        }
        check(SignalHandler.forwarded() >= 0, "forwarded counter");
    }

    // ---- stress -------------------------------------------------------------------------------------

    /**
     * Readers (loads and bulk copies, half on 8 hot frames) and a writer (stores of the expected
     * value, so contents stay checkable, plus markClean) fault concurrently while an evictor evicts
     * runs and reprotects the whole arena and an allocator churns the heap. Fault-path eviction is
     * forced by a small resident budget.
     */
    static void stress(Path dir, int seconds) throws Exception {
        int frames = 512;
        Path file = PageFiles.write(dir.resolve("pages"), frames, FS);
        try (MappedArena a = MappedArena.open((long) frames * FS)) {
            selectMinorFaults(a);
            int src = a.sources().addFileSource(file, 0);
            a.reserve(0, frames, src, 0);
            a.transaction(true);
            a.budgets(128, 0);
            MemorySegment v = a.view();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            AtomicReference<String> failure = new AtomicReference<>();
            AtomicLong ops = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                long seed = r;
                threads.add(Thread.ofPlatform().name("reader-" + r).start(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    long[] buf = new long[FS / 8];
                    long n = 0;
                    while (System.nanoTime() < deadline && failure.get() == null) {
                        for (int i = 0; i < 256; i++) {
                            long f = rnd.nextBoolean() ? rnd.nextInt(8) : rnd.nextInt(frames);
                            if ((i & 31) == 0) {
                                MemorySegment.copy(v, JAVA_LONG, f * FS, buf, 0, buf.length);
                                int k = 1 + rnd.nextInt(FS / 8 - 1);
                                if (buf[k] != PageFiles.word(f, k)) {
                                    failure.compareAndSet(null, "copy frame " + f + " word " + k + " = " + buf[k]);
                                }
                            } else {
                                int k = 1 + rnd.nextInt(FS / 8 - 1);
                                long got = v.get(JAVA_LONG, off(f, k));
                                if (got != PageFiles.word(f, k)) {
                                    failure.compareAndSet(null, "load frame " + f + " word " + k + " = " + got);
                                }
                            }
                            n++;
                        }
                        if (a.refusals().hasPending()) {
                            failure.compareAndSet(null, "unexpected refusal");
                        }
                    }
                    ops.addAndGet(n);
                }));
            }
            threads.add(Thread.ofPlatform().name("writer").start(() -> {
                SplittableRandom rnd = new SplittableRandom(99);
                while (System.nanoTime() < deadline && failure.get() == null) {
                    for (int i = 0; i < 64; i++) {
                        long f = 256 + rnd.nextInt(frames - 256);
                        int k = 1 + rnd.nextInt(FS / 8 - 1);
                        v.set(JAVA_LONG, off(f, k), PageFiles.word(f, k));
                    }
                    for (long f : a.preimages().dirtyFrames()) {
                        a.preimages().markClean(f);
                    }
                }
            }));
            threads.add(Thread.ofPlatform().name("evictor").start(() -> {
                SplittableRandom rnd = new SplittableRandom(7);
                long round = 0;
                while (System.nanoTime() < deadline && failure.get() == null) {
                    round++;
                    if (round % 50 == 0) {
                        a.reprotectAll();
                    } else if (round % 200 == 1) {
                        a.evict(0, frames, false);
                    } else {
                        a.evict(rnd.nextInt(frames - 16), 16, false);
                    }
                    Thread.onSpinWait();
                }
            }));
            threads.add(Thread.ofPlatform().name("allocator").start(() -> {
                SplittableRandom rnd = new SplittableRandom(3);
                Object[] keep = new Object[4096];
                long sum = 0;
                while (System.nanoTime() < deadline && failure.get() == null) {
                    byte[] b = new byte[64 + rnd.nextInt(32 * 1024)];
                    keep[rnd.nextInt(keep.length)] = b;
                    sum += b.length;
                }
                if (sum == 42) {
                    System.out.println("unlikely");
                }
            }));
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(seconds + 60));
                check(!t.isAlive(), "thread " + t.getName() + " did not finish (hang)");
            }
            check(failure.get() == null, "wrong value: " + failure.get());
            a.refusals().checkPending();
            FaultCounters c = a.counters();
            check(
                    c.readFaults() > 0 && c.writeFaults() > 0 && c.evictions() > 0 && c.referenceFaults() > 0,
                    "counters " + c);
            System.out.println("stress ops=" + ops.get() + " " + c);
        }
    }

    // ---- refusals ---------------------------------------------------------------------------------

    /** The accessors whose compiled forms (C1/C2 with -Xbatch) meet refused faults. */
    static final class Access {
        private Access() {}

        static long load(MemorySegment s, long off) {
            return s.get(JAVA_LONG, off);
        }

        static void store(MemorySegment s, long off, long value) {
            s.set(JAVA_LONG, off, value);
        }

        static long copy(MemorySegment s, long off, long[] dst) {
            MemorySegment.copy(s, JAVA_LONG, off, dst, 0, dst.length);
            long x = 0;
            for (long d : dst) {
                x |= d;
            }
            return x;
        }
    }

    enum Kind {
        LOAD,
        STORE,
        COPY
    }

    static void refusals(Path dir) throws Exception {
        Path file = PageFiles.write(dir.resolve("pages"), 64, FS);
        PageFiles.corrupt(file, 5, FS);
        try (MappedArena a = MappedArena.open(256L * FS)) {
            selectMinorFaults(a);
            MemorySegment v = a.view();
            int src = a.sources().addFileSource(file, 0);
            a.reserve(0, 64, src, 0);
            a.reserve(100, 4, src, 100); // beyond the end of the file: I/O error
            a.transaction(true);
            // warm the accessors on frames that never fault again (1 clean, 2 dirty)
            long[] dst = new long[64];
            long sink = 0;
            v.set(JAVA_LONG, off(2, 1), PageFiles.word(2, 1));
            for (int i = 0; i < 30_000; i++) {
                sink += Access.load(v, off(1, 1 + (i & 511)));
                Access.store(v, off(2, 1 + (i & 511)), PageFiles.word(2, 1 + (i & 511)));
                sink += Access.copy(v, off(1, 1), dst);
            }
            System.out.println("warm " + sink);
            System.out.println("MARK refusals-begin");
            int cases = 0;
            for (Kind kind : Kind.values()) {
                cases += expectRefusal(a, kind, 5, 5, RefusalReason.CHECKSUM, () -> {});
                cases += expectRefusal(a, kind, 101, 101, RefusalReason.IO, () -> {});
                cases += expectRefusal(a, kind, 200, 0, RefusalReason.NOT_RESERVED, () -> {});
                cases += expectRefusal(a, kind, 7, 7, RefusalReason.RELEASED, () -> a.release(7, 1));
                cases += expectRefusal(a, kind, 10, 10, RefusalReason.NO_TRANSACTION, () -> a.transaction(false));
                a.transaction(true);
                a.reserve(7, 1, src, 7);
            }
            // a refused store on a resident clean frame outside a transaction: private copy, bytes intact
            check(Access.load(v, off(12, 3)) == PageFiles.word(12, 3), "resident");
            a.transaction(false);
            Access.store(v, off(12, 3), -1L);
            check(
                    Access.load(v, off(12, 3)) == -1L && Access.load(v, off(12, 4)) == PageFiles.word(12, 4),
                    "refused store lands on a private copy");
            check(
                    a.alias().get(JAVA_LONG, off(12, 3)) == PageFiles.word(12, 3),
                    "refused store never reaches the store");
            FaultRefusedException e = expectThrown(a);
            check(e.reason() == RefusalReason.NO_TRANSACTION && e.frame() == 12, "store refusal " + e.getMessage());
            a.transaction(true);
            a.refused().resetRefused(12, 1);
            check(Access.load(v, off(12, 3)) == PageFiles.word(12, 3), "reset restores the page");
            // a refusal on another thread is delivered to whoever checks, once
            Thread t = Thread.ofPlatform().start(() -> Access.load(v, off(201, 0)));
            t.join(10_000);
            check(!t.isAlive(), "other thread finished");
            e = expectThrown(a);
            check(
                    !e.faultedOnThisThread() && e.reason() == RefusalReason.NOT_RESERVED,
                    "other thread " + e.getMessage());
            check(!a.refusals().hasPending(), "thrown once");
            a.refused().resetRefused(0, 256);
            // afterwards everything works again
            for (int f = 0; f < 64; f++) {
                if (f != 5) {
                    check(Access.load(v, off(f, 9)) == PageFiles.word(f, 9), "frame " + f + " after refusals");
                }
            }
            System.gc();
            FaultCounters c = a.counters();
            check(c.refusals() == cases + 2, "refusal counter " + c.refusals() + " vs " + (cases + 2));
            System.out.println("refusal cases=" + cases + " " + c);
        }
    }

    interface Setup {
        void run() throws Exception;
    }

    static int expectRefusal(MappedArena a, Kind kind, long frame, long page, RefusalReason reason, Setup setup)
            throws Exception {
        MemorySegment v = a.view();
        setup.run();
        check(a.state(frame) != FrameState.CLEAN, "frame " + frame + " not resident before the case");
        long offset = off(frame, 3);
        long[] dst = new long[64];
        switch (kind) {
            case LOAD -> check(Access.load(v, offset) == 0, kind + " " + reason + " reads zero");
            case STORE -> {
                Access.store(v, offset, 12345L);
                check(a.alias().get(JAVA_LONG, offset) != 12345L, "refused store does not reach the alias view");
            }
            case COPY -> check(Access.copy(v, offset, dst) == 0, kind + " " + reason + " copies zeros");
        }
        FaultRefusedException e = expectThrown(a);
        check(e.reason() == reason, kind + ": expected " + reason + " got " + e.getMessage());
        check(
                e.frame() == frame && e.page() == page && a.frameOf(e.address()) == frame,
                kind + " location " + e.getMessage());
        check(kind == Kind.COPY || e.address() == a.base() + offset, kind + " exact address " + e.getMessage());
        check(e.faultedOnThisThread() && e.nativeThreadId() == MappedArena.nativeThreadId(), "this thread");
        check(e.getMessage().contains("page " + page) && e.getMessage().contains(reason.description()), "message");
        check(a.state(frame) == FrameState.REFUSED, "frame refused");
        check(!a.refusals().hasPending(), "pending cleared");
        a.refusals().checkPending(); // nothing more
        check(a.refused().resetRefused(frame, 1) == 1, "reset");
        System.out.println("refused " + kind + " " + reason + ": " + e.getMessage());
        return 1;
    }

    static FaultRefusedException expectThrown(MappedArena a) {
        try {
            a.refusals().checkPending();
        } catch (FaultRefusedException e) {
            return e;
        }
        throw new AssertionError("checkPending() did not throw");
    }

    // ---- ENOMEM -----------------------------------------------------------------------------------

    /**
     * Creates alternating protection islands with prefetch() until mprotect fails with ENOMEM, checks
     * the message, then shows that a fault at the limit still succeeds (the fault path collapses
     * islands) and that reprotectAll() gives the mappings back.
     */
    static void enomem(Path dir) throws Exception {
        long limit = Long.parseLong(ArenaException.maxMapCount());
        int fs = 4096;
        long frames = limit + 8192;
        Path file = dir.resolve("sparse");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(frames * fs); // all-zero pages: "never written", valid
        }
        try (MappedArena a = MappedArena.open(frames * fs, fs, 0)) {
            int src = a.sources().addFileSource(file, 0);
            a.reserve(0, frames, src, 0);
            a.transaction(true);
            long islands = 0;
            ArenaException failure = null;
            for (long f = 0; f < frames; f += 2) {
                try {
                    a.loading().prefetch(f);
                    islands++;
                } catch (ArenaException e) {
                    failure = e;
                    break;
                }
            }
            check(failure != null, "no ENOMEM after " + islands + " islands (vm.max_map_count=" + limit + ")");
            check(
                    failure.errno() == ArenaException.ENOMEM
                            && failure.getMessage().contains("vm.max_map_count"),
                    "message: " + failure.getMessage());
            System.out.println("ENOMEM after " + islands + " islands: " + failure.getMessage());
            // a fault at the limit: not adjacent to an island, so it needs a new mapping
            long target = 2 * islands + 3;
            check(a.view().get(JAVA_LONG, target * fs + 8) == 0, "fault at the limit reads the page");
            check(!a.refusals().hasPending(), "fault at the limit was not refused");
            check(a.counters().vmaCollapses() > 0, "fault path collapsed islands");
            long resident = a.reprotectAll();
            check(resident >= islands, "reprotected " + resident);
            for (long f = 0; f < 1000; f += 2) {
                a.loading().prefetch(f);
            }
            System.out.println(
                    "islands=" + islands + " collapses=" + a.counters().vmaCollapses());
        }
    }

    /**
     * The refusal path at the mapping limit, made deterministic: the next scratch mappings fail with
     * ENOMEM (test hook) as they do at vm.max_map_count. Without the VMA reserve the handler had to forward
     * the signal and the JVM died; with it the refused access reads zeros, the refusal arrives as a typed
     * exception, the reserve gave pages back and is refilled when the frame is reset.
     */
    static void vmaReserve(Path dir) throws Exception {
        int fs = 4096;
        Path file = dir.resolve("reserve");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(64L * fs);
        }
        try (MappedArena a = MappedArena.open(64L * fs, fs, 0)) {
            int src = a.sources().addFileSource(file, 0);
            a.reserve(0, 64, src, 0);
            int full = a.refused().vmaReserve();
            check(full == 32, "reserve at open " + full);
            a.transaction(false); // every access is refused (no transaction)
            a.refused().failScratchMappings(3); // the copy-on-write, the zero-page and the post-collapse attempt fail
            long offset = 10L * fs + 24;
            check(Access.load(a.view(), offset) == 0, "refused load reads zero");
            FaultRefusedException e = expectThrown(a);
            check(e.reason() == RefusalReason.NO_TRANSACTION, "reason " + e.getMessage());
            check(e.frame() == 10, "frame " + e.getMessage());
            int left = a.refused().vmaReserve();
            check(left < full, "reserve used: " + left + " of " + full);
            check(a.refused().resetRefused(10, 1) == 1, "reset");
            check(
                    a.refused().vmaReserve() == full,
                    "reserve refilled: " + a.refused().vmaReserve());
            a.transaction(true);
            check(a.view().get(JAVA_LONG, offset) == 0, "page loads after the reset");
            System.out.println(
                    "vma reserve " + full + " -> " + left + " -> " + a.refused().vmaReserve());
        }
    }

    // ---- the JVM's own faults ------------------------------------------------------------------------

    static int depth;

    static void recurse() {
        depth++;
        recurse();
    }

    static int hash(Object o) {
        return o.hashCode();
    }

    /** NullPointerException (implicit null checks, after warm-up compiled) and StackOverflowError. */
    static void jvmStillWorks() {
        Object o = new Object();
        long s = 0;
        for (int i = 0; i < 50_000; i++) {
            s += hash(o);
        }
        try {
            hash(null);
            throw new AssertionError("no NPE");
        } catch (NullPointerException expected) {
            s++;
        }
        try {
            recurse();
            throw new AssertionError("no SOE");
        } catch (StackOverflowError expected) {
            s += depth;
        }
        System.gc();
        check(s != 0, "jvm works");
    }
}
