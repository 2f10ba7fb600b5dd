/*
 * qs_frames.c - control-plane operations on the frame table (QuickStore section 3.3 page
 * descriptors; section 3.5 buffer pool management and the simplified clock that reprotects the
 * whole space; Texas: frames are reserved for pages before they are touched).
 *
 * Every function here is called by Java through an FFM downcall, i.e. in native thread state: it
 * may wait for a transient frame state (LOADING/BUSY owned by a fault handler or another downcall),
 * and every transient state it enters it leaves before returning (design-notes section 2, rule 2).
 * Runs of locked frames are (re)protected with one mprotect each, keeping VMAs coalesced.
 *
 * Return values: >= 0 success (a count where documented), negative = -errno.
 */
#include "qs_arena.h"
#include "qs_export.h"
#include "qs_api.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static int range_ok(struct qs_arena *a, uint64_t first, uint64_t n) {
    return n > 0 && first < a->nframes && n <= a->nframes - first;
}

static void bump_hwm(struct qs_arena *a, uint64_t end) {
    uint64_t h = atomic_load(&a->hwm);
    while (h < end && !atomic_compare_exchange_weak(&a->hwm, &h, end)) {}
}

static int is_resident(uint32_t s) { return s == QS_CLEAN || s == QS_DIRTY; }

QS_EXPORT int64_t qs_release(struct qs_arena *a, uint64_t first, uint64_t n);

/* qs_restore_view, and the new mapping registered with the userfaultfd: of kernel write tracking (qs_kwp.c), or of
 * minor faults (qs_minor.c) */
static int restore_view(struct qs_arena *a, uint64_t i) {
    int e = qs_restore_view(a, i);
    if (e == 0 && a->kwp) qs_kwp_reregister(a, i);
    if (e == 0) qs_minor_reregister(a, i);
    return e;
}

/* Drops the bytes and protection of a locked frame (state held BUSY by the caller): the caller
 * protects/punches the whole run afterwards. Returns 1 if the frame held bytes. */
static int drop_locked(struct qs_arena *a, uint64_t i, uint32_t was) {
    struct qs_frame *f = qs_frame_at(a, i);
    int had = is_resident(was);
    if (was == QS_REFUSED) {
        restore_view(a, i);
        if (atomic_load(&f->flags) & QS_F_SCRATCH_COW) had = is_resident(f->prior_state);
    }
    qs_preimage_free(a, f);
    atomic_fetch_and(&f->flags, ~(QS_F_PROTNONE | QS_F_REF | QS_F_SCRATCH_COW | QS_F_ZAPPED));
    return had;
}

/* Reserves frames [first, first+n) for pages [first_page, first_page+n) of a source. Frames must be
 * FREE, RESERVED or REFUSED-and-not-resident; a resident frame makes the call fail with -EBUSY
 * (nothing changed). */
QS_EXPORT int64_t qs_reserve(struct qs_arena *a, uint64_t first, uint64_t n, uint32_t source, uint64_t first_page) {
    if (!range_ok(a, first, n)) return -ERANGE;
    if (source >= QS_MAX_SOURCES || a->sources[source].ops == NULL) return -EBADF;
    uint64_t i;
    int64_t rc = (int64_t)n;
    for (i = 0; i < n; i++) {
        struct qs_frame *f = qs_frame_at(a, first + i);
        uint32_t was = qs_frame_lock(a, f);
        if (is_resident(was) || (was == QS_REFUSED && (atomic_load(&f->flags) & QS_F_SCRATCH_COW))) {
            qs_frame_unlock(f, was);
            rc = -EBUSY;
            break;
        }
        if (was == QS_REFUSED) restore_view(a, first + i);
        f->page_no = first_page + i;
        f->source = (uint16_t)source;
        f->reason = 0;
        /* Java's holds survive (ABI 6); so does the record of a changed view (qs_view_untouched) */
        atomic_store(&f->flags, atomic_load(&f->flags) & (QS_F_HOLDS | QS_F_VIEW_TOUCHED));
        qs_frame_unlock(f, QS_RESERVED);
    }
    if (rc < 0) {
        /* undo the frames reserved by this call; they may have been faulted in meanwhile, so drop
         * them properly (they end FREE with the RELEASED flag) */
        if (i > 0) qs_release(a, first, i);
        return rc;
    }
    bump_hwm(a, first + n);
    return rc;
}

/* Common body of release/evict/reset: lock the run, drop selected frames, one mprotect + punch per
 * contiguous run of dropped frames, unlock. select(was) returns the new state or UINT32_MAX to keep. */
static int64_t drop_run(struct qs_arena *a, uint64_t first, uint64_t n, uint32_t (*select)(struct qs_arena *, struct qs_frame *, uint32_t),
                        int count_evictions, int mark_released, int punch) {
    if (!range_ok(a, first, n)) return -ERANGE;
    int64_t dropped = 0;
    uint64_t run_start = 0, run = 0, freed = 0;
    int run_keeps = 0; /* every frame of the run keeps its view (see below) */
    for (uint64_t k = 0; k <= n; k++) {
        int take = 0;
        if (k < n) {
            uint64_t i = first + k;
            struct qs_frame *f = qs_frame_at(a, i);
            uint32_t was = qs_frame_lock(a, f);
            uint32_t to = select(a, f, was);
            /* a plain evict also frees the memory a keep-memory eviction left on a RESERVED frame
             * (not counted: the frame was not resident) */
            if (to == UINT32_MAX && count_evictions && punch && was == QS_RESERVED) to = QS_RESERVED;
            if (to == UINT32_MAX) {
                qs_frame_unlock(f, was);
            } else {
                take = 1;
                /* where the arena zaps (qs_zaps), an eviction whose punch frees the memory leaves the view of a frame
                 * that has the clean protection as it is (CLEAN and not PROT_NONE, or RESERVED with its view
                 * untouched): the punch unmaps its pages, its next access is a missing fault, its reload needs no
                 * mprotect. A run is protected as before unless every frame of it keeps its view. */
                int keeps = count_evictions && punch && to == QS_RESERVED
                    && qs_eviction_keeps_view(a, was, atomic_load(&f->flags));
                run_keeps = run == 0 ? keeps : run_keeps && keeps;
                freed += (uint64_t)drop_locked(a, i, was);
                f->prior_state = to; /* the state to publish once the run is protected */
                if (run == 0) run_start = i;
                run++;
                if (!count_evictions || is_resident(was)) dropped++;
            }
        }
        if (!take && run > 0) {
            if (!run_keeps) mprotect(qs_app_addr(a, run_start), run << a->frame_shift, PROT_NONE);
            if (punch) qs_punch(a, run_start, run);
            for (uint64_t j = run_start; j < run_start + run; j++) {
                struct qs_frame *g = qs_frame_at(a, j);
                /* released or evicted while RESERVED too: its view is NONE now, or kept with the clean protection */
                if (run_keeps) atomic_fetch_and(&g->flags, ~QS_F_VIEW_TOUCHED);
                else atomic_fetch_or(&g->flags, QS_F_VIEW_TOUCHED);
                if (mark_released) atomic_fetch_or(&g->flags, QS_F_RELEASED);
                qs_frame_unlock(g, g->prior_state);
            }
            run = 0;
        }
    }
    atomic_fetch_sub(&a->resident, freed);
    if (count_evictions) qs_count(a, QS_C_EVICTIONS, freed);
    if (freed) qs_clock_retry(a);
    return dropped;
}

static uint32_t sel_release(struct qs_arena *a, struct qs_frame *f, uint32_t was) { (void)a; (void)f; (void)was; return QS_FREE; }
static uint32_t sel_evict(struct qs_arena *a, struct qs_frame *f, uint32_t was) {
    if (was != QS_CLEAN) return UINT32_MAX;
    /* kernel tracking: a twin frame stored to since its twin is dirty in all but name (qs_kwp.c) */
    uint32_t fl = atomic_load(&f->flags);
    if (fl & QS_F_OPEN) return UINT32_MAX;
    if ((fl & QS_F_TWIN) && qs_kwp_stays(a, (uint64_t)(f - a->frames))) return UINT32_MAX;
    return QS_RESERVED;
}
static uint32_t sel_discard(struct qs_arena *a, struct qs_frame *f, uint32_t was) {
    (void)a;
    (void)f;
    return (was == QS_CLEAN || was == QS_DIRTY) ? QS_RESERVED : UINT32_MAX;
}
static uint32_t sel_reset(struct qs_arena *a, struct qs_frame *f, uint32_t was) {
    (void)a;
    if (was != QS_REFUSED) return UINT32_MAX;
    return (f->prior_state == QS_FREE) ? QS_FREE : QS_RESERVED;
}

/* Releases frames: the page assignment is dropped, bytes punched out, PROT_NONE; a later fault is
 * refused with RELEASED. Returns the number of frames released. */
QS_EXPORT int64_t qs_release(struct qs_arena *a, uint64_t first, uint64_t n) { return drop_run(a, first, n, sel_release, 0, 1, 1); }

/* Evicts the CLEAN frames of a run (Java's replacer chose them): PROT_NONE, the page stays assigned
 * (the next fault re-reads it). flags: QS_EVICT_DISCARD also drops DIRTY frames and their pre-images
 * (abort). The frames' memory is punched out of the memfd unless QS_EVICT_KEEP_MEMORY is given: then
 * it stays allocated and mapped in the alias view, so the next load of the frame reads straight into
 * it (a read into a punched page allocates and zeroes memory and takes page faults inside pread,
 * about 5 us of the fault path on the reference machine). The kept bytes are stale and never visible:
 * the application view stays PROT_NONE until a load has overwritten the whole frame. A plain evict
 * frees such kept memory of RESERVED frames in its range too. Returns the number of frames evicted. */
QS_EXPORT int64_t qs_evict(struct qs_arena *a, uint64_t first, uint64_t n, int flags) {
    return drop_run(a, first, n, (flags & QS_EVICT_DISCARD) ? sel_discard : sel_evict, 1, 0, !(flags & QS_EVICT_KEEP_MEMORY));
}

/* Allocates the memory of frames [first, first+n) and maps it in the alias view ahead of their first
 * load (MADV_POPULATE_WRITE; off the fault path), so that the load does not allocate (see qs_evict).
 * Never changes bytes or states, so it needs no frame lock. Returns n or -errno. */
QS_EXPORT int64_t qs_populate(struct qs_arena *a, uint64_t first, uint64_t n) {
    if (!range_ok(a, first, n)) return -ERANGE;
    if (madvise(qs_alias_addr(a, first), n << a->frame_shift, MADV_POPULATE_WRITE) == 0) return (int64_t)n;
    int e = errno;
    if (e != EINVAL) return -e;
    /* kernels before 5.14: allocate only (the alias mapping then takes minor faults in the load) */
    if (fallocate(a->memfd, 0, (off_t)(first << a->frame_shift), (off_t)(n << a->frame_shift)) != 0) return -errno;
    return (int64_t)n;
}

/* Allocates (and zeroes) the memfd memory behind frames [first, first+n) with fallocate, without mapping
 * it. Unlike qs_populate it takes no mmap lock - it is an operation on the memfd's inode, not on the
 * address space - so a fault's mprotect never waits behind it; a load then takes one minor fault on the
 * alias view (a page-cache lookup) but allocates and zeroes nothing. For the control plane's background
 * allocation at open (ArenaPopulator); changes no bytes and no states. Returns n or -errno. */
QS_EXPORT int64_t qs_allocate(struct qs_arena *a, uint64_t first, uint64_t n) {
    if (!range_ok(a, first, n)) return -ERANGE;
    /* fallocate holds the memfd's inode lock for the whole run, which a load by pwrite needs too: while this
     * runs, loads read into the alias view instead (qs_source.c) */
    atomic_fetch_add_explicit(&a->allocating, 1, memory_order_acq_rel);
    int rc = fallocate(a->memfd, 0, (off_t)(first << a->frame_shift), (off_t)(n << a->frame_shift)) != 0 ? -errno : 0;
    atomic_fetch_sub_explicit(&a->allocating, 1, memory_order_acq_rel);
    return rc < 0 ? rc : (int64_t)n;
}

/* Resets REFUSED frames: the scratch page is replaced by the shared view again and the frame goes
 * back to RESERVED (page assigned: the next access re-reads it) or FREE. Returns frames reset. */
QS_EXPORT int64_t qs_reset_refused(struct qs_arena *a, uint64_t first, uint64_t n) {
    int64_t r = drop_run(a, first, n, sel_reset, 0, 0, 1);
    qs_vma_reserve_refill(a);
    return r;
}


/* QuickStore's simplified clock (section 3.5): reprotect every frame to PROT_NONE in as few
 * mprotect calls as possible. Resident frames keep their bytes (flag PROTNONE, REF cleared); the next
 * access takes a cheap reference fault. Frames in a transient state or REFUSED are skipped (they
 * only break runs). Works in chunks so faulting threads wait at most one chunk. Returns the number
 * of resident frames reprotected. */
QS_EXPORT int64_t qs_reprotect_all(struct qs_arena *a) {
    if (a->mode == QS_MODE_BARE) /* benchmark baseline: no frame table, one mprotect */
        return mprotect(a->app, a->size, PROT_NONE) == 0 ? 0 : -errno;
    return qs_reprotect_range(a, 0, atomic_load(&a->hwm));
}

/* The per-frame clock's hand (classic clock driven by reprotection): reprotects the run [first,
 * first+n) to PROT_NONE in one mprotect per run of lockable frames, exactly as qs_reprotect_all does
 * for the whole arena (flag PROTNONE, REF cleared; the next access takes a reference fault). Returns the
 * number of resident frames reprotected, or -ERANGE. */
QS_EXPORT int64_t qs_reprotect(struct qs_arena *a, uint64_t first, uint64_t n) {
    if (!range_ok(a, first, n)) return -ERANGE;
    if (a->mode == QS_MODE_BARE) return -EINVAL;
    uint64_t end = atomic_load(&a->hwm);
    uint64_t hi = first + n < end ? first + n : end;
    return first < hi ? qs_reprotect_range(a, first, hi) : 0;
}

/* Frame state for Java: state | flags << 8. */
QS_EXPORT uint32_t qs_frame_state(struct qs_arena *a, uint64_t i) {
    if (i >= a->nframes) return 0xffffffffu;
    struct qs_frame *f = qs_frame_at(a, i);
    return qs_state(atomic_load(&f->state)) | (atomic_load(&f->flags) << 8);
}
QS_EXPORT uint64_t qs_frame_page(struct qs_arena *a, uint64_t i) { return i < a->nframes ? qs_frame_at(a, i)->page_no : 0; }
QS_EXPORT uint32_t qs_frame_source(struct qs_arena *a, uint64_t i) { return i < a->nframes ? qs_frame_at(a, i)->source : 0; }
QS_EXPORT uint32_t qs_frame_loads(struct qs_arena *a, uint64_t i) { return i < a->nframes ? atomic_load(&qs_frame_at(a, i)->loads) : 0; }

static int listed_dirty(struct qs_arena *a, uint64_t i) {
    uint32_t s = atomic_load_explicit(&qs_frame_at(a, i)->state, memory_order_acquire);
    /* a BUSY frame with a pre-image is dirty too (e.g. under reprotection) */
    return s == QS_DIRTY || (qs_state(s) == QS_BUSY && qs_frame_at(a, i)->preimage_slot);
}

/* Fills out[0..max) with the indices of DIRTY frames >= from, ascending; returns how many (fewer than max:
 * there are no more). Visits only the groups of 64 frames whose dirty-summary bit is set (struct qs_arena,
 * dirty_groups): a group's bit is cleared, the whole group scanned, and the bit set again if a frame of it
 * is still dirty. */
QS_EXPORT int64_t qs_dirty_list(struct qs_arena *a, uint64_t from, uint64_t *out, uint64_t max) {
    uint64_t end = atomic_load(&a->hwm), n = 0;
    for (uint64_t g = from >> 6; (g << 6) < end && n < max; g++) {
        _Atomic uint64_t *w = &a->dirty_groups[g >> 6];
        uint64_t bit = (uint64_t)1 << (g & 63);
        if ((g & 63) == 0 && atomic_load(w) == 0) { g += 63; continue; } /* 4,096 frames, none dirty */
        if (!(atomic_load(w) & bit)) continue;
        atomic_fetch_and(w, ~bit);
        int any = 0;
        uint64_t hi = (g << 6) + 64 < end ? (g << 6) + 64 : end;
        for (uint64_t i = g << 6; i < hi; i++) {
            if (!listed_dirty(a, i)) continue;
            any = 1;
            if (i >= from && n < max) out[n++] = i;
        }
        if (any) atomic_fetch_or(w, bit);
    }
    return (int64_t)n;
}

/* Address of the pre-image of a DIRTY frame, or of a twin (qs_kwp.c) (native-managed, valid until the frame is cleaned,
 * evicted or released), or 0. */
QS_EXPORT uint64_t qs_preimage_of(struct qs_arena *a, uint64_t i) {
    if (i >= a->nframes) return 0;
    uint32_t slot = qs_frame_at(a, i)->preimage_slot;
    return slot ? (uint64_t)qs_preimage_addr(a, slot) : 0;
}

/* After Java has written a dirty page back under the WAL rule: DIRTY -> CLEAN, pre-image freed,
 * write protection restored so the next store faults again. Returns 1 if it was dirty, 0 if not. */
QS_EXPORT int qs_mark_clean(struct qs_arena *a, uint64_t i) {
    if (i >= a->nframes) return -ERANGE;
    struct qs_frame *f = qs_frame_at(a, i);
    uint32_t was = qs_frame_lock(a, f);
    if (was != QS_DIRTY) { qs_frame_unlock(f, was); return 0; }
    /* card marking: a clean frame stays writable (no mprotect at all) */
    if (!(atomic_load(&f->flags) & QS_F_PROTNONE) && !(a->clean_prot & PROT_WRITE)) {
        int e = qs_protect_frame(a, i, PROT_READ);
        if (e) { qs_frame_unlock(f, was); return -e; }
    }
    qs_preimage_free(a, f);
    atomic_fetch_and(&f->flags, ~QS_F_VIEW_RO);
    qs_frame_unlock(f, QS_CLEAN);
    qs_clock_retry(a);
    return 1;
}

/* Where a clean list puts the pre-images of the frames it cleans: NULL = freed (qs_mark_clean_list), else
 * detached and handed to the caller (qs_mark_clean_list_detach): slots[k] and addrs[k] for listed frame k. */
struct detach_out {
    uint64_t *slots;
    uint64_t *addrs;
};

/* Ends the dirty period of DIRTY frame f (held BUSY, k-th in the list): its pre-image is freed or, with out,
 * detached into out->slots[k] / out->addrs[k]. The caller unlocks it CLEAN. */
static void end_dirty(struct qs_arena *a, struct qs_frame *f, const struct detach_out *out, uint64_t k) {
    if (out == NULL) {
        qs_preimage_free(a, f);
    } else {
        uint32_t slot1 = qs_preimage_detach(a, f);
        out->slots[k] = slot1;
        out->addrs[k] = slot1 ? (uint64_t)qs_preimage_addr(a, slot1) : 0;
    }
    atomic_fetch_and(&f->flags, ~QS_F_VIEW_RO);
}

/* Ends a run [lo, lo+n) of frames held BUSY by the caller - the DIRTY frames being cleaned and the CLEAN,
 * read-only frames between them (bridges, already PROT_READ) - with one mprotect(READ) for the whole run
 * (per frame, collapsing protection islands, if the kernel is out of mappings); then each DIRTY frame is
 * CLEAN with its pre-image freed (or detached: the run's DIRTY frames are listed frames k0, k0+1, ... in
 * order) and each bridge is CLEAN as before. On failure the DIRTY frames stay DIRTY.
 * Returns the DIRTY frames cleaned, or -errno. */
static int64_t clean_run(struct qs_arena *a, uint64_t lo, uint64_t n, const struct detach_out *out, uint64_t k0) {
    int e = mprotect(qs_app_addr(a, lo), n << a->frame_shift, PROT_READ) == 0 ? 0 : errno;
    if (e == ENOMEM) {
        e = 0;
        for (uint64_t j = lo; j < lo + n && e == 0; j++) e = qs_protect_frame(a, j, PROT_READ);
    }
    int64_t cleaned = 0;
    uint64_t k = k0;
    for (uint64_t j = lo; j < lo + n; j++) {
        struct qs_frame *f = qs_frame_at(a, j);
        if (f->prior_state != QS_DIRTY) { qs_frame_unlock(f, QS_CLEAN); continue; } /* a bridge */
        if (e) { qs_frame_unlock(f, QS_DIRTY); qs_dirty_note(a, j); k++; continue; }
        end_dirty(a, f, out, k++);
        qs_frame_unlock(f, QS_CLEAN);
        cleaned++;
    }
    if (e) return -e;
    qs_clock_retry(a);
    return cleaned;
}

/* Whether frame i is CLEAN and read-only now (a bridge a run may cover: mprotect(READ) changes nothing
 * for it); if so it is locked BUSY with prior_state CLEAN. */
static int lock_bridge(struct qs_arena *a, uint64_t i) {
    struct qs_frame *f = qs_frame_at(a, i);
    uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
    if (s != QS_CLEAN || (atomic_load(&f->flags) & (QS_F_PROTNONE | QS_F_TWIN | QS_F_OPEN)) || (a->clean_prot & PROT_WRITE))
        return 0;
    if (!atomic_compare_exchange_strong_explicit(&f->state, &s, QS_BUSY, memory_order_acq_rel, memory_order_relaxed))
        return 0;
    if (atomic_load(&f->flags) & (QS_F_PROTNONE | QS_F_TWIN | QS_F_OPEN)) { qs_frame_unlock(f, QS_CLEAN); return 0; }
    f->prior_state = QS_CLEAN;
    return 1;
}

/* The body of qs_mark_clean_list and qs_mark_clean_list_detach (see there); out = NULL frees the pre-images. */
static int64_t clean_list(struct qs_arena *a, const uint64_t *frames, uint64_t n, uint32_t bridge,
                          const struct detach_out *out) {
    int64_t cleaned = 0;
    uint64_t lo = 0, len = 0, lo_k = 0; /* the run held: [lo, lo+len), its first frame listed at lo_k */
#define QS_END_RUN()                                               \
    do {                                                           \
        int64_t c_ = clean_run(a, lo, len, out, lo_k);             \
        if (c_ < 0) return c_;                                     \
        cleaned += c_;                                             \
        len = 0;                                                   \
    } while (0)
    for (uint64_t k = 0; k < n; k++) {
        uint64_t i = frames[k];
        if (i >= a->nframes || (k > 0 && i <= frames[k - 1])) {
            if (len > 0) QS_END_RUN();
            return -EINVAL;
        }
        /* extend the run to i across bridges, or end it */
        if (len > 0) {
            uint64_t end = lo + len, b = end;
            int joined = i >= end && i - end <= bridge;
            while (joined && b < i) {
                if (lock_bridge(a, b)) b++;
                else joined = 0;
            }
            if (!joined) {
                for (uint64_t u = end; u < b; u++) qs_frame_unlock(qs_frame_at(a, u), QS_CLEAN);
                QS_END_RUN();
            } else {
                len = i - lo;
            }
        }
        struct qs_frame *f = qs_frame_at(a, i);
        uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
        if (len > 0 && (qs_state(s) == QS_BUSY || qs_state(s) == QS_LOADING)) QS_END_RUN(); /* release before waiting */
        uint32_t was = qs_frame_lock(a, f);
        int keep_open = a->kwp && out != NULL && !a->kwp_broken; /* kernel tracking: stays writable (qs_kwp_settle) */
        if (was != QS_DIRTY || (atomic_load(&f->flags) & QS_F_PROTNONE) || (a->clean_prot & PROT_WRITE) || keep_open) {
            if (was == QS_DIRTY) { /* reprotected by the clock, or card marking: no mprotect (qs_mark_clean) */
                end_dirty(a, f, out, k);
                if (keep_open) atomic_fetch_or(&f->flags, QS_F_OPEN);
                qs_frame_unlock(f, QS_CLEAN);
                cleaned++;
            } else {
                qs_frame_unlock(f, was);
            }
            if (len > 0) QS_END_RUN();
            continue;
        }
        f->prior_state = QS_DIRTY;
        if (len == 0) { lo = i; lo_k = k; }
        len = i - lo + 1;
    }
    if (len > 0) QS_END_RUN();
#undef QS_END_RUN
    return cleaned;
}

/* qs_mark_clean for the listed frames (ascending; commit ends the dirty state of the pages it logged; ABI
 * 8), with one mprotect per run instead of one per frame: a run is a sequence of listed DIRTY frames and
 * the CLEAN read-only frames between them (at most `bridge` in a row), whose protection READ already is.
 * Frames not DIRTY when reached are left alone; a run is ended (its frames released) before waiting for a
 * frame in a transient state, so the caller never holds one frame while waiting for another. Returns the
 * number of frames cleaned, or -errno (earlier runs are clean; the rest stays DIRTY). */
QS_EXPORT int64_t qs_mark_clean_list(struct qs_arena *a, const uint64_t *frames, uint64_t n, uint32_t bridge) {
    return clean_list(a, frames, n, bridge, NULL);
}

/* qs_mark_clean_list that DETACHES each cleaned frame's pre-image instead of freeing it (ABI 13): slots[k]
 * receives the slot of listed frame k (0 when it had none or was not cleaned) and addrs[k] its address, so a
 * commit diffs each page against its pre-image in place after the clean point instead of copying it first. A
 * detached slot belongs to the caller: the frame's slot field is 0, so a write fault after the clean point
 * captures a fresh slot (the image at the clean point) and never reuses a detached one; its bytes stay intact
 * and counted in the pre-image budget until qs_preimage_release_list. Both arrays are zeroed first, so after
 * an error (-errno or -EINVAL) the caller still releases the non-zero entries: the frames of earlier runs were
 * cleaned. Returns the number of frames cleaned, or -errno. */
QS_EXPORT int64_t qs_mark_clean_list_detach(struct qs_arena *a, const uint64_t *frames, uint64_t n, uint32_t bridge,
                                            uint64_t *slots, uint64_t *addrs) {
    if (n == 0) return 0;
    if (slots == NULL || addrs == NULL) return -EINVAL;
    memset(slots, 0, n * sizeof *slots);
    memset(addrs, 0, n * sizeof *addrs);
    struct detach_out out = { slots, addrs };
    return clean_list(a, frames, n, bridge, &out);
}

/* Loads a reserved frame ahead of use (Texas: prefetching / reserving one step ahead) and makes it
 * readable, from Java: nothing is refused here, errors are returned. A resident frame reprotected
 * by the clock is made readable again. Does NOT collapse protection islands on ENOMEM (the fault path
 * does): the caller learns that the VMA limit is reached.
 * Returns 0 or a positive refusal reason (enum qs_reason) with *err = errno. */
QS_EXPORT int qs_prefetch(struct qs_arena *a, uint64_t i, int *err) {
    *err = 0;
    if (i >= a->nframes) { *err = ERANGE; return QS_R_NOT_RESERVED; }
    struct qs_frame *f = qs_frame_at(a, i);
    for (;;) {
        uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
        if (qs_state(s) == QS_LOADING || qs_state(s) == QS_BUSY) { qs_frame_wait(f, s); continue; }
        if (s == QS_FREE) return (atomic_load(&f->flags) & QS_F_RELEASED) ? QS_R_RELEASED : QS_R_NOT_RESERVED;
        if (s == QS_REFUSED) return (int)f->reason;
        if (s == QS_CLEAN || s == QS_DIRTY) {
            if (!(atomic_load(&f->flags) & QS_F_PROTNONE)) return 0;
            if (!atomic_compare_exchange_weak(&f->state, &s, QS_BUSY)) continue;
            if (mprotect(qs_app_addr(a, i), a->frame_size, s == QS_DIRTY ? PROT_READ | PROT_WRITE : qs_clean_prot_of(a, f)) != 0) {
                *err = errno;
                qs_frame_unlock(f, s);
                return QS_R_VMA_LIMIT;
            }
            atomic_fetch_and(&f->flags, ~QS_F_PROTNONE);
            qs_frame_unlock(f, s);
            return 0;
        }
        /* RESERVED */
        if (!atomic_compare_exchange_weak(&f->state, &s, QS_LOADING)) continue;
        qs_resident_acquire(a, i);
        int r = qs_load_frame(a, i, err);
        int untouched = r == 0 && qs_view_untouched(a, f);
        if (untouched) qs_count(a, QS_C_UNTOUCHED_LOADS, 1);
        if (r == 0 && !untouched && mprotect(qs_app_addr(a, i), a->frame_size, a->clean_prot) != 0) {
            *err = errno;
            r = QS_R_VMA_LIMIT;
        }
        if (r == 0) qs_minor_map(a, i, 1); /* minor faults: mapped ahead of use too (else by its first access) */
        if (r != 0) {
            qs_punch(a, i, 1);
            atomic_fetch_sub(&a->resident, 1);
            qs_frame_unlock(f, QS_RESERVED);
            return r;
        }
        qs_frame_unlock(f, QS_CLEAN);
        return 0;
    }
}

/* ---- the store's own I/O (store-core's MappedFrames; ABI 3) ----------------------------------
 * store-core reads and writes its own pages (allocator, slotted-page metadata, B+tree, roots)
 * through the alias view, which never faults. These calls keep the frame table in step with that:
 * each is one downcall, locks the frame with a CAS to BUSY and leaves the transient state before it
 * returns (design-notes section 2, rule 2). */

/* Repairs a REFUSED frame held BUSY by the caller without losing bytes: the shared mapping of the
 * memfd is put back over the scratch page. A frame refused while resident (copy-on-write scratch:
 * its memfd bytes, pre-image and state were never touched) becomes resident again with PROTNONE
 * (the next access takes a reference fault that sets its protection); any other refused frame goes
 * back to the state it had (RESERVED, or FREE keeping the RELEASED flag). Unlocks the frame. */
static void repair_locked(struct qs_arena *a, uint64_t i) {
    struct qs_frame *f = qs_frame_at(a, i);
    uint32_t fl = atomic_load(&f->flags);
    uint32_t prior = f->prior_state;
    restore_view(a, i);
    atomic_fetch_and(&f->flags, ~QS_F_SCRATCH_COW);
    if ((fl & QS_F_SCRATCH_COW) && is_resident(prior)) {
        atomic_fetch_and(&f->flags, ~QS_F_ZAPPED);
        atomic_fetch_or(&f->flags, QS_F_PROTNONE);
        qs_frame_unlock(f, prior);
        if (prior == QS_DIRTY) qs_dirty_note(a, i); /* DIRTY again: the summary must say so */
    } else {
        atomic_fetch_and(&f->flags, ~QS_F_PROTNONE);
        qs_frame_unlock(f, prior == QS_FREE ? QS_FREE : QS_RESERVED);
    }
    atomic_fetch_sub(&a->refused_frames, 1); /* after the state left REFUSED */
}

/* Repairs the REFUSED frames of [first, first+n) (see repair_locked). Returns how many. */
QS_EXPORT int64_t qs_repair_refused(struct qs_arena *a, uint64_t first, uint64_t n) {
    if (n == 0) return 0;
    if (!range_ok(a, first, n)) return -ERANGE;
    if (atomic_load(&a->refused_frames) == 0) { /* no frame is or is becoming REFUSED: nothing to scan */
        qs_vma_reserve_refill(a);
        return 0;
    }
    int64_t done = 0;
    for (uint64_t i = first; i < first + n; i++) {
        struct qs_frame *f = qs_frame_at(a, i);
        if (atomic_load_explicit(&f->state, memory_order_acquire) != QS_REFUSED) continue;
        uint32_t was = qs_frame_lock(a, f);
        if (was != QS_REFUSED) { qs_frame_unlock(f, was); continue; }
        repair_locked(a, i);
        done++;
    }
    qs_vma_reserve_refill(a);
    return done;
}

/* Installs a page the store read itself (through its own file layer, checksum already verified):
 * src (native memory, frame_size bytes) is copied into the alias view, then the frame becomes
 * readable and CLEAN. Returns 1 if installed, 0 if the frame was already resident (its bytes are
 * kept: a fault loaded the same page meanwhile), -ENOENT if the frame is not reserved for a page,
 * -errno if mprotect failed. A REFUSED frame is repaired first. */
QS_EXPORT int qs_install(struct qs_arena *a, uint64_t i, const void *src) {
    if (i >= a->nframes) return -ERANGE;
    struct qs_frame *f = qs_frame_at(a, i);
    for (;;) {
        uint32_t was = qs_frame_lock(a, f);
        if (was == QS_REFUSED) { repair_locked(a, i); continue; }
        if (is_resident(was)) { qs_frame_unlock(f, was); return 0; }
        if (was != QS_RESERVED) { qs_frame_unlock(f, was); return -ENOENT; }
        qs_resident_acquire(a, i); /* the pool's bound holds for the store's own loads too */
        memcpy(qs_alias_addr(a, i), src, a->frame_size);
        int untouched = qs_view_untouched(a, f);
        if (untouched) qs_count(a, QS_C_UNTOUCHED_LOADS, 1);
        int e = untouched ? 0 : qs_protect_frame(a, i, a->clean_prot);
        /* minor faults: mapped now (one ioctl) rather than by a SIGBUS when the application first reads the page */
        if (!e) qs_minor_map(a, i, 1);
        if (e) {
            qs_punch(a, i, 1);
            atomic_fetch_sub(&a->resident, 1);
            qs_frame_unlock(f, QS_RESERVED);
            return -e;
        }
        atomic_fetch_and(&f->flags, ~QS_F_PROTNONE);
        atomic_fetch_or(&f->flags, QS_F_REF);
        qs_frame_unlock(f, QS_CLEAN);
        return 1;
    }
}

/* The store is about to write a resident page through the alias view (which never faults): capture
 * the pre-image now, exactly as a write fault would, and make the application view writable too (open_view;
 * a DIRTY frame stays write-protected only with QS_F_VIEW_RO set: the fault path treats a write to any other
 * DIRTY frame as spurious).
 * Returns 1 if captured, 0 if the frame was DIRTY already, -ENOENT if not resident, -ENOMEM if no
 * pre-image slot could be mapped, -errno if mprotect failed. A REFUSED copy-on-write frame is
 * repaired first. */
static int mark_dirty(struct qs_arena *a, uint64_t i, int open_view) {
    if (i >= a->nframes) return -ERANGE;
    struct qs_frame *f = qs_frame_at(a, i);
    for (;;) {
        uint32_t was = qs_frame_lock(a, f);
        if (was == QS_REFUSED && (atomic_load(&f->flags) & QS_F_SCRATCH_COW) && is_resident(f->prior_state)) {
            repair_locked(a, i);
            continue;
        }
        /* card marking: the store's own change may be anywhere on the page: commit diffs it whole */
        if (was == QS_DIRTY) {
            if (a->cards) atomic_fetch_or(&f->flags, QS_F_WHOLE);
            atomic_fetch_and(&f->flags, ~QS_F_KMASK); /* kernel tracking: the alias store is not the kernel's to see */
            if (open_view && (atomic_load(&f->flags) & QS_F_VIEW_RO) && !(atomic_load(&f->flags) & QS_F_PROTNONE)) {
                int e = qs_protect_frame(a, i, PROT_READ | PROT_WRITE);
                if (e) { qs_frame_unlock(f, was); return -e; }
                atomic_fetch_and(&f->flags, ~QS_F_VIEW_RO);
            }
            qs_frame_unlock(f, was);
            return 0;
        }
        if (was != QS_CLEAN) { qs_frame_unlock(f, was); return -ENOENT; }
        int writable = (atomic_load(&f->flags) & (QS_F_TWIN | QS_F_OPEN)) != 0; /* kernel tracking: a twin */
        if (qs_preimage_capture(a, i) != 0) { qs_frame_unlock(f, was); return -ENOMEM; }
        if (a->cards) atomic_fetch_or(&f->flags, QS_F_WHOLE);
        if (!writable && !(atomic_load(&f->flags) & QS_F_PROTNONE) && !(a->clean_prot & PROT_WRITE)) {
            if (open_view) {
                int e = qs_protect_frame(a, i, PROT_READ | PROT_WRITE);
                if (e) {
                    qs_preimage_free(a, f);
                    qs_frame_unlock(f, was);
                    return -e;
                }
                atomic_fetch_and(&f->flags, ~QS_F_VIEW_RO);
            } else {
                atomic_fetch_or(&f->flags, QS_F_VIEW_RO); /* the view stays PROT_READ, as clean */
            }
        }
        atomic_fetch_or(&f->flags, QS_F_REF);
        qs_frame_unlock(f, QS_DIRTY);
        qs_dirty_note(a, i);
        return 1;
    }
}

QS_EXPORT int qs_mark_dirty(struct qs_arena *a, uint64_t i) {
    return mark_dirty(a, i, 1);
}

/* qs_mark_dirty for a page the application never stores to through the view (B+tree nodes: the store
 * writes them through the alias only; ABI 11): the pre-image is captured and the frame is DIRTY, but the
 * view keeps the clean protection - no mprotect, which costs ~10 us (VMA split, TLB shootdown) and was most
 * of an index insert. The frame carries QS_F_VIEW_RO, so a store through the view after all is not taken
 * for a spurious fault: the fault path opens the view then (qs_fault.c), and qs_mark_dirty opens it for a
 * page that is reused for objects. A stale QS_F_VIEW_RO on a writable view is harmless (nothing faults). */
QS_EXPORT int qs_mark_dirty_alias(struct qs_arena *a, uint64_t i) {
    return mark_dirty(a, i, 0);
}

/* Makes claimed frames [lo, lo+k) DIRTY with one mprotect(READ|WRITE) (each holds BUSY and its pre-image); on
 * failure (the VMA limit) they go back to CLEAN, pre-images freed: their writes then fault as usual.
 * Returns k or 0. */
static int64_t open_claimed(struct qs_arena *a, uint64_t lo, uint64_t k) {
    if (k == 0) return 0;
    int ok = mprotect(qs_app_addr(a, lo), (size_t)k << a->frame_shift, PROT_READ | PROT_WRITE) == 0;
    for (uint64_t j = lo; j < lo + k; j++) {
        struct qs_frame *g = qs_frame_at(a, j);
        if (!ok) {
            qs_preimage_free(a, g);
            qs_frame_unlock(g, QS_CLEAN);
            continue;
        }
        atomic_fetch_and(&g->flags, ~QS_F_VIEW_RO);
        atomic_fetch_or(&g->flags, QS_F_REF);
        qs_frame_unlock(g, QS_DIRTY);
        qs_dirty_note(a, j);
    }
    if (!ok) return 0;
    qs_count(a, QS_C_WRITEAHEAD, k);
    return (int64_t)k;
}

/* The store is about to write frames [lo, lo+n) through the application view (a large object's pages, in
 * order: Blobs.spliceLarge): write-ahead announced instead of detected (qs_fault.c, claim_write_ahead, whose
 * rules apply: nothing unless qs_writeahead_allowed). Each frame that is CLEAN and readable and can be claimed
 * without waiting (CAS to BUSY) gets its pre-image, exactly as its write fault would take it, and each run of
 * such frames is made writable with one mprotect and published DIRTY - one call instead of a signal and an
 * mprotect per page. Other frames are left alone (DIRTY ones need nothing; one not resident, reprotected by the
 * clock or transient takes its write fault as before). Counted as write-ahead. ABI 14.
 * Returns the frames made DIRTY, or -ERANGE beyond the arena. */
QS_EXPORT int64_t qs_mark_dirty_run(struct qs_arena *a, uint64_t lo, uint64_t n) {
    if (lo > a->nframes || n > a->nframes - lo) return -ERANGE;
    if (n == 0 || !qs_writeahead_allowed(a)) return 0;
    int64_t made = 0;
    uint64_t run = lo, k = 0; /* claimed frames [run, run+k) */
    for (uint64_t j = lo; j < lo + n; j++) {
        if (qs_claim_for_write(a, j)) {
            if (k == 0) run = j;
            k++;
        } else {
            made += open_claimed(a, run, k);
            k = 0;
        }
    }
    return made + open_claimed(a, run, k);
}

/* Takes one more resident frame without evicting (qs_make_new's frames after its first): 1, or 0 at the pool's
 * bound. */
static int resident_try_acquire(struct qs_arena *a) {
    for (;;) {
        uint64_t max = atomic_load_explicit(&a->max_resident, memory_order_relaxed);
        uint64_t r = atomic_load(&a->resident);
        if (max != 0 && r >= max) return 0;
        if (atomic_compare_exchange_weak(&a->resident, &r, r + 1)) return 1;
    }
}

/* Locks frame j for qs_make_new if it is RESERVED (not resident: it takes a resident frame; the first of the run may
 * evict for it, as qs_install does, the others only below the bound and while *installs, the caller's allowance,
 * lasts) or CLEAN and enabled, without a twin (as qs_claim_for_write takes it), not disk-dirty (QS_F_WAL: its
 * committed image is only in the frame and the log; zeros in its place would be written back as the page - the
 * general path keeps that image as the pre-image) and, after the first (which the caller has fixed), not pinned.
 * Returns the state it had, with the frame held BUSY, or 0 (nothing changed). */
static uint32_t claim_new(struct qs_arena *a, uint64_t j, int first, uint64_t *installs) {
    struct qs_frame *g = qs_frame_at(a, j);
    uint32_t s = atomic_load_explicit(&g->state, memory_order_acquire);
    uint32_t refuse = QS_F_DISABLED | QS_F_TWIN | QS_F_OPEN | QS_F_WAL | (first ? 0 : QS_F_PINNED);
    if (s != QS_RESERVED && (s != QS_CLEAN || (atomic_load(&g->flags) & refuse))) return 0;
    if (s == QS_RESERVED && !first && *installs == 0) return 0;
    if (!atomic_compare_exchange_strong(&g->state, &s, QS_BUSY)) return 0;
    if (s == QS_RESERVED && !(first ? qs_resident_acquire(a, j) : resident_try_acquire(a))) {
        qs_frame_unlock(g, s);
        return 0;
    }
    if (s == QS_RESERVED && !first) (*installs)--;
    return s;
}

/* Frames [lo, lo+n) receive pages the running transaction has just allocated (the first) or may allocate next (the
 * others, free pages after it; at most `installs` of them not resident - the room the caller's pool has without
 * evicting): each frame the call can claim (claim_new; the run stops at the first it cannot) holds zeros, is DIRTY
 * against the shared zero pre-image (QS_PRE_ZERO: no slot, no copy) and is writable through the application view -
 * one mprotect for the run, then (minor faults) one UFFDIO_CONTINUE that maps its pages. Zeros are what the
 * transaction's first write to a new page would find anyway: commit logs the page as a NEW_PAGE record, its
 * difference from zeros, and a page claimed ahead and never allocated leaves an empty diff. For such a page this
 * replaces qs_install of a zero image and qs_mark_dirty: two calls and an 8 KiB copy into fresh pre-image memory
 * (issue #20; docs/results.md, "New pages against a zero pre-image"). Not under kernel write tracking (a twin is
 * written), scanning (pre-images at load), page locking (each page's lock is the server's) or Texas. ABI 20.
 * Returns the frames made new (>= 1), 0 if frame lo is DIRTY already (its pre-image stays: the image as last
 * committed), -ENOENT if it is in another state and -EAGAIN if the mprotect failed, with nothing changed (the
 * caller's general path takes the page: it collapses protection islands at the VMA limit), -ENOTSUP in the modes
 * above, or -ERANGE beyond the arena. */
QS_EXPORT int64_t qs_make_new(struct qs_arena *a, uint64_t lo, uint64_t n, uint64_t installs) {
    if (n == 0 || lo >= a->nframes || n > a->nframes - lo) return -ERANGE;
    if (a->kwp || a->preimage_on_load || atomic_load_explicit(&a->locking, memory_order_relaxed)
        || atomic_load_explicit(&a->texas, memory_order_acquire) != NULL)
        return -ENOTSUP;
    if (atomic_load_explicit(&qs_frame_at(a, lo)->state, memory_order_acquire) == QS_DIRTY) return 0;
    uint32_t prior[QS_MAKE_NEW_MAX];
    if (n > QS_MAKE_NEW_MAX) n = QS_MAKE_NEW_MAX;
    uint64_t k = 0;
    while (k < n && (prior[k] = claim_new(a, lo + k, k == 0, &installs)) != 0) k++;
    if (k == 0) return -ENOENT;
    if (mprotect(qs_app_addr(a, lo), (size_t)k << a->frame_shift, PROT_READ | PROT_WRITE) != 0) {
        for (uint64_t j = 0; j < k; j++) {
            if (prior[j] == QS_RESERVED) atomic_fetch_sub(&a->resident, 1);
            qs_frame_unlock(qs_frame_at(a, lo + j), prior[j]);
        }
        return -EAGAIN;
    }
    /* the run's memory allocated and mapped in the alias view by one call, not by a page fault per OS page in the
     * memset (3.6 against 5.0 us a frame: docs/results.md, "New pages against a zero pre-image"); on failure (a
     * kernel before 5.14) the memset faults */
    (void)madvise(qs_alias_addr(a, lo), (size_t)k << a->frame_shift, MADV_POPULATE_WRITE);
    memset(qs_alias_addr(a, lo), 0, (size_t)k << a->frame_shift);
    qs_minor_map(a, lo, k); /* CLEAN frames' pages are mapped already (EEXIST: stepped over) */
    for (uint64_t j = 0; j < k; j++) {
        struct qs_frame *g = qs_frame_at(a, lo + j);
        g->preimage_slot = QS_PRE_ZERO;
        atomic_fetch_and(&g->flags, ~(QS_F_PROTNONE | QS_F_VIEW_RO));
        atomic_fetch_or(&g->flags, QS_F_REF | (a->cards ? QS_F_WHOLE : 0));
        qs_frame_unlock(g, QS_DIRTY);
        qs_dirty_note(a, lo + j);
    }
    qs_count(a, QS_C_NEW_PAGES, k);
    return (int64_t)k;
}

/* Fills out[0..max) with the indices of resident (CLEAN or DIRTY) frames >= from, ascending; returns
 * how many. Lets Java's replacer learn about pages the fault path loaded on its own. */
QS_EXPORT int64_t qs_resident_list(struct qs_arena *a, uint64_t from, uint64_t *out, uint64_t max) {
    uint64_t end = atomic_load(&a->hwm), n = 0;
    for (uint64_t i = from; i < end && n < max; i++) {
        uint32_t s = atomic_load_explicit(&qs_frame_at(a, i)->state, memory_order_acquire);
        if (s == QS_CLEAN || s == QS_DIRTY || (s == QS_BUSY && qs_frame_at(a, i)->preimage_slot)) out[n++] = i;
    }
    return (int64_t)n;
}
