package dev.quickstore.core.buffer;

import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.Replacement;
import dev.quickstore.mmu.ReplacementClock;
import java.util.function.LongPredicate;

/**
 * The mapped arena's replacement clocks, run by the data plane (store-native's {@code qs_clock.c}): the
 * policy lives in C because most loads are application faults that the C fault path serves without Java
 * (design-notes section 2), and the pool size must bound those too. White and DeWitt 1994, section 3.5:
 *
 * <ul>
 *   <li><b>Simplified</b> (QuickStore's clock): the hand takes the first clean frame whose access through
 *       the view is disabled and that the store has not fixed since; when a full sweep finds none, the
 *       whole arena is reprotected in one pass and the sweep continues.</li>
 *   <li><b>Classic</b> (second chance): the hand clears the bit of a referenced frame by reprotecting it
 *       (one {@code mprotect} per run of consecutive frames it passes) and takes the first clean
 *       unreferenced frame.</li>
 * </ul>
 *
 * <p>Every load - a fault, the store's own {@code install}, a prefetch - first evicts by the policy while
 * the resident count is at the budget, so {@code resident <= capacity} holds whenever a clean, unheld
 * victim exists. Java and the fault path share one hand and one set of frame flags: this class keeps no
 * policy state. Java tells the data plane what it must not evict through <em>holds</em>: pages pinned by
 * the running store operation ({@link ReplacementClock#HOLD_PINNED}; a pin also counts as a reference) and
 * disk-dirty pages whose committed changes are only in the log ({@link ReplacementClock#HOLD_WAL}). Dirty
 * (transaction-dirty) frames are never victims in C: when everything resident is dirty or held, the load
 * overcommits the budget and the buffer pool steals or writes back at its next call ({@link
 * BufferPool#trim} after every commit, {@link #victim} for its own fixes).
 */
final class DataPlaneReplacer implements Replacer {
    private final MappedFrames frames;
    private final MappedArena arena;
    /** Rotating start of the Java fall-back scan (steal / write-back candidates). */
    private int fallbackHand;

    DataPlaneReplacer(MappedFrames frames, Replacement policy) {
        this.frames = frames;
        this.arena = frames.arena();
        arena.clock().policy(policy);
        arena.budgets(frames.capacity(), 0);
    }

    @Override
    public void add(long pageId) {
        // references are frame flags in the data plane (fault, install, pin)
    }

    @Override
    public void remove(long pageId) {}

    @Override
    public boolean inDataPlane() {
        return true;
    }

    @Override
    public long evictByPolicy() {
        return frames.clockEvict();
    }

    @Override
    public void hold(long pageId, int bits, boolean on) {
        frames.hold(pageId, bits, on);
    }

    /**
     * The buffer pool's fall-back when the data plane found no clean unheld victim: the first resident page
     * {@code acceptable} takes (a disk-dirty page to write back, or a dirty page to steal), scanning from a
     * rotating position.
     */
    @Override
    public long victim(LongPredicate acceptable) {
        long[] resident = frames.residentPages();
        int n = resident.length;
        for (int k = 0; k < n; k++) {
            int i = (fallbackHand + k) % n;
            if (acceptable.test(resident[i])) {
                fallbackHand = i + 1;
                return resident[i];
            }
        }
        return -1;
    }

    private FaultCounters counters() {
        return arena.counters();
    }

    @Override
    public long reprotectAlls() {
        return counters().reprotectAlls();
    }

    @Override
    public long reprotectRuns() {
        return counters().clockRuns();
    }

    @Override
    public long framesCleared() {
        return counters().clockReprotected();
    }
}
