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
 *    RESERVED (its memory punched), so a later fault on it reads it alone and refuses it as before;
 *  - a run is read into the arena's run buffer (ra_buf), checked there, and its good prefix written into the
 *    memfd with one pwrite, as a single load goes through a load buffer (qs_source.c, "Loads through a buffer"):
 *    a pread into the alias view takes two minor faults per 8 KiB frame on pages the alias has never mapped,
 *    which is where a run's time went (docs/results.md, "Read-ahead through a buffer"). Into the alias as
 *    before when the buffer is held by another run, when a frame of the run is relocated (qs_xlate_page works
 *    on the alias bytes), under Texas, while qs_allocate runs (fallocate holds the inode lock pwrite needs)
 *    and in tests that ask for it (qs_test_readahead_alias).
 *
 * EVERYTHING IN THIS FILE IS ASYNC-SIGNAL-SAFE (pread through the source, pwrite, fallocate, C11 atomics) except
 * qs_arena_set_readahead's mapping of the run buffer under ctl_lock: the control plane's call, never the handler's.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>

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

/* [signal-safe] The run buffer for frames [i, i + n) (claimed), or NULL when the run must read into the alias. */
static uint8_t *run_buffer_claim(struct qs_arena *a, uint64_t i, int64_t n) {
    uint8_t *buf = atomic_load_explicit(&a->ra_buf, memory_order_acquire);
    if (buf == NULL || atomic_load_explicit(&a->test_ra_alias, memory_order_relaxed) ||
        atomic_load_explicit(&a->texas, memory_order_acquire) != NULL ||
        atomic_load_explicit(&a->allocating, memory_order_acquire) != 0)
        return NULL;
    for (int64_t k = 0; k < n; k++)
        if (atomic_load_explicit(&qs_frame_at(a, i + (uint64_t)k)->flags, memory_order_relaxed) & QS_F_RELOCATED)
            return NULL;
    uint32_t idle = 0;
    if (!atomic_compare_exchange_strong_explicit(&a->ra_busy, &idle, 1, memory_order_acquire, memory_order_relaxed))
        return NULL;
    return buf;
}

/* [signal-safe] Frames [i, i + n) claimed (i by the fault, LOADING; the others counted resident): their pages read
 * into the run buffer, checked there, and the pages up to the first bad one written into the memfd with one pwrite.
 * Same results as the read into the alias below: the run installed (its length; 1 = frame i alone, loaded), or a
 * refusal of frame i (negative) with the neighbours dropped. */
static int64_t load_run_buffered(struct qs_arena *a, uint64_t i, int64_t n, uint8_t *buf, int *err) {
    struct qs_frame *f = qs_frame_at(a, i);
    struct qs_source *s = &a->sources[f->source];
    int64_t got = s->ops->read_run(s, f->page_no, buf, (size_t)n << a->frame_shift);
    int64_t good = got < 0 ? 0 : got >> a->frame_shift; /* complete pages */
    if (good > n) good = n;
    int64_t read = good; /* pages read and checked: the good ones and a bad one */
    if (good > 0 && atomic_load_explicit(&a->verify, memory_order_relaxed)) {
        for (int64_t k = 0; k < good; k++) {
            if (!qs_page_verify(buf + ((uint64_t)k << a->frame_shift), a->frame_size)) {
                read = k + 1;
                good = k;
                break;
            }
        }
    }
    int rc = good > 0 ? qs_memfd_write(a, buf, (size_t)good << a->frame_shift, (off_t)(i << a->frame_shift)) : 0;
    atomic_store_explicit(&a->ra_busy, 0, memory_order_release);
    qs_count(a, QS_C_BYTES_READ, (uint64_t)read * a->frame_size);
    if (got < 0 || rc < 0 || good == 0) {
        qs_readahead_drop(a, i, n);
        if (got < 0 || rc < 0) {
            *err = got < 0 ? (int)-got : -rc;
            return -QS_R_IO;
        }
        *err = read == 0 ? EIO : 0; /* the faulting page beyond the end of the file, or its checksum */
        return read == 0 ? -QS_R_IO : -QS_R_CHECKSUM;
    }
    if (good < n) qs_readahead_drop(a, i + (uint64_t)good - 1, n - good + 1); /* the end of the file, a bad page */
    for (int64_t k = 0; k < good; k++)
        atomic_fetch_add_explicit(&qs_frame_at(a, i + (uint64_t)k)->loads, 1, memory_order_relaxed);
    return good;
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
    uint8_t *buf = run_buffer_claim(a, i, n);
    if (buf != NULL) return load_run_buffered(a, i, n, buf, err);
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
    if (frames > 1 && atomic_load_explicit(&a->ra_buf, memory_order_acquire) == NULL) {
        /* the run buffer, mapped and populated here (the control plane), never in the handler; without it runs read
         * into the alias view, as before */
        pthread_mutex_lock(&a->ctl_lock);
        if (atomic_load_explicit(&a->ra_buf, memory_order_relaxed) == NULL) {
            void *b = mmap(NULL, (size_t)QS_READAHEAD_MAX << a->frame_shift, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
            if (b != MAP_FAILED) atomic_store_explicit(&a->ra_buf, (uint8_t *)b, memory_order_release);
        }
        pthread_mutex_unlock(&a->ctl_lock);
    }
    atomic_store(&a->readahead, frames);
    return 0;
}

/* Tests: read-ahead runs read into the alias view (1) or through the run buffer when they can (0, the default). */
QS_EXPORT void qs_test_readahead_alias(struct qs_arena *a, uint32_t on) { atomic_store(&a->test_ra_alias, on); }
