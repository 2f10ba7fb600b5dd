package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.KernelTracking;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Page-local moves end to end ({@code MoveSearch}, REDO records of version 3): transactions insert and
 * delete bytes inside a large object spanning pages and inside small objects (each edit shifts the rest of the
 * object, as a text spliced in place does), some abort; under every write-detection scheme the commits log a small
 * fraction of the bytes they shifted, and after a power cut (nothing closed, unsynced writes lost) recovery, which
 * sees only the log, rebuilds exactly the committed bytes.
 */
@ExtendWith(SeedExtension.class)
class PageMovesRecoveryTest {
    private static final Path DIR = Path.of("/mem/db");
    private static final int LARGE = 96 * 1024;
    private static final int SMALL = 3000;

    @ParameterizedTest
    @EnumSource(WriteDetection.class)
    void shiftedBytesAreLoggedAsMovesAndRecovered(WriteDetection d, Seed seed) throws Exception {
        if (d == WriteDetection.KERNEL_TRACKING) {
            String why = KernelTracking.unavailableReason();
            Assumptions.assumeTrue(why == null, () -> "kernel write tracking: " + why);
        }
        StoreOptions o = new StoreOptions(2048, 1 << 20, 1L << 30).withWriteDetection(d);
        SplittableRandom rnd = new SplittableRandom(seed.value());
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store.create(fs, DIR, 8192, o).close();
        Store store = Store.open(fs, DIR, o);
        byte[][] model = new byte[4][];
        long[] refs = new long[4];
        long shifted = 0;
        long logged;
        try {
            try (Transaction tx = store.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    model[i] = new byte[i == 0 ? LARGE : SMALL];
                    rnd.nextBytes(model[i]);
                    if (i == 0) {
                        refs[i] = tx.allocateLarge(LARGE, 0);
                        tx.writeLarge(refs[i], 0, model[i], 0, LARGE);
                    } else {
                        refs[i] = tx.allocate(SMALL);
                        tx.write(refs[i], 0, model[i]);
                    }
                }
                tx.commit();
            }
            long before = store.txns.redoBytes();
            for (int t = 0; t < 40; t++) {
                boolean abort = rnd.nextInt(5) == 0;
                byte[][] next = new byte[model.length][];
                for (int i = 0; i < model.length; i++) {
                    next[i] = model[i].clone();
                }
                long bytes = 0;
                try (Transaction tx = store.begin()) {
                    for (int e = 1 + rnd.nextInt(3); e > 0; e--) {
                        int i = rnd.nextInt(refs.length);
                        byte[] c = next[i];
                        int at = rnd.nextInt(c.length - 400);
                        int k = 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 300);
                        if (rnd.nextBoolean()) { // insert k bytes at `at`: the rest moves up, its end falls off
                            System.arraycopy(c, at, c, at + k, c.length - at - k);
                            for (int b = at; b < at + k; b++) {
                                c[b] = (byte) rnd.nextInt();
                            }
                        } else { // delete them: the rest moves down, new bytes at the end
                            System.arraycopy(c, at + k, c, at, c.length - at - k);
                            for (int b = c.length - k; b < c.length; b++) {
                                c[b] = (byte) rnd.nextInt();
                            }
                        }
                        if (i == 0) {
                            tx.writeLarge(refs[i], at, c, at, c.length - at);
                        } else {
                            tx.write(refs[i], at, c, at, c.length - at);
                        }
                        bytes += c.length - at;
                    }
                    if (abort) {
                        tx.abort();
                    } else {
                        tx.commit();
                        model = next;
                        shifted += bytes;
                    }
                }
            }
            logged = store.txns.redoBytes() - before;
            try (Transaction tx = store.begin()) {
                check(tx, refs, 0, model, d + ", before the power cut");
            }
        } catch (Throwable t) {
            CommitCleanPointTest.closeCrashed(store);
            throw t;
        }
        assertTrue(
                logged * 4 < shifted,
                d + ": " + logged + " REDO bytes logged for " + shifted + " bytes shifted (moves not found?)");
        long base = store.arenaBase();
        fs.crash(rnd); // never closed: only the log holds the commits
        CommitCleanPointTest.closeCrashed(store);
        try (Store s = Store.open(fs, DIR, o);
                Transaction tx = s.begin()) {
            check(tx, refs, s.arenaBase() - base, model, d + ", after recovery");
            assertTrue(s.verify().ok(), d + ": the recovered store verifies");
        }
    }

    private static void check(Transaction tx, long[] refs, long shift, byte[][] model, String when) {
        for (int i = 0; i < refs.length; i++) {
            byte[] got = new byte[model[i].length];
            if (i == 0) {
                tx.readLarge(refs[i] + shift, 0, got, 0, got.length);
            } else {
                tx.read(refs[i] + shift, 0, got, 0, got.length);
            }
            assertArrayEquals(model[i], got, when + ": object " + i);
        }
    }
}
