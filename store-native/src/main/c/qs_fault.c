/*
 * qs_fault.c - the synchronous fault path (QuickStore section 3.1 and 3.4: on an access to a
 * protected frame, read the page, swizzle/relocate its pointers, enable access; Texas: swizzling at
 * page-fault time). Entered from the signal handler in qs_signal.c.
 *
 * EVERYTHING IN THIS FILE IS ASYNC-SIGNAL-SAFE: raw syscalls (pread, mprotect, mmap, fallocate,
 * futex, clock_gettime via the vDSO), memcpy, C11 atomics. No malloc, no stdio, no locks that an
 * interrupted thread could hold. It never calls Java and never waits for a Java thread: the only
 * waits are futex waits on a frame in a transient state, which is always owned by a native call or
 * another handler invocation that completes without Java (design-notes section 2).
 *
 * Refusals (design-notes section 2a): the access is made to succeed harmlessly by mapping a scratch
 * page over the frame (zeros, or a private copy-on-write copy of a resident page for a refused
 * write), the refusal is recorded (thread, address, frame, page, reason) and arena->pending is
 * incremented; Java checks that word at its API boundaries and throws FaultRefusedException.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>


static void write_str(const char *s) {
    ssize_t r = write(2, s, strlen(s));
    (void)r;
}

/* Refuses the access to frame i (held BUSY or LOADING by the caller). Returns 1 if the access will
 * now succeed harmlessly, 0 if even the scratch page could not be mapped: the caller then forwards
 * the signal (the JVM reports a fatal error). At the VMA limit the scratch mapping is retried after
 * collapsing islands and then after unmapping pages of the arena's VMA reserve (QS_VMA_RESERVE
 * single-page mappings taken at open and refilled when Java repairs refused frames), so the last
 * resort needs more than QS_VMA_RESERVE / 2 refusals at the limit before Java runs again. */
static int refuse(struct qs_arena *a, uint64_t i, uint32_t prior, uint32_t reason, int err, uint64_t addr, int cow) {
    struct qs_frame *f = qs_frame_at(a, i);
    int e = qs_map_scratch(a, i, cow);
    if (e != 0 && cow) { cow = 0; e = qs_map_scratch(a, i, 0); }
    if (e != 0 && qs_collapse_around(a, i) > 0) e = qs_map_scratch(a, i, 0);
    /* the VMA reserve: each page unmapped gives one mapping back (splitting a frame out needs two) */
    while (e == ENOMEM && qs_vma_reserve_release(a, 2) > 0) e = qs_map_scratch(a, i, 0);
    qs_refusal_record(a, e ? QS_R_VMA_LIMIT : reason, e ? e : err, addr, i, f->page_no);
    if (e != 0) {
        write_str("quickstore: cannot map a scratch page over a refused frame: mmap failed with ENOMEM; the "
                  "process reached the kernel limit on memory mappings (sysctl vm.max_map_count); raise it or "
                  "reprotect/evict arena frames\n");
        qs_frame_unlock(f, prior);
        return 0;
    }
    atomic_fetch_add(&a->refused_frames, 1); /* before the state says REFUSED (qs_repair_refused) */
    f->prior_state = prior;
    f->reason = reason;
    if (cow) atomic_fetch_or(&f->flags, QS_F_SCRATCH_COW);
    else atomic_fetch_and(&f->flags, ~QS_F_SCRATCH_COW);
    atomic_fetch_and(&f->flags, ~(QS_F_PROTNONE | QS_F_ZAPPED));
    qs_frame_unlock(f, QS_REFUSED);
    return 1;
}

/* Write-ahead: the write-fault counterpart of read-ahead (qs_readahead.c). QuickStore clusters objects used
 * together onto neighbouring pages (White and DeWitt 1994, section 5.2), so a transaction that writes a run of
 * them takes one write fault per page, each a signal, a pre-image and an mprotect - and on more than one CPU
 * an mprotect that adds write access to a present page flushes the other CPUs' TLBs by inter-processor
 * interrupt (docs/results.md, "Write-ahead"). When one of the two frames before the faulting one is DIRTY
 * (the transaction is writing a stream of frames), the fault also claims up to `writeahead` frames after it that
 * are CLEAN and readable, captures their pre-images and makes the whole run writable with one mprotect;
 * they are DIRTY from then on, and a frame the transaction does not write costs its commit an empty diff (no
 * log record). Rules: the run ends at the first frame that is not CLEAN and readable or cannot be claimed
 * (CAS to BUSY; never waited for) or whose pre-image cannot be taken; never under card marking (a clean
 * frame is writable), scanning (pre-images at load) or page locking (each page's lock is the server's
 * business). Java sets `writeahead` for embedded stores that log page diffs only: a page-server client
 * ships every DIRTY page as written, and full-page logging would log every claimed page whole.
 * A write-heavy transaction (QS_WRITEAHEAD_HEAVY write faults since it began) claims without a stream, and also
 * behind the fault, up to half the window (i-1, i-2, ...): a transaction that updates objects across the whole
 * database in another order than their placement (OO7 T2, T3) faults mostly on frames whose predecessors are
 * clean, reaches a cluster's pages in any order, and by then has shown that it writes most pages.
 * [signal-safe] Returns how many frames after i it claimed, and in *behind how many before i (all held BUSY,
 * pre-images taken). */
static uint64_t claim_write_ahead(struct qs_arena *a, uint64_t i, uint64_t *behind) {
    *behind = 0;
    uint32_t max = atomic_load_explicit(&a->writeahead, memory_order_relaxed);
    if (i == 0 || !qs_writeahead_allowed(a)) return 0;
    int heavy = atomic_load_explicit(&a->txn_write_faults, memory_order_relaxed) >= QS_WRITEAHEAD_HEAVY;
    /* a stream: the frame before, or the one before it (a cluster written every other page), is DIRTY */
    if (!heavy && atomic_load_explicit(&qs_frame_at(a, i - 1)->state, memory_order_acquire) != QS_DIRTY
        && (i < 2 || atomic_load_explicit(&qs_frame_at(a, i - 2)->state, memory_order_acquire) != QS_DIRTY))
        return 0;
    uint64_t n = 0;
    for (uint64_t j = i + 1; j < a->nframes && n < max; j++, n++)
        if (!qs_claim_for_write(a, j)) break;
    if (heavy)
        while (*behind < max / 2 && *behind < i && qs_claim_for_write(a, i - 1 - *behind)) (*behind)++;
    return n;
}

/* Claims frame j for a write ahead of it (write-ahead here, qs_mark_dirty_run): only if it is CLEAN and readable
 * (no PROTNONE: the clock's reference bit must still see its next access) and its CAS to BUSY succeeds (never
 * waited for); then captures its pre-image. Returns 1 with the frame held BUSY and its pre-image taken, else 0
 * with nothing changed. [signal-safe] */
int qs_claim_for_write(struct qs_arena *a, uint64_t j) {
    struct qs_frame *g = qs_frame_at(a, j);
    uint32_t s = atomic_load_explicit(&g->state, memory_order_acquire);
    /* a twin frame (qs_kwp.c) is writable already: its stores need no claim */
    if (s != QS_CLEAN || (atomic_load(&g->flags) & (QS_F_DISABLED | QS_F_TWIN | QS_F_OPEN))) return 0;
    if (!atomic_compare_exchange_strong(&g->state, &s, QS_BUSY)) return 0;
    if ((atomic_load(&g->flags) & QS_F_DISABLED) || qs_preimage_capture(a, j) != 0) {
        qs_frame_unlock(g, QS_CLEAN);
        return 0;
    }
    return 1;
}

/* Whether frames may be made DIRTY ahead of their writes (write-ahead here, qs_mark_dirty_run for a run the
 * store announces): Java selected it (writeahead > 0), and not under card marking (a clean frame is writable),
 * scanning (pre-images at load) or page locking (each page's lock is the server's business). [signal-safe] */
int qs_writeahead_allowed(struct qs_arena *a) {
    return atomic_load_explicit(&a->writeahead, memory_order_relaxed) != 0 && !(a->clean_prot & PROT_WRITE)
        && !a->preimage_on_load && !atomic_load_explicit(&a->locking, memory_order_relaxed);
}

/* Selects write-ahead: a write fault that continues a stream makes up to `frames` following frames writable
 * with it; 0 turns it off. -EINVAL above QS_WRITEAHEAD_MAX. Takes effect at the next fault. */
QS_EXPORT int qs_arena_set_writeahead(struct qs_arena *a, uint32_t frames) {
    if (frames > QS_WRITEAHEAD_MAX) return -EINVAL;
    atomic_store(&a->writeahead, frames);
    return 0;
}

/* Captures the pre-image (frame i held BUSY/LOADING), enables writes and publishes DIRTY. */
static int upgrade_to_dirty(struct qs_arena *a, uint64_t i, uint32_t prior, uint64_t addr) {
    struct qs_frame *f = qs_frame_at(a, i);
    if (qs_preimage_capture(a, i) != 0) return refuse(a, i, prior, QS_R_PREIMAGE, 12 /* ENOMEM */, addr, 1);
    uint64_t behind = 0;
    uint64_t ahead = prior == QS_CLEAN ? claim_write_ahead(a, i, &behind) : 0;
    uint64_t lo = i - behind, hi = i + ahead; /* the run [lo, hi], all claimed but i (held by the caller) */
    if (lo < hi && mprotect(qs_app_addr(a, lo), (size_t)(hi - lo + 1) << a->frame_shift, PROT_READ | PROT_WRITE) == 0) {
        for (uint64_t j = lo; j <= hi; j++) {
            if (j == i) continue;
            qs_frame_unlock(qs_frame_at(a, j), QS_DIRTY);
            qs_dirty_note(a, j);
        }
        qs_count(a, QS_C_WRITEAHEAD, hi - lo);
    } else { /* no write-ahead, or its mprotect failed (the VMA limit): the frame alone, as before */
        for (uint64_t j = lo; j <= hi; j++) {
            if (j == i) continue;
            qs_preimage_free(a, qs_frame_at(a, j));
            qs_frame_unlock(qs_frame_at(a, j), QS_CLEAN);
        }
        int e = qs_protect_frame(a, i, PROT_READ | PROT_WRITE);
        if (e) {
            qs_preimage_free(a, f);
            return refuse(a, i, prior, QS_R_VMA_LIMIT, e, addr, 1);
        }
    }
    atomic_fetch_and(&f->flags, ~QS_F_PROTNONE);
    atomic_fetch_or(&f->flags, QS_F_REF);
    /* card marking: a write fault means a store that bypassed the barrier hit an inaccessible frame
     * (not resident, or reprotected by the clock); no card says where, so commit diffs the whole page */
    if (a->cards) atomic_fetch_or(&f->flags, QS_F_WHOLE);
    qs_count(a, QS_C_WRITE_FAULTS, 1);
    atomic_fetch_add_explicit(&a->txn_write_faults, 1, memory_order_relaxed);
    qs_frame_unlock(f, QS_DIRTY);
    qs_dirty_note(a, i);
    return 1;
}

/* upgrade_to_dirty for a frame just loaded: with minor faults its view pages are not mapped yet, so they are mapped
 * here rather than by the restarted store's minor fault (a second signal). [signal-safe] */
static int loaded_for_write(struct qs_arena *a, uint64_t i, uint64_t addr) {
    int r = upgrade_to_dirty(a, i, QS_CLEAN, addr);
    if (r == 1 && a->minor_uffd >= 0
        && qs_state(atomic_load_explicit(&qs_frame_at(a, i)->state, memory_order_acquire)) == QS_DIRTY)
        qs_minor_map(a, i, 1); /* on an error the restarted store faults and maps it there */
    return r;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Baseline mode: only the copy and the mprotect, plus the same one-counter bump the store path does
 * (so benchmarks can check that every measured operation really was a fault). */
static int bare_fault(struct qs_arena *a, uint64_t i, int is_write) {
    if (is_write) memcpy(qs_alias_addr(a, a->nframes - 1), qs_alias_addr(a, i), a->frame_size);
    qs_count(a, is_write ? QS_C_WRITE_FAULTS : QS_C_READ_FAULTS, 1);
    return mprotect(qs_app_addr(a, i), a->frame_size, is_write ? PROT_READ | PROT_WRITE : PROT_READ) == 0;
}

/* Whether every frame of a read-ahead run [i, i+n) (all claimed) has its view as the selection of minor faults left
 * it (qs_view_untouched): then the run's mprotect is left out too, and counted. [signal-safe] */
static int run_untouched(struct qs_arena *a, uint64_t i, int64_t n) {
    for (int64_t k = 0; k < n; k++)
        if (!qs_view_untouched(a, qs_frame_at(a, i + (uint64_t)k))) return 0;
    qs_count(a, QS_C_UNTOUCHED_LOADS, (uint64_t)n);
    return 1;
}

/* After a minor fault mapped resident frame f's pages (flags fl as read before): a zapped frame's (qs_disable_run)
 * reference, else a spurious fault (another thread's access, or a frame the store loaded itself). [signal-safe] */
static void minor_mapped(struct qs_arena *a, struct qs_frame *f, uint32_t fl) {
    if (fl & QS_F_ZAPPED) {
        atomic_fetch_or(&f->flags, QS_F_REF);
        atomic_fetch_and(&f->flags, ~QS_F_ZAPPED);
        qs_count(a, QS_C_REF_FAULTS, 1);
    } else {
        qs_count(a, QS_C_SPURIOUS, 1);
    }
}

/* via_minor: the fault came through the userfaultfd of minor faults (qs_minor.c: SIGBUS at a frame whose view pages
 * are not mapped); a resident, accessible frame then only needs its pages mapped. */
static int resolve(struct qs_arena *a, uint64_t i, uint64_t addr, int is_write, int via_minor) {
    struct qs_frame *f = qs_frame_at(a, i);
    atomic_fetch_add_explicit(&f->faults, 1, memory_order_relaxed);
    for (;;) {
        uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
        uint32_t fl = atomic_load_explicit(&f->flags, memory_order_acquire);
        int txn = atomic_load_explicit(&a->in_txn, memory_order_acquire);
        if (via_minor && (qs_state(s) == QS_CLEAN || qs_state(s) == QS_DIRTY) && !(fl & QS_F_PROTNONE)) {
            /* resident and accessible, its pages not mapped in the view (made readable again by mprotect after a
             * punch, or loaded by the store itself): map them; a write then faults as on any clean frame */
            if (a->test_minor_hook) a->test_minor_hook(a, i, 0);
            int e = qs_minor_map(a, i, 1);
            if (e == 0) {
                minor_mapped(a, f, fl);
                return 1;
            }
            if (a->test_minor_hook) a->test_minor_hook(a, i, 1);
            /* the state read above may be stale: the frame evicted since (its pages punched, so the map found none)
             * and perhaps loaded again. Claimed it is stable, and a resident frame's pages are in the memfd: only a
             * second failure is the kernel's, and refused (a CAS that merely succeeded on a reloaded frame used to
             * refuse a good frame: test_clock's concurrent readers read the scratch page's zeros) */
            if (!atomic_compare_exchange_weak(&f->state, &s, QS_BUSY)) continue;
            fl = atomic_load_explicit(&f->flags, memory_order_acquire);
            e = qs_minor_map(a, i, 1);
            if (e != 0) return refuse(a, i, s, QS_R_IO, e, addr, 0);
            minor_mapped(a, f, fl);
            qs_frame_unlock(f, s);
            return 1;
        }
        switch (qs_state(s)) {
        case QS_LOADING:
        case QS_BUSY:
            qs_count(a, QS_C_WAITS, 1);
            qs_frame_wait(f, s);
            continue;
        case QS_REFUSED:
            qs_count(a, QS_C_SPURIOUS, 1); /* the scratch page is in place now */
            return 1;
        case QS_FREE:
            if (!atomic_compare_exchange_weak(&f->state, &s, QS_BUSY)) continue;
            return refuse(a, i, QS_FREE, (fl & QS_F_RELEASED) ? QS_R_RELEASED : QS_R_NOT_RESERVED, 0, addr, 0);
        case QS_RESERVED: {
            if (!txn) {
                if (!atomic_compare_exchange_weak(&f->state, &s, QS_BUSY)) continue;
                return refuse(a, i, QS_RESERVED, QS_R_NO_TXN, 0, addr, 0);
            }
            if (!atomic_compare_exchange_weak(&f->state, &s, QS_LOADING)) continue;
            /* the buffer pool's bound: evict by the replacement policy first (qs_clock.c) */
            qs_resident_acquire(a, i);
            int err = 0;
            /* read-ahead (qs_readahead.c): the following frames of a clustered run in one read and one
             * mprotect; falls through to the single load when it does not apply or the mprotect fails */
            int64_t run = qs_readahead_load(a, i, &err);
            if (run < 0) {
                qs_punch(a, i, 1);
                atomic_fetch_sub(&a->resident, 1);
                return refuse(a, i, QS_RESERVED, (uint32_t)-run, err, addr, 0);
            }
            if (run > 1 && !run_untouched(a, i, run)
                && mprotect(qs_app_addr(a, i), (size_t)run << a->frame_shift, a->clean_prot) != 0) {
                qs_readahead_drop(a, i, run); /* the VMA limit: the frame alone, with island collapse */
                run = 1;
            }
            if (run > 1) {
                qs_readahead_publish(a, i, run);
                qs_minor_map(a, i, (uint64_t)run); /* a frame left unmapped is mapped by its own minor fault */
                if (is_write) return loaded_for_write(a, i, addr);
                atomic_fetch_and(&f->flags, ~QS_F_PROTNONE);
                atomic_fetch_or(&f->flags, QS_F_REF);
                qs_count(a, QS_C_READ_FAULTS, 1);
                qs_frame_unlock(f, QS_CLEAN);
                return 1;
            }
            int r = run == 1 ? 0 : qs_load_frame_locked(a, i, is_write ? QS_LOCK_X : QS_LOCK_S, &err);
            if (r != 0) {
                qs_punch(a, i, 1);
                atomic_fetch_sub(&a->resident, 1);
                return refuse(a, i, QS_RESERVED, (uint32_t)r, err, addr, 0);
            }
            if (is_write) return loaded_for_write(a, i, addr); /* bytes are resident now */
            /* scanning (qs_cards.c): the pre-image at load; the frame is DIRTY and writable from the start */
            int scan = a->preimage_on_load && qs_preimage_capture(a, i) == 0;
            /* with minor faults too the view's protection may have changed since the fault (the clock's reprotection
             * or eviction of the frame before this handler ran), unless the frame's view was never touched
             * (qs_view_untouched: nothing has changed it since minor faults were selected, so it is readable and the
             * mprotect is left out); on a range readable already mprotect changes nothing and splits nothing. Then
             * the frame's pages are mapped (qs_minor.c), not left to a minor fault. */
            int untouched = !scan && qs_view_untouched(a, f);
            if (untouched) qs_count(a, QS_C_UNTOUCHED_LOADS, 1);
            int e = untouched ? 0 : qs_protect_frame(a, i, scan ? PROT_READ | PROT_WRITE : a->clean_prot);
            int me = e ? 0 : qs_minor_map(a, i, 1);
            if (me) {
                if (scan) qs_preimage_free(a, f);
                qs_punch(a, i, 1);
                atomic_fetch_sub(&a->resident, 1);
                return refuse(a, i, QS_RESERVED, QS_R_IO, me, addr, 0);
            }
            if (e) {
                if (scan) qs_preimage_free(a, f);
                qs_punch(a, i, 1);
                atomic_fetch_sub(&a->resident, 1);
                return refuse(a, i, QS_RESERVED, QS_R_VMA_LIMIT, e, addr, 0);
            }
            atomic_fetch_or(&f->flags, QS_F_REF);
            qs_count(a, QS_C_READ_FAULTS, 1);
            qs_frame_unlock(f, scan ? QS_DIRTY : QS_CLEAN);
            if (scan) qs_dirty_note(a, i);
            return 1;
        }
        case QS_CLEAN:
        case QS_DIRTY: {
            int protnone = (fl & QS_F_PROTNONE) != 0;
            /* a twin (qs_kwp.c) whose access the clock disabled opens writable: its stores are the kernel's to see */
            int twin_reopen = protnone && (fl & (QS_F_TWIN | QS_F_OPEN));
            int needs_write = is_write && s == QS_CLEAN && !twin_reopen;
            /* a DIRTY frame the store wrote through the alias only (qs_mark_dirty_alias) has a read-only view */
            int opens_view = is_write && s == QS_DIRTY && (fl & QS_F_VIEW_RO);
            if (!protnone && !needs_write && !opens_view) {
                /* minor faults: a read of a CLEAN frame readable by its flags that still faults by SIGSEGV has a view
                 * a load left inaccessible (a view wrongly taken as untouched): set the protection rather than
                 * restart the access into the same fault for ever. Else another thread resolved it meanwhile. */
                if (a->minor_uffd >= 0 && !via_minor && !is_write && s == QS_CLEAN) {
                    if (!atomic_compare_exchange_weak(&f->state, &s, QS_BUSY)) continue;
                    int e = qs_protect_frame(a, i, qs_clean_prot_of(a, f));
                    if (e) return refuse(a, i, s, QS_R_VMA_LIMIT, e, addr, 1);
                    qs_frame_unlock(f, s);
                }
                qs_count(a, QS_C_SPURIOUS, 1);
                return 1;
            }
            if (!atomic_compare_exchange_weak(&f->state, &s, QS_BUSY)) continue;
            if (!txn) return refuse(a, i, s, QS_R_NO_TXN, 0, addr, 1);
            {
                /* locking: the first touch of a cached page in a transaction locks it (shared to read,
                 * exclusive to write); if another client committed it since, the copy is reloaded first */
                int lerr = 0;
                int lk = qs_page_lock(a, i, is_write ? QS_LOCK_X : QS_LOCK_S, &lerr);
                if (lk < 0) return refuse(a, i, s, (uint32_t)-lk, lerr, addr, 1);
                if (lk == 1 && s == QS_CLEAN) {
                    int r = qs_load_frame(a, i, &lerr);
                    if (r != 0) return refuse(a, i, s, (uint32_t)r, lerr, addr, 1);
                }
            }
            if (needs_write) {
                /* a zapped frame (qs_disable_run) has no page mapped: mapped with its new protection here rather
                 * than by the restarted store's minor fault */
                if (!(fl & QS_F_ZAPPED)) return upgrade_to_dirty(a, i, s, addr);
                atomic_fetch_and(&f->flags, ~QS_F_ZAPPED); /* held BUSY: no clock zaps it meanwhile */
                return loaded_for_write(a, i, addr);
            }
            int e = qs_protect_frame(a, i, s == QS_DIRTY ? PROT_READ | PROT_WRITE : qs_clean_prot_of(a, f));
            if (e) return refuse(a, i, s, QS_R_VMA_LIMIT, e, addr, 1);
            atomic_fetch_and(&f->flags, s == QS_DIRTY ? ~(QS_F_PROTNONE | QS_F_VIEW_RO) : ~QS_F_PROTNONE);
            atomic_fetch_or(&f->flags, QS_F_REF);
            qs_count(a, QS_C_REF_FAULTS, 1);
            qs_frame_unlock(f, s);
            return 1;
        }
        default:
            return 0;
        }
    }
}

/* The store's own access to frame i through the alias (a page-server client's storage manager reading or
 * writing a page it fixed): resolved exactly as a fault of the application on the frame would be - a
 * reserved frame is loaded from its source (locked when the arena locks), a reprotected one takes its
 * reference fault (its first touch in the transaction: it joins the read set; under locking, the page lock),
 * a write captures the pre-image. An access that must be refused is refused as a fault is (scratch page,
 * refusal queue), and the caller takes the refusal from the queue. Returns 1, or 0 if i is outside the
 * arena. Called from Java (not a signal handler): the same code, the same waits. */
QS_EXPORT int qs_touch(struct qs_arena *a, uint64_t i, int is_write) {
    if (i >= a->nframes || a->mode == QS_MODE_BARE) return 0;
    struct qs_frame *f = qs_frame_at(a, i);
    uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
    uint32_t fl = atomic_load_explicit(&f->flags, memory_order_acquire);
    if ((qs_state(s) == QS_CLEAN && !is_write && !(fl & QS_F_PROTNONE))
        || (qs_state(s) == QS_DIRTY && !(fl & QS_F_PROTNONE)))
        return 1; /* already accessible in this transaction: nothing to resolve (the common case) */
    return resolve(a, i, (uint64_t)qs_app_addr(a, i), is_write, 0);
}

/* Entry from the signal handler. Returns 1 if the fault was an arena fault and the faulting access
 * can be restarted, 0 if the signal must be forwarded to the previous handler. */
int qs_handle_fault(int sig, void *addr, int is_write) {
    struct qs_arena *a = qs_registry_find(addr);
    if (a == NULL) return 0;
    uint64_t i = ((uint64_t)addr - (uint64_t)a->app) >> a->frame_shift;
    if (a->mode == QS_MODE_BARE) return bare_fault(a, i, is_write);
    uint64_t t0 = now_ns();
    int handled = resolve(a, i, (uint64_t)addr, is_write, sig == SIGBUS && a->minor_uffd >= 0);
    qs_count(a, QS_C_HANDLER_NS, now_ns() - t0);
    return handled;
}
