/*
 * qs_preimage.c - pre-image space: a copy of each frame's bytes taken at its first write fault
 * (Texas/Hosking-Moss: checkpoint = diff against a clean copy; QuickStore section 3.6 diffing).
 *
 * Growable in the fault path: slots of frame_size bytes in chunks of QS_PRE_CHUNK_SLOTS obtained with
 * mmap (a raw syscall, async-signal-safe in practice although not on POSIX's list). Free slots form a
 * lock-free Treiber stack with a 32-bit ABA tag; a new chunk is published with a CAS on the chunk
 * count. The budget (arena->preimage_budget) is soft: exceeding it overcommits and bumps
 * arena->pressure so Java's cleaner catches up. [signal-safe]
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>

#include <string.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static size_t chunk_bytes(struct qs_arena *a) { return (size_t)QS_PRE_CHUNK_SLOTS * a->frame_size; }

void *qs_preimage_addr(struct qs_arena *a, uint32_t slot1) {
    if (slot1 == QS_PRE_ZERO) return a->pre.zero;
    uint32_t slot = slot1 - 1;
    uint8_t *c = atomic_load_explicit(&a->pre.chunk[slot / QS_PRE_CHUNK_SLOTS], memory_order_acquire);
    return c + (size_t)(slot % QS_PRE_CHUNK_SLOTS) * a->frame_size;
}

static void push_free(struct qs_arena *a, uint32_t slot1) {
    uint64_t head = atomic_load(&a->pre.free_head);
    for (;;) {
        atomic_store_explicit(&a->pre.next[slot1 - 1], (uint32_t)head, memory_order_relaxed);
        uint64_t nh = ((head >> 32) + 1) << 32 | slot1;
        if (atomic_compare_exchange_weak(&a->pre.free_head, &head, nh)) return;
    }
}

static uint32_t pop_free(struct qs_arena *a) {
    uint64_t head = atomic_load(&a->pre.free_head);
    for (;;) {
        uint32_t slot1 = (uint32_t)head;
        if (slot1 == 0) return 0;
        uint32_t next = atomic_load_explicit(&a->pre.next[slot1 - 1], memory_order_relaxed);
        uint64_t nh = ((head >> 32) + 1) << 32 | next;
        if (atomic_compare_exchange_weak(&a->pre.free_head, &head, nh)) return slot1;
    }
}

/* Adds a chunk; its slots except the first go to the free stack. Returns the first slot1 or 0. */
static uint32_t grow(struct qs_arena *a) {
    uint32_t n = atomic_load(&a->pre.nchunks);
    for (;;) {
        if (n >= QS_PRE_MAX_CHUNKS) return 0;
        if (atomic_compare_exchange_weak(&a->pre.nchunks, &n, n + 1)) break;
    }
    void *c = mmap(NULL, chunk_bytes(a), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (c == MAP_FAILED) return 0; /* slot range n stays unusable; counted as lost */
    atomic_store_explicit(&a->pre.chunk[n], c, memory_order_release);
    uint32_t first = n * QS_PRE_CHUNK_SLOTS + 1;
    for (uint32_t k = 1; k < QS_PRE_CHUNK_SLOTS; k++) push_free(a, first + k);
    return first;
}

/* Copies one frame into a pre-image slot with non-temporal stores: the slot was last used by another frame
 * long ago (its lines are not in the cache), and nothing reads it before commit, so ordinary stores would
 * first read every destination line (read-for-ownership) and evict 8 KiB of the faulting thread's cache. Both
 * addresses are page-aligned and the frame size a multiple of 64 (a power of two >= the OS page); the sfence
 * orders the streaming stores before the slot is published (the frame's unlock). [signal-safe] */
static void copy_to_slot(void *dst, const void *src, size_t n) {
#if defined(__SSE2__)
    __m128i *d = dst;
    const __m128i *s = src;
    for (size_t k = 0; k < n / 16; k += 4) {
        __m128i x0 = _mm_load_si128(s + k), x1 = _mm_load_si128(s + k + 1);
        __m128i x2 = _mm_load_si128(s + k + 2), x3 = _mm_load_si128(s + k + 3);
        _mm_stream_si128(d + k, x0);
        _mm_stream_si128(d + k + 1, x1);
        _mm_stream_si128(d + k + 2, x2);
        _mm_stream_si128(d + k + 3, x3);
    }
    _mm_sfence();
#else
    memcpy(dst, src, n);
#endif
}

/* Copies frame i's bytes (alias view) into a new slot; the caller holds the frame transient. */
int qs_preimage_capture(struct qs_arena *a, uint64_t i) {
    struct qs_frame *f = qs_frame_at(a, i);
    if (f->preimage_slot) { /* DIRTY already, or a twin (qs_kwp.c): the image as last committed is the pre-image */
        atomic_fetch_and(&f->flags, ~(QS_F_TWIN | QS_F_KMASK)); /* a store the kernel did not see: diff it whole */
        return 0;
    }
    uint32_t slot1 = pop_free(a);
    if (!slot1) slot1 = grow(a);
    if (!slot1) return -1;
    copy_to_slot(qs_preimage_addr(a, slot1), qs_alias_addr(a, i), a->frame_size);
    f->preimage_slot = slot1;
    uint64_t used = atomic_fetch_add(&a->pre.used_bytes, a->frame_size) + a->frame_size;
    qs_count(a, QS_C_PREIMAGE_BYTES, a->frame_size);
    uint64_t budget = atomic_load_explicit(&a->preimage_budget, memory_order_relaxed);
    if (budget && used > budget) {
        qs_count(a, QS_C_OVERCOMMITS, 1);
        atomic_fetch_add(&a->pressure, 1);
    }
    return 0;
}

uint32_t qs_preimage_detach(struct qs_arena *a, struct qs_frame *f) {
    uint32_t slot1 = f->preimage_slot;
    if (!slot1) return 0;
    /* a frame leaves DIRTY exactly here: its cards are clean again (card marking) */
    qs_cards_clear(a, (uint64_t)(f - a->frames));
    atomic_fetch_and(&f->flags, ~(QS_F_WHOLE | QS_F_TWIN | QS_F_OPEN | QS_F_KMASK));
    f->preimage_slot = 0; /* a later capture for this frame pops a fresh slot: this one is not on the free stack */
    return slot1;
}

void qs_preimage_release(struct qs_arena *a, uint32_t slot1) {
    if (slot1 == QS_PRE_ZERO) return; /* shared, never in use */
    /* the slot's pages stay mapped and populated: the next capture must not take kernel faults */
    atomic_fetch_sub(&a->pre.used_bytes, a->frame_size);
    push_free(a, slot1);
}

void qs_preimage_free(struct qs_arena *a, struct qs_frame *f) {
    uint32_t slot1 = qs_preimage_detach(a, f);
    if (slot1) qs_preimage_release(a, slot1);
}

/* Releases slots detached by qs_mark_clean_list_detach (ABI 13): each non-zero entry of slots[0..n) goes back to
 * the free stack and out of the pre-image bytes in use (QS_PRE_ZERO, the shared zero page: nothing to give back).
 * Entries must be slots that call detached and that were
 * not released yet (a slot released twice would be handed to two frames). Returns the slots released, or -EINVAL
 * (nothing released) if an entry is not a slot of this arena. */
QS_EXPORT int64_t qs_preimage_release_list(struct qs_arena *a, const uint64_t *slots, uint64_t n) {
    uint64_t limit = (uint64_t)atomic_load(&a->pre.nchunks) * QS_PRE_CHUNK_SLOTS;
    for (uint64_t k = 0; k < n; k++)
        if (slots[k] > limit && slots[k] != QS_PRE_ZERO) return -EINVAL;
    int64_t released = 0;
    for (uint64_t k = 0; k < n; k++) {
        if (slots[k] == 0) continue;
        qs_preimage_release(a, (uint32_t)slots[k]);
        released++;
    }
    return released;
}

void qs_preimage_destroy(struct qs_arena *a) {
    uint32_t n = atomic_load(&a->pre.nchunks);
    for (uint32_t k = 0; k < n && k < QS_PRE_MAX_CHUNKS; k++) {
        void *c = atomic_load(&a->pre.chunk[k]);
        if (c) munmap(c, chunk_bytes(a));
    }
}
