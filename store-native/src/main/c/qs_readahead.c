/*
 * qs_readahead.c - clustered read-ahead in the fault path: a read fault on a RESERVED frame also loads the
 * RESERVED frames that follow it and hold the following pages of the same file, with one pread and (in
 * qs_fault.c) one mprotect for the whole run.
 *
 * Why: QuickStore clusters objects that are used together onto neighbouring pages (White and DeWitt 1994,
 * section 5.2, cold T1: "almost all of the I/O activity during T1 resulted from reading clusters of composite
 * parts", footnote 4: a composite part's atomic parts and connections are clustered with it); Texas (Kakkad
 * and Wilson 1999, section 3.3, "Data Fetching") separates the fetching granularity from the mapping one and
 * suggests "prefetching several (consecutive) pages instead of a single faulted-on page". Here the
 * protection unit stays one frame, the fetch unit becomes a run of up to `readahead` frames. A cold fault costs a signal, a handler, a pread into memory the kernel must
 * allocate and zero, an mprotect that splits the mapping, and a minor fault of the application view
 * (docs/results.md, "Cold path (issue 13)"); a run pays the signal, the syscalls and the VMA split once.
 *
 * Rules it keeps (docs/native.md, "Read-ahead"):
 *  - only a stream reads ahead: the frame before the faulting one must be resident with the page before its
 *    page (the page cache's rule for starting read-ahead: a sequential access, not a jump), so a fault that
 *    lands alone (an index lookup, a traversal that touches one page per cluster) reads one page;
 *  - only frames in state RESERVED are claimed (CAS to LOADING, like a fault), never a resident, transient,
 *    refused or free one; the run ends at the first frame that is not claimable, that has another source or
 *    page, or that would exceed the pool bound (read-ahead never evicts and never overcommits: a
 *    speculative page is not worth a victim);
 *  - the file source only (a source with read_run); not under page locking (each page's lock is the
 *    server's business) and not when pre-images are taken at load (scanning);
 *  - every page is verified (CRC32C) and relocated/swizzled exactly as a single load is (qs_finish_load);
 *    a neighbour whose checksum fails, or that lies beyond the end of the file, is dropped back to
 *    RESERVED (its memory punched), so a later fault on it reads it alone and refuses it as before.
 *
 * EVERYTHING IN THIS FILE IS ASYNC-SIGNAL-SAFE: pread (through the source), fallocate, C11 atomics.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>

#define QS_READAHEAD_MAX 64

/* [signal-safe] one more resident frame if the pool bound allows it without eviction */
static int resident_try(struct qs_arena *a) {
    uint64_t max = atomic_load_explicit(&a->max_resident, memory_order_relaxed);
    uint64_t r = atomic_load(&a->resident);
    for (;;) {
        if (max != 0 && r >= max) return 0;
        if (atomic_compare_exchange_weak(&a->resident, &r, r + 1)) return 1;
    }
}

/* [signal-safe] frames (i, i + n): punch, give back their residency, RESERVED again */
void qs_readahead_drop(struct qs_arena *a, uint64_t i, int64_t n) {
    if (n <= 1) return;
    qs_punch(a, i + 1, (uint64_t)(n - 1));
    for (int64_t k = 1; k < n; k++) {
        atomic_fetch_sub(&a->resident, 1);
        qs_frame_unlock(qs_frame_at(a, i + (uint64_t)k), QS_RESERVED);
    }
}

/* [signal-safe] drops one neighbour j (claimed, resident counted) */
static void drop_one(struct qs_arena *a, uint64_t j) {
    qs_punch(a, j, 1);
    atomic_fetch_sub(&a->resident, 1);
    qs_frame_unlock(qs_frame_at(a, j), QS_RESERVED);
}

int64_t qs_readahead_load(struct qs_arena *a, uint64_t i, int *err) {
    uint32_t want = atomic_load_explicit(&a->readahead, memory_order_relaxed);
    if (want <= 1 || a->preimage_on_load || atomic_load_explicit(&a->locking, memory_order_acquire)) return 0;
    struct qs_frame *f = qs_frame_at(a, i);
    struct qs_source *s = &a->sources[f->source];
    if (s->ops == NULL || s->ops->read_run == NULL) return 0;
    /* a stream, not a jump: only when the frame before i holds the page before i's (resident, read by a fault
     * or ahead), as the page cache's on-demand read-ahead starts only on sequential reads; a fault that
     * lands in the middle of nothing (a lookup, T6's one page per composite part) reads its page alone */
    if (i == 0) return 0;
    struct qs_frame *p = qs_frame_at(a, i - 1);
    uint32_t ps = qs_state(atomic_load_explicit(&p->state, memory_order_acquire));
    if ((ps != QS_CLEAN && ps != QS_DIRTY) || p->source != f->source || p->page_no + 1 != f->page_no) return 0;
    uint64_t hwm = atomic_load(&a->hwm);
    int64_t n = 1; /* frame i is claimed by the caller */
    while ((uint64_t)n < want && i + (uint64_t)n < hwm) {
        uint64_t j = i + (uint64_t)n;
        struct qs_frame *g = qs_frame_at(a, j);
        uint32_t st = atomic_load_explicit(&g->state, memory_order_acquire);
        if (st != QS_RESERVED || g->source != f->source || g->page_no != f->page_no + (uint64_t)n) break;
        if (!atomic_compare_exchange_strong(&g->state, &st, QS_LOADING)) break;
        /* re-check under the claim: the control plane changes page and source only while it holds the frame */
        if (g->source != f->source || g->page_no != f->page_no + (uint64_t)n || !resident_try(a)) {
            qs_frame_unlock(g, QS_RESERVED);
            break;
        }
        n++;
    }
    if (n == 1) return 0; /* nothing to read ahead: the caller loads frame i alone */
    int64_t got = s->ops->read_run(s, f->page_no, qs_alias_addr(a, i), (size_t)n << a->frame_shift);
    if (got < 0) {
        qs_readahead_drop(a, i, n);
        *err = (int)-got;
        return -QS_R_IO;
    }
    int64_t complete = got >> a->frame_shift;
    if (complete == 0) { /* the faulting page itself is beyond the end of the file */
        qs_readahead_drop(a, i, n);
        *err = EIO;
        return -QS_R_IO;
    }
    if (complete < n) { /* the end of the file: the pages after it are not installed */
        qs_readahead_drop(a, i + (uint64_t)complete - 1, n - complete + 1);
        n = complete;
    }
    int r = qs_finish_load(a, i, err);
    if (r != 0) {
        qs_readahead_drop(a, i, n);
        return -r;
    }
    /* neighbours: a bad checksum drops only that frame; the run shrinks to the good frames before it */
    for (int64_t k = 1; k < n; k++) {
        int e2 = 0;
        if (qs_finish_load(a, i + (uint64_t)k, &e2) != 0) {
            drop_one(a, i + (uint64_t)k);
            qs_readahead_drop(a, i + (uint64_t)k, n - k);
            n = k;
            break;
        }
    }
    return n;
}

void qs_readahead_publish(struct qs_arena *a, uint64_t i, int64_t n) {
    for (int64_t k = 1; k < n; k++) {
        struct qs_frame *g = qs_frame_at(a, i + (uint64_t)k);
        atomic_fetch_and(&g->flags, ~QS_F_PROTNONE);
        atomic_fetch_or(&g->flags, QS_F_REF);
        qs_frame_unlock(g, QS_CLEAN);
    }
    if (n > 1) qs_count(a, QS_C_READAHEAD, (uint64_t)(n - 1));
}

/* Selects read-ahead: a read fault loads up to `frames` frames (itself included); 0 or 1 turns it off.
 * -EINVAL above QS_READAHEAD_MAX. Takes effect at the next fault. */
QS_EXPORT int qs_arena_set_readahead(struct qs_arena *a, uint32_t frames) {
    if (frames > QS_READAHEAD_MAX) return -EINVAL;
    atomic_store(&a->readahead, frames);
    return 0;
}
