package dev.quickstore.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The page lock table of ESM-style locking (strict two-phase locking; Carey et al. 1986, and Cricket section
 * 3: locks triggered by protection faults): a client's fault path asks for a shared lock at a page's first
 * read in a transaction and an exclusive one at its first write; locks are held by the session until its
 * transaction commits or aborts, or until the session ends. A request that must wait does so for at most the
 * lock wait; one that would close a cycle of waiting sessions is refused at once (deadlock).
 *
 * <p>Requests are served first come, first served per page: a session that holds nothing on a page waits
 * behind conflicting requests that arrived before it (an upgrade by a holder does not queue). The wait-for
 * graph has an edge to every conflicting holder and every conflicting request ahead.
 *
 * <p>Deadlock victims by age: a request that would close a cycle refuses the <em>youngest</em> transaction of
 * the cycle (the one whose first lock request came last), which is the requester itself or a session waiting in
 * the cycle; so the oldest transaction of any cycle always goes on and retried victims cannot livelock (a retry
 * is a new, young transaction). A session's age is set by its first request after its last release.
 *
 * <p>Invariants: a page has either one exclusive holder or any number of shared holders; a session waits for
 * at most one page at a time (its fault path sends one request at a time); the wait-for graph is acyclic
 * after every grant or refusal (a waiting victim leaves the graph when it is chosen).
 */
final class PageLocks {
    static final int SHARED = 1;
    static final int EXCLUSIVE = 2;

    enum Outcome {
        GRANTED,
        DEADLOCK,
        TIMEOUT
    }

    private final ReentrantLock latch = new ReentrantLock();
    private final Condition released = latch.newCondition();
    private final Map<Long, Map<Long, Integer>> holders = new HashMap<>(); // page -> session -> mode
    private final Map<Long, Set<Long>> held = new HashMap<>(); // session -> pages
    private final Map<Long, long[]> waiting = new HashMap<>(); // session -> {page, mode, arrival}
    private final Map<Long, Long> age = new HashMap<>(); // session -> its transaction's first request
    private final Set<Long> victims = new HashSet<>(); // waiting sessions chosen as deadlock victims
    private long nextSeq;
    private long nextAge;
    private long deadlocks;
    private long timeouts;

    /** Acquires {@code mode} on {@code page} for {@code session}, waiting at most {@code waitMs}. */
    Outcome acquire(long session, long page, int mode, long waitMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        latch.lock();
        try {
            age.computeIfAbsent(session, k -> nextAge++);
            long seq = Long.MAX_VALUE; // not waiting yet: every waiter is ahead of this request
            while (!grantable(session, page, mode, seq)) {
                if (seq == Long.MAX_VALUE) {
                    seq = nextSeq++;
                }
                waiting.put(session, new long[] {page, mode, seq});
                List<Long> cycle = cycle(session);
                if (cycle != null) {
                    long youngest = session;
                    for (long s : cycle) {
                        if (age.getOrDefault(s, Long.MAX_VALUE) > age.get(youngest)) {
                            youngest = s;
                        }
                    }
                    deadlocks++;
                    if (youngest == session) {
                        waiting.remove(session);
                        return Outcome.DEADLOCK;
                    }
                    waiting.remove(youngest); // out of the graph now; its thread returns DEADLOCK when it wakes
                    victims.add(youngest);
                    released.signalAll();
                    continue; // the cycle is broken: check this request again
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    waiting.remove(session);
                    timeouts++;
                    return Outcome.TIMEOUT;
                }
                released.awaitNanos(left);
                waiting.remove(session);
                if (victims.remove(session)) {
                    return Outcome.DEADLOCK; // chosen as the youngest of a cycle by another's request (counted there)
                }
            }
            Map<Long, Integer> h = holders.computeIfAbsent(page, k -> new HashMap<>());
            h.merge(session, mode, Math::max);
            held.computeIfAbsent(session, k -> new HashSet<>()).add(page);
            released.signalAll(); // a grant can unblock requests queued behind this one
            return Outcome.GRANTED;
        } finally {
            latch.unlock();
        }
    }

    private static boolean conflicts(int a, int b) {
        return a == EXCLUSIVE || b == EXCLUSIVE;
    }

    /**
     * Whether {@code session} can have {@code mode} on {@code page} now: no other holder conflicts, and - for a
     * session that holds nothing on the page yet - no conflicting request waits ahead of it (first come, first
     * served: without it, shared requests that keep arriving would starve a waiting upgrade, and the victims of
     * upgrade deadlocks, retrying at once, did exactly that).
     */
    private boolean grantable(long session, long page, int mode, long seq) {
        return blockers(session, page, mode, seq).isEmpty();
    }

    /** The sessions {@code session}'s request for {@code mode} on {@code page} waits for. */
    private Set<Long> blockers(long session, long page, int mode, long seq) {
        Set<Long> out = new HashSet<>();
        Map<Long, Integer> h = holders.get(page);
        if (h != null) {
            for (Map.Entry<Long, Integer> e : h.entrySet()) {
                if (e.getKey() != session && conflicts(mode, e.getValue())) {
                    out.add(e.getKey());
                }
            }
        }
        if (h == null || !h.containsKey(session)) {
            for (Map.Entry<Long, long[]> w : waiting.entrySet()) {
                long[] v = w.getValue();
                if (w.getKey() != session && v[0] == page && v[2] < seq && conflicts(mode, (int) v[1])) {
                    out.add(w.getKey());
                }
            }
        }
        return out;
    }

    /**
     * The sessions of a cycle through {@code start} in the wait-for graph ({@code start} first), or null if the
     * sessions it waits for, transitively, do not include it.
     */
    private List<Long> cycle(long start) {
        Map<Long, Long> parent = new HashMap<>();
        java.util.ArrayDeque<Long> todo = new java.util.ArrayDeque<>();
        todo.add(start);
        while (!todo.isEmpty()) {
            long s = todo.poll();
            long[] w = waiting.get(s);
            if (w == null) {
                continue;
            }
            for (long other : blockers(s, w[0], (int) w[1], w[2])) {
                if (other == start) {
                    List<Long> out = new ArrayList<>();
                    for (long x = s; x != start; x = parent.get(x)) {
                        out.add(x);
                    }
                    out.add(start);
                    java.util.Collections.reverse(out);
                    return out;
                }
                if (other != start && !parent.containsKey(other)) {
                    parent.put(other, s);
                    todo.add(other);
                }
            }
        }
        return null;
    }

    /** Releases every lock of {@code session} (its transaction ended, or the session did). */
    void releaseAll(long session) {
        latch.lock();
        try {
            Set<Long> pages = held.remove(session);
            if (pages != null) {
                for (long p : pages) {
                    Map<Long, Integer> h = holders.get(p);
                    if (h != null) {
                        h.remove(session);
                        if (h.isEmpty()) {
                            holders.remove(p);
                        }
                    }
                }
            }
            waiting.remove(session);
            age.remove(session); // its next request starts a new (young) transaction
            victims.remove(session);
            released.signalAll();
        } finally {
            latch.unlock();
        }
    }

    /** Whether any request waits now (tests). */
    boolean anyWaiting() {
        latch.lock();
        try {
            return !waiting.isEmpty();
        } finally {
            latch.unlock();
        }
    }

    /** {locks held, deadlocks refused, lock waits timed out}. */
    long[] counters() {
        latch.lock();
        try {
            long n = 0;
            for (Map<Long, Integer> h : holders.values()) {
                n += h.size();
            }
            return new long[] {n, deadlocks, timeouts};
        } finally {
            latch.unlock();
        }
    }
}
