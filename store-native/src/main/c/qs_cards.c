/*
 * qs_cards.c - card marking, the software write barrier beside page protection (Hosking & Moss,
 * "Protection traps and alternatives for memory management of an object-oriented language", 1993:
 * section 3, "Card marking": the heap is divided into 2^k-byte cards, a byte table holds one entry
 * per card and the barrier is a shift plus a byte store; at checkpoint the dirty cards are scanned and
 * diffed against the clean copy, then marked clean).
 *
 * In card mode an accessible clean frame is mapped READ|WRITE (clean_prot): the application never takes
 * a write fault. Its barrier (store-core's View.mark) loads the card byte and, when it is 0, calls
 * qs_mark_card before the store lands: the first mark of a frame in a transaction captures the
 * pre-image (the "clean copy") exactly as a write fault would, without changing protection; every mark
 * sets the card byte. Invariant: a card byte is 1 only while its frame is DIRTY with a pre-image
 * (qs_preimage_free clears the frame's cards), so the barrier's fast path (byte == 1: store directly)
 * never skips a capture.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "qs_arena.h"
#include "qs_export.h"

/* Flag of qs_arena_set_write_detection's argument: scanning (Hosking & Moss's "scan" scheme). */
#define QS_WD_PREIMAGE_ON_LOAD 0x100u

/* Selects the write detection of an arena before any frame is resident: card_shift 0 = page
 * protection (clean frames PROT_READ, the default), else card marking with 2^card_shift-byte cards
 * (64 <= card size <= frame size; at most 64 cards per frame so that Java can hold a frame's cards in one
 * long). Returns 0, -EINVAL for a bad shift, -EBUSY if frames are resident or it was set already,
 * -errno if the table could not be mapped. card_shift QS_WD_PREIMAGE_ON_LOAD alone selects scanning: page
 * protection plus a pre-image for every frame a fault loads in a transaction. */
QS_EXPORT int qs_arena_set_write_detection(struct qs_arena *a, uint32_t card_shift) {
    if (card_shift == QS_WD_KERNEL) return qs_kwp_enable(a); /* kernel write tracking (qs_kwp.c) */
    if (card_shift & QS_WD_PREIMAGE_ON_LOAD) {
        /* scanning: no card table, clean frames stay write-protected (a page the store installed itself
         * is still caught by a write fault); a fault that loads a frame in a transaction captures its
         * pre-image at once (qs_fault.c), so the application's stores never fault on it */
        if ((card_shift & ~QS_WD_PREIMAGE_ON_LOAD) != 0) return -EINVAL;
        if (a->cards || a->kwp || atomic_load(&a->resident) != 0 || a->mode != QS_MODE_STORE) return -EBUSY;
        a->preimage_on_load = 1;
        return 0;
    }
    if (card_shift == 0) return a->cards ? -EBUSY : 0;
    if (card_shift < 6 || card_shift > a->frame_shift || a->frame_shift - card_shift > 6) return -EINVAL;
    if (a->cards || a->kwp || atomic_load(&a->resident) != 0 || a->mode != QS_MODE_STORE) return -EBUSY;
    void *t = mmap(NULL, a->size >> card_shift, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (t == MAP_FAILED) return -errno;
    /* minor faults selected before: the view of a frame never loaded keeps the protection they gave it (READ), and its
     * load leaves it so (qs_view_untouched); the whole view takes the new clean protection now. No frame is resident;
     * a REFUSED one carries its scratch mapping, which must keep its own protection. */
    if (a->minor_uffd >= 0) {
        int e = atomic_load(&a->refused_frames) != 0 ? EBUSY
              : mprotect(a->app, a->size, PROT_READ | PROT_WRITE) != 0 ? errno : 0;
        if (e) {
            munmap(t, a->size >> card_shift);
            return -e;
        }
    }
    a->card_shift = card_shift;
    a->cards = t;
    a->clean_prot = PROT_READ | PROT_WRITE;
    return 0;
}

/* Address of the card table (size >> card_shift bytes, one per card of the application view), or 0. */
QS_EXPORT uint64_t qs_arena_cards(struct qs_arena *a) { return (uint64_t)a->cards; }
QS_EXPORT uint32_t qs_arena_card_shift(struct qs_arena *a) { return a->card_shift; }

/* The barrier's slow path: the application is about to store at view offset `off`. A CLEAN frame gets
 * its pre-image and becomes DIRTY (protection untouched: it is writable already, or PROTNONE and the
 * store's access takes a reference fault that enables READ|WRITE); the card of `off` is marked.
 * Returns 1 if the frame became dirty, 0 if it was dirty already (or REFUSED: the store lands on the
 * scratch page and the refusal dooms the transaction), -ENOENT if the frame is not resident (the caller
 * touches it - a read fault loads it - and retries), -ENOMEM without a pre-image slot, -EINVAL outside card
 * mode, -ERANGE outside the arena. */
QS_EXPORT int qs_mark_card(struct qs_arena *a, uint64_t off) {
    if (a->cards == NULL) return -EINVAL;
    if (off >= a->size) return -ERANGE;
    uint64_t i = off >> a->frame_shift;
    struct qs_frame *f = qs_frame_at(a, i);
    uint32_t was = qs_frame_lock(a, f);
    int rc;
    if (was == QS_DIRTY) {
        rc = 0;
    } else if (was == QS_REFUSED) {
        qs_frame_unlock(f, was);
        return 0;
    } else if (was != QS_CLEAN) {
        qs_frame_unlock(f, was);
        return -ENOENT;
    } else {
        if (qs_preimage_capture(a, i) != 0) { qs_frame_unlock(f, was); return -ENOMEM; }
        rc = 1;
    }
    a->cards[off >> a->card_shift] = 1;
    atomic_fetch_or(&f->flags, QS_F_REF);
    qs_frame_unlock(f, QS_DIRTY);
    qs_dirty_note(a, i);
    return rc;
}
