/*
 * qs_texas.c - Texas mode: pointer swizzling at page-fault time with frames reserved one step ahead
 * (Kakkad & Wilson, "Address Translation Strategies in the Texas Persistent Store", 1999, section 3:
 * "when a page is loaded, all persistent pointers in it are translated into virtual addresses; for
 * every page a pointer refers to, a virtual page is reserved (access-protected) if it has none yet").
 *
 * Persistent pointer format, version 1 (documented in docs/formats.md and in Java's
 * dev.quickstore.mmu.TexasPointers, which encodes the same words):
 *
 *   bits 63..60  0x9 = tag (bit 63: not a user-space virtual address) + format version 1
 *   bits 59..0   pageId * pageSize + offset   (pageSize = the arena's frame size)
 *   0            null (stays 0)
 *
 * A user-space address on x86-64 has bits 63..47 clear, so a word is never both.
 *
 * The page-id -> frame table (struct qs_texas.p2f, one 64-bit word per page, 0 = no frame, f + 1 =
 * frame f) is written only by CAS; frames are taken from a bump counter and never reused while the
 * arena lives (a frame is address space, not memory: PROT_NONE and unpopulated until its page is
 * faulted in). The frame-to-page direction is the frame descriptor's page_no.
 *
 * EVERYTHING CALLED FROM THE FAULT PATH HERE IS ASYNC-SIGNAL-SAFE: C11 atomics and memcpy only; no
 * malloc, no locks, no waits. A thread that loses the CAS race for a page's entry gives its (never
 * published) frame back to FREE and uses the winner's (counted as QS_TX_RACES; the frame stays unused).
 */
#include "qs_arena.h"
#include "qs_export.h"
#include "qs_api.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#define TX_TAG_SHIFT 60
#define TX_TAG 0x9ull
#define TX_LOW ((1ull << TX_TAG_SHIFT) - 1)

/* page header layout (dev.quickstore.core.page.PageHeader): type byte at 4, SLOTTED = 3, the slotted
 * page's pointer map (bit k = word k is a reference) right after the 32-byte header */
#define PH_TYPE 4
#define PH_SLOTTED 3
#define PH_SIZE 32

/* counters, in the order of dev.quickstore.mmu.TexasCounters */
enum qs_tx_counter {
    QS_TX_FRAMES_RESERVED, /* frames reserved for pages (fault path and control plane alike)        */
    QS_TX_RESERVED_AHEAD,  /* of those, reserved one step ahead while a loaded page was swizzled     */
    QS_TX_PAGES_SWIZZLED,  /* slotted pages loaded with at least one persistent pointer              */
    QS_TX_PAGES_LOADED,    /* slotted pages loaded (fault path and the store's own reads)           */
    QS_TX_WORDS_SWIZZLED,  /* pointer words rewritten to virtual addresses on load                  */
    QS_TX_WORDS_UNSWIZZLED, /* words rewritten back to persistent form (write-back, commit, log)     */
    QS_TX_RACES,           /* reservations that lost the CAS race for a page's entry                */
    QS_TX_UNRESOLVED,      /* words left persistent: page beyond the table or arena out of frames    */
    QS_TX_COUNT
};

struct qs_texas {
    _Atomic uint64_t *p2f;      /* max_pages entries, mmap'ed NORESERVE */
    uint64_t max_pages;
    uint64_t first_frame;
    _Atomic uint64_t next_frame;
    uint32_t source;
    _Atomic uint64_t counters[QS_TX_COUNT];
};

static inline void tx_count(struct qs_texas *t, int c, uint64_t n) {
    atomic_fetch_add_explicit(&t->counters[c], n, memory_order_relaxed);
}

static void bump_hwm(struct qs_arena *a, uint64_t end) {
    uint64_t h = atomic_load(&a->hwm);
    while (h < end && !atomic_compare_exchange_weak(&a->hwm, &h, end)) {}
}

/* The frame of `page`, reserving one (RESERVED, PROT_NONE: address space only) if it has none and
 * `reserve` is set. Returns the frame, -ENOENT (none, not reserving), -ERANGE (page beyond the table),
 * -ENOSPC (the arena has no frame left). [signal-safe] */
static int64_t frame_of(struct qs_arena *a, struct qs_texas *t, uint64_t page, int reserve, int ahead) {
    if (page >= t->max_pages) return -ERANGE;
    uint64_t e = atomic_load_explicit(&t->p2f[page], memory_order_acquire);
    if (e != 0) return (int64_t)(e - 1);
    if (!reserve) return -ENOENT;
    uint64_t f = atomic_fetch_add_explicit(&t->next_frame, 1, memory_order_relaxed);
    if (f >= a->nframes) {
        atomic_fetch_sub_explicit(&t->next_frame, 1, memory_order_relaxed);
        return -ENOSPC;
    }
    /* the frame is fresh: no pointer leads to it before the CAS below publishes it */
    struct qs_frame *fr = qs_frame_at(a, f);
    fr->page_no = page;
    fr->source = (uint16_t)t->source;
    fr->reason = 0;
    atomic_store_explicit(&fr->flags, QS_F_VIEW_TOUCHED, memory_order_relaxed); /* Texas maps it itself */
    atomic_store_explicit(&fr->state, QS_RESERVED, memory_order_release);
    bump_hwm(a, f + 1);
    uint64_t expected = 0;
    if (atomic_compare_exchange_strong_explicit(&t->p2f[page], &expected, f + 1, memory_order_acq_rel,
                                                memory_order_acquire)) {
        tx_count(t, QS_TX_FRAMES_RESERVED, 1);
        if (ahead) tx_count(t, QS_TX_RESERVED_AHEAD, 1);
        return (int64_t)f;
    }
    atomic_store_explicit(&fr->state, QS_FREE, memory_order_release);
    tx_count(t, QS_TX_RACES, 1);
    return (int64_t)(expected - 1);
}

/* A persistent word to its virtual address (reserving the target's frame); other values unchanged. */
static uint64_t to_runtime(struct qs_arena *a, struct qs_texas *t, uint64_t v, int ahead, int *resolved) {
    *resolved = 0;
    if ((v >> TX_TAG_SHIFT) != TX_TAG) return v;
    uint64_t low = v & TX_LOW;
    int64_t f = frame_of(a, t, low >> a->frame_shift, 1, ahead);
    if (f < 0) {
        tx_count(t, QS_TX_UNRESOLVED, 1);
        return v;
    }
    *resolved = 1;
    return (uint64_t)a->app + ((uint64_t)f << a->frame_shift) + (low & (a->frame_size - 1));
}

/* A virtual address inside a reserved frame to its persistent word; other values unchanged. */
static uint64_t to_disk(struct qs_arena *a, uint64_t v, int *changed) {
    *changed = 0;
    uint64_t base = (uint64_t)a->app;
    if (v < base || v >= base + a->size) return v;
    uint64_t f = (v - base) >> a->frame_shift;
    struct qs_frame *fr = qs_frame_at(a, f);
    if (qs_state(atomic_load_explicit(&fr->state, memory_order_acquire)) == QS_FREE) return v;
    *changed = 1;
    return (TX_TAG << TX_TAG_SHIFT) | (fr->page_no << a->frame_shift) | ((v - base) & (a->frame_size - 1));
}

/* Rewrites the pointer words of a slotted page image (its own pointer map) in one direction; returns the
 * number of words changed. Other page types carry no pointer words. [signal-safe] */
static int64_t rewrite(struct qs_arena *a, struct qs_texas *t, uint8_t *page, uint64_t len, int swizzle, int ahead) {
    if (len < PH_SIZE + len / 64 || page[PH_TYPE] != PH_SLOTTED) return 0;
    const uint8_t *bits = page + PH_SIZE;
    uint64_t words = len / 8, changed = 0;
    for (uint64_t w = 0; w < words; w += 8) {
        uint8_t m = bits[w / 8];
        while (m) {
            uint64_t k = w + (uint64_t)__builtin_ctz(m);
            m &= (uint8_t)(m - 1);
            uint64_t v, n;
            int c;
            memcpy(&v, page + 8 * k, 8);
            n = swizzle ? to_runtime(a, t, v, ahead, &c) : to_disk(a, v, &c);
            if (c && n != v) {
                memcpy(page + 8 * k, &n, 8);
                changed++;
            }
        }
    }
    return (int64_t)changed;
}

/* Called by qs_load_frame_locked after the page's bytes are in the alias view and verified, before the
 * application view is unprotected: swizzles every persistent pointer of the page, reserving frames for
 * the pages they refer to ("one step ahead"). [signal-safe] */
static int64_t swizzle_loaded(struct qs_arena *a, struct qs_texas *t, uint8_t *page, uint64_t len) {
    if (len < PH_SIZE + len / 64 || page[PH_TYPE] != PH_SLOTTED) return 0;
    tx_count(t, QS_TX_PAGES_LOADED, 1);
    int64_t n = rewrite(a, t, page, len, 1, 1);
    if (n > 0) {
        tx_count(t, QS_TX_PAGES_SWIZZLED, 1);
        tx_count(t, QS_TX_WORDS_SWIZZLED, (uint64_t)n);
    }
    return n;
}

void qs_texas_swizzle_loaded(struct qs_arena *a, uint64_t i) {
    struct qs_texas *t = atomic_load_explicit(&a->texas, memory_order_acquire);
    if (t != NULL) swizzle_loaded(a, t, qs_alias_addr(a, i), a->frame_size);
}

void qs_texas_destroy(struct qs_arena *a) {
    struct qs_texas *t = atomic_exchange(&a->texas, NULL);
    if (t == NULL) return;
    munmap((void *)t->p2f, t->max_pages * sizeof(uint64_t));
    munmap(t, sizeof *t);
}

/* Switches the arena to Texas mode: pages of `source` get frames from first_frame upwards as they are
 * referenced; at most max_pages pages. Call before any page is loaded. Returns 0, -EEXIST (already on),
 * -EBADF (no such source), -EINVAL, -errno of mmap. */
QS_EXPORT int qs_texas_enable(struct qs_arena *a, uint32_t source, uint64_t max_pages, uint64_t first_frame) {
    if (max_pages == 0 || first_frame >= a->nframes || (max_pages << a->frame_shift) >> a->frame_shift != max_pages ||
        (max_pages << a->frame_shift) > TX_LOW)
        return -EINVAL;
    if (source >= QS_MAX_SOURCES || a->sources[source].ops == NULL) return -EBADF;
    struct qs_texas *t = mmap(NULL, sizeof *t, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t == MAP_FAILED) return -errno;
    memset(t, 0, sizeof *t);
    void *m = mmap(NULL, max_pages * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED) {
        int e = errno;
        munmap(t, sizeof *t);
        return -e;
    }
    t->p2f = m;
    t->max_pages = max_pages;
    t->first_frame = first_frame;
    atomic_store(&t->next_frame, first_frame);
    t->source = source;
    struct qs_texas *none = NULL;
    if (!atomic_compare_exchange_strong(&a->texas, &none, t)) {
        munmap(m, max_pages * sizeof(uint64_t));
        munmap(t, sizeof *t);
        return -EEXIST;
    }
    return 0;
}

/* The frame of `page` (reserving one if reserve != 0 and it has none); -ENOENT, -ERANGE, -ENOSPC, or -EINVAL if the
 * arena is not in Texas mode. [signal-safe] */
QS_EXPORT int64_t qs_texas_frame(struct qs_arena *a, uint64_t page, int reserve) {
    struct qs_texas *t = atomic_load_explicit(&a->texas, memory_order_acquire);
    return t == NULL ? -EINVAL : frame_of(a, t, page, reserve, 0);
}

/* Swizzles a slotted page image the store read itself (its own reads, an abort's restored image) exactly as the
 * fault path does, frames reserved one step ahead and counted alike; returns words changed or -EINVAL. */
QS_EXPORT int64_t qs_texas_swizzle(struct qs_arena *a, void *image, uint64_t len) {
    struct qs_texas *t = atomic_load_explicit(&a->texas, memory_order_acquire);
    return t == NULL ? -EINVAL : swizzle_loaded(a, t, image, len);
}

/* Unswizzles a slotted page image: every pointer word holding an address inside a reserved frame becomes
 * its persistent form (write-back, commit diffs, logging). Returns words changed or -EINVAL. */
QS_EXPORT int64_t qs_texas_unswizzle(struct qs_arena *a, void *image, uint64_t len) {
    struct qs_texas *t = atomic_load_explicit(&a->texas, memory_order_acquire);
    if (t == NULL) return -EINVAL;
    int64_t n = rewrite(a, t, image, len, 0, 0);
    if (n > 0) tx_count(t, QS_TX_WORDS_UNSWIZZLED, (uint64_t)n);
    return n;
}

/* One word each way (roots, index values, smart references resolved on use). */
QS_EXPORT uint64_t qs_texas_to_runtime(struct qs_arena *a, uint64_t word) {
    struct qs_texas *t = atomic_load_explicit(&a->texas, memory_order_acquire);
    int c;
    return t == NULL ? word : to_runtime(a, t, word, 0, &c);
}
QS_EXPORT uint64_t qs_texas_to_disk(struct qs_arena *a, uint64_t address) {
    int c;
    return atomic_load_explicit(&a->texas, memory_order_acquire) == NULL ? address : to_disk(a, address, &c);
}

/* Copies min(n, QS_TX_COUNT) counters plus, after them, the next free frame; returns QS_TX_COUNT + 1 (0 if
 * the arena is not in Texas mode). */
QS_EXPORT int qs_texas_counters(struct qs_arena *a, uint64_t *out, int n) {
    struct qs_texas *t = atomic_load_explicit(&a->texas, memory_order_acquire);
    if (t == NULL) return 0;
    for (int k = 0; k < n && k < QS_TX_COUNT; k++) out[k] = atomic_load_explicit(&t->counters[k], memory_order_relaxed);
    if (n > QS_TX_COUNT) out[QS_TX_COUNT] = atomic_load(&t->next_frame);
    return QS_TX_COUNT + 1;
}
