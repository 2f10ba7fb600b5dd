package dev.quickstore.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongPredicate;

/**
 * Clocks whose reference bits are the page protection of the mapped arena: a frame is "referenced"
 * while its access through the application view is enabled (a reprotected frame takes a cheap reference
 * fault on its next access, which enables it again), or when the store fixed the page since the bit was
 * last cleared (the store works through the alias view, which never faults). The hand sweeps resident
 * pages in page (= frame) order, so the frames it reprotects form runs.
 *
 * <ul>
 *   <li><b>Simplified</b> (QuickStore, White and DeWitt 1994, section 3.5): the hand takes the first
 *       frame whose access is disabled; when a full sweep finds none, the whole arena is reprotected in
 *       one call ({@code reprotectAll}, coalescing every protection run) and the sweep continues.</li>
 *   <li><b>Classic</b> (second chance): a referenced frame's bit is cleared by reprotecting that frame;
 *       the frames the hand passes in one call are reprotected together, one {@code mprotect} per run of
 *       consecutive frames; an unreferenced frame is the victim.</li>
 * </ul>
 */
final class ProtectionClock implements Replacer {
    private final PageFrames frames;
    private final boolean simplified;
    private final TreeSet<Long> ring = new TreeSet<>();
    /** Pages the store fixed since their bit was last cleared. */
    private final Set<Long> storeRefs = new HashSet<>();

    private long hand;
    private long reprotectAlls;
    private long reprotectRuns;
    private long framesCleared;

    ProtectionClock(PageFrames frames, boolean simplified) {
        this.frames = frames;
        this.simplified = simplified;
    }

    @Override
    public void add(long pageId) {
        ring.add(pageId);
        storeRefs.add(pageId);
    }

    @Override
    public void remove(long pageId) {
        ring.remove(pageId);
        storeRefs.remove(pageId);
    }

    @Override
    public long victim(LongPredicate acceptable) {
        return simplified ? simplifiedVictim(acceptable) : classicVictim(acceptable);
    }

    private Long start() {
        Long p = ring.ceiling(hand);
        return p != null ? p : ring.first();
    }

    private Long next(long p) {
        Long n = ring.higher(p);
        return n != null ? n : ring.first();
    }

    private long simplifiedVictim(LongPredicate acceptable) {
        long v = sweepDisabled(acceptable);
        if (v < 0 && !ring.isEmpty()) {
            frames.reprotectAll();
            reprotectAlls++;
            storeRefs.clear();
            v = sweepDisabled(acceptable);
        }
        return v;
    }

    /** One full sweep from the hand: the first acceptable page whose access is disabled. */
    private long sweepDisabled(LongPredicate acceptable) {
        int n = ring.size();
        if (n == 0) {
            return -1;
        }
        long p = start();
        for (int step = 0; step < n; step++) {
            if (!storeRefs.contains(p) && !frames.accessEnabled(p) && acceptable.test(p)) {
                hand = p + 1;
                return p;
            }
            p = next(p);
        }
        return -1;
    }

    private long classicVictim(LongPredicate acceptable) {
        int n = ring.size();
        if (n == 0) {
            return -1;
        }
        List<Long> clear = new ArrayList<>();
        Set<Long> passed = new HashSet<>();
        long victim = -1;
        long p = start();
        for (int step = 0; step < 2 * n + 1; step++) {
            if (!passed.contains(p)) {
                boolean byStore = storeRefs.remove(p);
                boolean enabled = frames.accessEnabled(p);
                if (byStore || enabled) {
                    passed.add(p); // second chance: the bit is cleared now
                    if (enabled) {
                        clear.add(p);
                    }
                    p = next(p);
                    continue;
                }
            }
            if (acceptable.test(p)) {
                victim = p;
                hand = p + 1;
                break;
            }
            p = next(p);
        }
        if (!clear.isEmpty()) {
            long[] pages = clear.stream().mapToLong(Long::longValue).sorted().toArray();
            reprotectRuns += frames.reprotect(pages);
            framesCleared += pages.length;
        }
        return victim;
    }

    @Override
    public long reprotectAlls() {
        return reprotectAlls;
    }

    @Override
    public long reprotectRuns() {
        return reprotectRuns;
    }

    @Override
    public long framesCleared() {
        return framesCleared;
    }
}
