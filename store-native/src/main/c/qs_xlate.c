/*
 * qs_xlate.c - pointer translation at fault time (QuickStore section 3.4: pointers are stored as
 * virtual addresses; when a page's referents were mapped elsewhere, a per-page bitmap says where the
 * pointers are and a mapping table relocates them; Texas: swizzling at page-fault time).
 *
 *  - A translation table is an immutable, sorted list of disjoint address ranges [lo, hi) with a
 *    signed delta: a pointer value v in a range becomes v + delta; values outside every range
 *    (including null) are left unchanged. Tables are registered by the control plane, get an id and
 *    live until the arena is closed (never freed while a fault could read them).
 *  - A pointer map is a bitmap of frame_size / 8 bits per frame, bit k set = the 8-byte little-endian
 *    word at offset 8k is a pointer. It is stored in the arena (arena->ptrmaps) and applies when the
 *    frame carries QS_F_RELOCATED.
 * The translation runs on the alias view after the checksum is verified (the checksum covers the
 * bytes as stored) and before the frame becomes accessible. [signal-safe]
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* [signal-safe] binary search over the ranges */
uint64_t qs_xlate_value(const struct qs_xtable *t, uint64_t v) {
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v < t->r[mid].lo) hi = mid;
        else if (v >= t->r[mid].hi) lo = mid + 1;
        else return v + (uint64_t)t->r[mid].delta;
    }
    return v;
}

/* [signal-safe] */
void qs_xlate_page(struct qs_arena *a, uint64_t i) {
    struct qs_frame *f = qs_frame_at(a, i);
    struct qs_xtable *t = atomic_load_explicit(&a->xtables[f->xlate_table], memory_order_acquire);
    if (t == NULL) return;
    const uint8_t *bits = a->ptrmaps + i * (a->frame_size / 64);
    uint8_t *page = qs_alias_addr(a, i);
    uint32_t words = a->frame_size / 8;
    for (uint32_t w = 0; w < words; w += 64) {
        uint64_t m;
        memcpy(&m, bits + w / 8, 8);
        while (m) {
            uint32_t k = w + (uint32_t)__builtin_ctzll(m);
            m &= m - 1;
            uint64_t v;
            memcpy(&v, page + 8 * (uint64_t)k, 8);
            v = qs_xlate_value(t, v);
            memcpy(page + 8 * (uint64_t)k, &v, 8);
        }
    }
}

/* Registers a translation table of n ranges given as three arrays. Ranges must be non-empty and
 * disjoint; they are sorted here. Returns the table id or -errno (-EINVAL for bad ranges). */
QS_EXPORT int qs_xlate_table_add(struct qs_arena *a, const uint64_t *lo, const uint64_t *hi, const int64_t *delta, uint32_t n) {
    size_t bytes = sizeof(struct qs_xtable) + (size_t)n * sizeof(struct qs_xrange);
    struct qs_xtable *t = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t == MAP_FAILED) return -errno;
    t->n = n;
    for (uint32_t k = 0; k < n; k++) {
        if (lo[k] >= hi[k]) { munmap(t, bytes); return -EINVAL; }
        t->r[k] = (struct qs_xrange){lo[k], hi[k], delta[k]};
    }
    for (uint32_t k = 1; k < n; k++) { /* insertion sort by lo */
        struct qs_xrange x = t->r[k];
        uint32_t j = k;
        while (j > 0 && t->r[j - 1].lo > x.lo) { t->r[j] = t->r[j - 1]; j--; }
        t->r[j] = x;
    }
    for (uint32_t k = 1; k < n; k++)
        if (t->r[k].lo < t->r[k - 1].hi) { munmap(t, bytes); return -EINVAL; }
    mprotect(t, bytes, PROT_READ);
    pthread_mutex_lock(&a->ctl_lock);
    uint32_t id = atomic_load(&a->nxtables);
    int rc;
    if (id >= QS_MAX_XTABLES) {
        rc = -ENOSPC;
        munmap(t, bytes);
    } else {
        atomic_store_explicit(&a->xtables[id], t, memory_order_release);
        atomic_store(&a->nxtables, id + 1);
        rc = (int)id;
    }
    pthread_mutex_unlock(&a->ctl_lock);
    return rc;
}

/* Attaches a pointer map (frame_size / 64 bytes) and a table to a frame (not in a transient or REFUSED
 * state; a resident frame keeps its bytes, the map applies to its next load - ABI 6); table < 0
 * detaches. Returns 0 or -errno (-EBUSY if REFUSED). */
QS_EXPORT int qs_frame_set_relocation(struct qs_arena *a, uint64_t i, const uint8_t *bitmap, int table) {
    if (i >= a->nframes) return -ERANGE;
    if (table >= 0 && ((uint32_t)table >= atomic_load(&a->nxtables))) return -EINVAL;
    struct qs_frame *f = qs_frame_at(a, i);
    uint32_t was = qs_frame_lock(a, f);
    /* a resident frame keeps its bytes: the map applies to its next load (the fault path's clock may
     * evict a clean frame at any time, so Java refreshes the map of a page when its contents change) */
    if (was != QS_FREE && was != QS_RESERVED && was != QS_CLEAN && was != QS_DIRTY) { qs_frame_unlock(f, was); return -EBUSY; }
    if (table < 0) {
        atomic_fetch_and(&f->flags, ~QS_F_RELOCATED);
    } else {
        memcpy(a->ptrmaps + i * (a->frame_size / 64), bitmap, a->frame_size / 64);
        f->xlate_table = (uint16_t)table;
        atomic_fetch_or(&f->flags, QS_F_RELOCATED);
    }
    qs_frame_unlock(f, was);
    return 0;
}

/* For tests: translate one value through a registered table. */
QS_EXPORT uint64_t qs_xlate_lookup(struct qs_arena *a, int table, uint64_t v) {
    if (table < 0 || (uint32_t)table >= atomic_load(&a->nxtables)) return v;
    return qs_xlate_value(atomic_load(&a->xtables[table]), v);
}
