package dev.quickstore.oo7;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * The peak Java heap use during one OO7 operation, from the JVM's own memory-pool accounting ({@link
 * MemoryPoolMXBean}, {@code java.lang.management}): {@link #reset()} resets every heap pool's peak to its current
 * use; {@link #peakKiB()} is the sum of the heap pools' peaks since then.
 *
 * <p>What it is: with G1, the peaks of eden, survivor and old generation since the reset, added. The pools
 * reach their peaks at different moments (eden peaks just before a young collection empties it), so the sum is
 * an upper bound of the whole heap's peak; it counts garbage not yet collected, and everything on the heap of
 * this JVM: in a run of several systems in one process, the heap baseline's object graph too. A cold operation
 * in a fresh process ({@code qs oo7 run --cold process}) measures one system alone.
 */
public final class HeapPeak {
    private static final List<MemoryPoolMXBean> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP && p.isValid())
            .toList();

    private HeapPeak() {}

    /** Resets the peak of every heap pool to its current use. */
    public static void reset() {
        for (MemoryPoolMXBean p : HEAP_POOLS) {
            p.resetPeakUsage();
        }
    }

    /** The sum of the heap pools' peak use since the last {@link #reset()}, in KiB. */
    public static long peakKiB() {
        long bytes = 0;
        for (MemoryPoolMXBean p : HEAP_POOLS) {
            bytes += p.getPeakUsage().getUsed();
        }
        return bytes / 1024;
    }
}
