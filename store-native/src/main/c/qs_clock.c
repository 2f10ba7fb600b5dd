/*
 * qs_clock.c - buffer replacement in the data plane: the policy that keeps the number of resident
 * frames within the pool's budget (arena->max_resident) for every load, whether the application
 * faulted the page in (qs_fault.c), the store installed it (qs_install) or prefetched it.
 *
 * Two clocks whose reference bits are page protection (White and DeWitt, "QuickStore", SIGMOD 1994,
 * section 3.5): a frame whose access through the application view is disabled (flag PROTNONE, set by
 * a reprotection) and that the store has not fixed since (flag REF clear) has not been referenced
 * since its bit was cleared. A reference re-enables access by a cheap reference fault (no I/O). Under minor faults
 * (qs_zaps, qs_minor.c) access is disabled by zapping the frame's page-table entries instead (flag ZAPPED, the view's
 * protection unchanged; QS_F_DISABLED is either), the reference fault is a minor fault, and an eviction only punches
 * the frame's memory (view_drop): no protection changes at all.
 *
 *  - QS_POLICY_SIMPLIFIED, QuickStore's simplified clock: the hand takes the first clean frame whose
 *    access is disabled; when a full sweep finds none, the whole arena is reprotected in as few
 *    mprotect calls as possible (qs_reprotect_range, which also collapses protection islands) and the
 *    sweep continues. The hand advances past every frame it looks at, so the cost per victim is
 *    amortised O(hwm / budget) descriptor reads plus one reprotect-all per ~budget victims.
 *  - QS_POLICY_CLASSIC, second chance driven by reprotection: the hand clears the bit of a referenced
 *    resident frame by reprotecting it (the frames it passes in one call are reprotected together, one
 *    mprotect per run of consecutive frames) and evicts the first clean unreferenced frame. At most two
 *    sweeps per victim.
 *
 * Victims are CLEAN frames without a Java hold (QS_F_PINNED: the running store operation uses the
 * page through the alias view; QS_F_WAL: committed changes are only in the log, the page must be
 * written back by Java under the WAL rule before it may be dropped). DIRTY frames are never evicted
 * here: their pre-image and the WAL rule belong to Java (steal at its next buffer-pool call, or
 * commit). When every resident frame is dirty or held, the load overcommits the budget (counter
 * OVERCOMMITS, arena->pressure) - design-notes section 2 rule 3, budgets are soft in the fault path.
 *
 *  - QS_POLICY_FALLBACK (no policy selected): a bounded scan (512 frames) for a clean frame not
 *    referenced since the last reprotection; Java's own clock decides everything else.
 *
 * One hand (arena->hand) and one set of frame flags serve the fault path and Java (qs_clock_evict):
 * there is no second copy of the policy state in Java.
 *
 * EVERYTHING HERE IS ASYNC-SIGNAL-SAFE (it runs inside the SIGSEGV handler): frames are taken with a
 * CAS from a stable state and skipped otherwise (never waited for), raw syscalls (mprotect,
 * fallocate, futex wake) and C11 atomics only.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>
#include <sys/mman.h>

/* The view's part of evicting CLEAN frame i (held BUSY, flags fl): where the arena zaps (qs_zaps) a frame whose view
 * has the clean protection keeps it - the caller's punch unmaps its pages from the view, so its next access is a
 * missing fault (SIGBUS) and its reload needs no mprotect (the view is untouched again); else PROT_NONE unless it is
 * already. Returns the flags the caller clears once the frame is punched, or 0 if the mprotect failed (the VMA limit).
 * [signal-safe] */
static uint32_t view_drop(struct qs_arena *a, uint64_t i, uint32_t fl) {
    uint32_t drop = QS_F_PROTNONE | QS_F_REF | QS_F_ZAPPED;
    if (qs_eviction_keeps_view(a, QS_CLEAN, fl)) return drop | QS_F_VIEW_TOUCHED;
    if (!(fl & QS_F_PROTNONE) && mprotect(qs_app_addr(a, i), a->frame_size, PROT_NONE) != 0) return 0;
    return drop;
}

/* Evicts CLEAN frame i, held BUSY by the caller (flags fl), counted as `cause`: its view dropped (view_drop), bytes
 * punched out, a twin's pre-image freed, the page still assigned (RESERVED). Returns 1, or 0 if the view's mprotect
 * failed (the VMA limit; the frame unlocked CLEAN, the caller tries another). [signal-safe] */
static int drop_victim(struct qs_arena *a, uint64_t i, uint32_t fl, enum qs_counter cause) {
    struct qs_frame *f = qs_frame_at(a, i);
    uint32_t drop = view_drop(a, i, fl);
    if (drop == 0) {
        qs_frame_unlock(f, QS_CLEAN); /* splitting failed (VMA limit) */
        return 0;
    }
    qs_punch(a, i, 1);
    qs_preimage_free(a, f); /* a twin (kernel tracking) */
    atomic_fetch_and(&f->flags, ~drop);
    atomic_fetch_sub(&a->resident, 1);
    qs_count(a, QS_C_EVICTIONS, 1);
    qs_count(a, cause, 1);
    qs_frame_unlock(f, QS_RESERVED);
    return 1;
}

/* Evicts frame i, held BUSY by the caller and CLEAN before: PROT_NONE (or its view kept, view_drop), bytes punched
 * out, the page stays assigned (RESERVED). A hold set meanwhile by Java wins (the frame is kept). Returns 1 if
 * evicted, 0 if kept (unlocked CLEAN). */
static int evict_locked(struct qs_arena *a, uint64_t i) {
    struct qs_frame *f = qs_frame_at(a, i);
    /* Java sets a hold (seq_cst) before it reads the state; we read the flags after our CAS to BUSY:
     * either we see the hold, or Java sees BUSY/RESERVED and reloads the page. */
    uint32_t fl = atomic_load(&f->flags);
    if (fl & QS_F_HOLDS) { qs_frame_unlock(f, QS_CLEAN); return 0; }
    if ((fl & QS_F_OPEN) || ((fl & QS_F_TWIN) && qs_kwp_stays(a, i))) { qs_frame_unlock(f, QS_CLEAN); return 0; }
    return drop_victim(a, i, atomic_load(&f->flags), QS_C_CLOCK_VICTIMS);
}

static int candidate(struct qs_frame *f, uint32_t *s) {
    *s = atomic_load_explicit(&f->state, memory_order_acquire);
    return *s == QS_CLEAN && !(atomic_load_explicit(&f->flags, memory_order_relaxed) & QS_F_HOLDS);
}

/* One sweep of the simplified clock over [0, end) from the hand: the first clean frame whose access
 * is disabled and that the store has not referenced since. */
static int64_t sweep_disabled(struct qs_arena *a, uint64_t except, uint64_t end, int *busy) {
    uint64_t h = atomic_load_explicit(&a->hand, memory_order_relaxed) % end;
    for (uint64_t step = 0; step < end; step++) {
        uint64_t i = h + step < end ? h + step : h + step - end;
        if (i == except) continue;
        struct qs_frame *f = qs_frame_at(a, i);
        uint32_t s;
        if (!candidate(f, &s)) {
            if (qs_state(s) == QS_LOADING || qs_state(s) == QS_BUSY) *busy = 1;
            continue;
        }
        uint32_t fl = atomic_load_explicit(&f->flags, memory_order_relaxed);
        if (!(fl & QS_F_DISABLED) || (fl & QS_F_REF)) { *busy = 1; continue; } /* evictable once unreferenced */
        if (!atomic_compare_exchange_strong(&f->state, &s, QS_BUSY)) { *busy = 1; continue; }
        if (evict_locked(a, i)) {
            atomic_store_explicit(&a->hand, i + 1, memory_order_relaxed);
            return (int64_t)i;
        }
    }
    atomic_store_explicit(&a->hand, h, memory_order_relaxed);
    return -1;
}

static int64_t simplified_victim(struct qs_arena *a, uint64_t except, int *busy) {
    uint64_t end = atomic_load(&a->hwm);
    if (end == 0) return -1;
    int64_t v = sweep_disabled(a, except, end, busy);
    if (v >= 0) return v;
    /* no frame is disabled: reprotect the whole space in one pass and sweep again */
    int64_t n = qs_reprotect_range(a, 0, end);
    qs_count(a, QS_C_REPROTECT_ALLS, 1);
    if (n > 0) qs_count(a, QS_C_CLOCK_REPROTECTED, (uint64_t)n);
    *busy = 0; /* only the second sweep tells whether anything was evictable */
    return sweep_disabled(a, except, end, busy);
}

/* The classic hand's pending run of referenced frames [start, start+n), held BUSY (prior state in
 * prior_state): one mprotect clears all their bits. */
struct run { uint64_t start, n; };

static void flush(struct qs_arena *a, struct run *r) {
    if (r->n == 0) return;
    uint32_t how = qs_disable_run(a, r->start, r->n);
    for (uint64_t j = r->start; j < r->start + r->n; j++) {
        struct qs_frame *g = qs_frame_at(a, j);
        qs_frame_disabled(g, how);
        qs_frame_unlock(g, g->prior_state);
    }
    qs_count(a, QS_C_CLOCK_RUNS, 1);
    qs_count(a, QS_C_CLOCK_REPROTECTED, r->n);
    r->n = 0;
}

static int64_t classic_victim(struct qs_arena *a, uint64_t except, int *busy) {
    uint64_t end = atomic_load(&a->hwm);
    if (end == 0) return -1;
    uint64_t h = atomic_load_explicit(&a->hand, memory_order_relaxed) % end;
    struct run r = {0, 0};
    for (uint64_t step = 0; step < 2 * end; step++) {
        uint64_t i = (h + step) % end;
        if (i == 0 || i == except) flush(a, &r); /* runs never wrap or include the faulting frame */
        if (i == except) continue;
        struct qs_frame *f = qs_frame_at(a, i);
        uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
        if (s != QS_CLEAN && s != QS_DIRTY) {
            if (qs_state(s) == QS_LOADING || qs_state(s) == QS_BUSY) *busy = 1;
            flush(a, &r);
            continue;
        }
        uint32_t fl = atomic_load_explicit(&f->flags, memory_order_relaxed);
        if (!(fl & QS_F_DISABLED) || (fl & QS_F_REF)) { /* referenced: second chance, clear the bit */
            if (s == QS_CLEAN && !(fl & QS_F_HOLDS)) *busy = 1; /* evictable once unreferenced */
            if (!atomic_compare_exchange_strong(&f->state, &s, QS_BUSY)) { *busy = 1; flush(a, &r); continue; }
            f->prior_state = s;
            if (r.n == 0) r.start = i;
            r.n++;
            continue;
        }
        flush(a, &r);
        if (s != QS_CLEAN || (fl & QS_F_HOLDS)) continue;
        if (!atomic_compare_exchange_strong(&f->state, &s, QS_BUSY)) { *busy = 1; continue; }
        if (evict_locked(a, i)) {
            atomic_store_explicit(&a->hand, i + 1, memory_order_relaxed);
            return (int64_t)i;
        }
    }
    flush(a, &r);
    atomic_store_explicit(&a->hand, h, memory_order_relaxed);
    return -1;
}

/* QS_POLICY_FALLBACK, the fault path's policy when none was selected and the pool is at its limit: evict one CLEAN frame that has
 * not been referenced since the last whole-arena reprotection (flag PROTNONE, or REF clear). Never
 * waits: frames in other states are skipped. Bounded scan from a clock hand. */
static int fallback_evict(struct qs_arena *a, uint64_t except) {
    uint64_t end = atomic_load(&a->hwm);
    if (end == 0) return 0;
    for (int tries = 0; tries < 512; tries++) {
        uint64_t i = atomic_fetch_add_explicit(&a->hand, 1, memory_order_relaxed) % end;
        if (i == except) continue;
        struct qs_frame *f = qs_frame_at(a, i);
        uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
        uint32_t fl = atomic_load_explicit(&f->flags, memory_order_relaxed);
        if (s != QS_CLEAN || ((fl & QS_F_REF) && !(fl & QS_F_DISABLED))) continue;
        if (!atomic_compare_exchange_strong(&f->state, &s, QS_BUSY)) continue;
        fl = atomic_load(&f->flags);
        if ((fl & QS_F_OPEN) || ((fl & QS_F_TWIN) && qs_kwp_stays(a, i))) { qs_frame_unlock(f, QS_CLEAN); continue; }
        if (drop_victim(a, i, atomic_load(&f->flags), QS_C_FAULT_EVICTIONS)) return 1;
    }
    return 0;
}

/* *busy is set when a frame was skipped only for the moment: another thread held it (transient state, a
 * lost CAS) or it is clean and unheld but was referenced again. Without it, every resident frame was
 * dirty or held: nothing changes until Java cleans or releases a frame. */
static int64_t victim(struct qs_arena *a, uint64_t except, int *busy) {
    *busy = 0;
    switch (atomic_load_explicit(&a->policy, memory_order_relaxed)) {
    case QS_POLICY_SIMPLIFIED: return simplified_victim(a, except, busy);
    case QS_POLICY_CLASSIC: return classic_victim(a, except, busy);
    default: return -1;
    }
}

int64_t qs_clock_victim(struct qs_arena *a, uint64_t except) {
    int busy;
    return victim(a, except, &busy);
}

/* After a sweep found no victim, this many over-budget loads overcommit without sweeping (a failed
 * sweep reads every descriptor of [0, hwm) - twice for the classic clock - and the simplified one also
 * reprotects the whole arena: repeating that on every fault while Java has not yet cleaned or released
 * anything would make each fault O(hwm)). Java's qs_mark_clean, qs_frame_hold(off) and qs_evict reset
 * it, and the frames loaded meanwhile become candidates at the next sweep. */
#define QS_VICTIMLESS_SKIP 64

int qs_resident_acquire(struct qs_arena *a, uint64_t except) {
    for (;;) {
        uint64_t max = atomic_load_explicit(&a->max_resident, memory_order_relaxed);
        uint64_t r = atomic_load(&a->resident);
        if (max == 0 || r < max) {
            if (atomic_compare_exchange_weak(&a->resident, &r, r + 1)) return 1;
            continue;
        }
        int policy = atomic_load_explicit(&a->policy, memory_order_relaxed);
        uint64_t skip = atomic_load_explicit(&a->victimless, memory_order_relaxed);
        int evicted = 0;
        if (policy == QS_POLICY_FALLBACK) {
            evicted = fallback_evict(a, except);
        } else if (skip > 0) {
            atomic_compare_exchange_strong(&a->victimless, &skip, skip - 1);
        } else {
            int busy;
            evicted = victim(a, except, &busy) >= 0;
            if (!evicted) {
                qs_count(a, QS_C_CLOCK_FAILS, 1);
                /* remembered only when every resident frame was dirty or held (see victim) */
                if (!busy) atomic_store_explicit(&a->victimless, QS_VICTIMLESS_SKIP, memory_order_relaxed);
            }
        }
        if (!evicted) {
            atomic_fetch_add(&a->resident, 1);
            qs_count(a, QS_C_OVERCOMMITS, 1);
            atomic_fetch_add(&a->pressure, 1);
            return 0;
        }
    }
}

/* ---- control plane (Java downcalls) ------------------------------------------------------------ */

/* Selects the replacement policy (QS_POLICY_*); -EINVAL for an unknown one. */
QS_EXPORT int qs_arena_set_policy(struct qs_arena *a, int policy) {
    if (policy != QS_POLICY_FALLBACK && policy != QS_POLICY_SIMPLIFIED && policy != QS_POLICY_CLASSIC) return -EINVAL;
    atomic_store(&a->policy, policy);
    return 0;
}

/* Java's side of the shared clock: evicts one frame chosen by the policy (as the fault path would),
 * returns its index, -1 if no frame is evictable (all dirty, held or transient), -EINVAL under
 * QS_POLICY_FALLBACK. */
QS_EXPORT int64_t qs_clock_evict(struct qs_arena *a) {
    if (atomic_load(&a->policy) == QS_POLICY_FALLBACK) return -EINVAL;
    int64_t v = qs_clock_victim(a, UINT64_MAX);
    return v >= 0 ? v : -1;
}

/* Sets (on != 0) or clears Java's holds `bits` (QS_F_PINNED, QS_F_WAL) on frame i. Pinning also sets
 * REF: a store fix is a reference. Never waits (one atomic; seq_cst, see evict_locked). */
QS_EXPORT int qs_frame_hold(struct qs_arena *a, uint64_t i, uint32_t bits, int on) {
    if (i >= a->nframes) return -ERANGE;
    if (bits == 0 || (bits & ~QS_F_HOLDS)) return -EINVAL;
    struct qs_frame *f = qs_frame_at(a, i);
    if (on) {
        atomic_fetch_or(&f->flags, bits | ((bits & QS_F_PINNED) ? QS_F_REF : 0));
    } else if (atomic_fetch_and(&f->flags, ~bits) & bits) {
        qs_clock_retry(a);
    }
    return 0;
}
