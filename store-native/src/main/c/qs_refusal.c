/*
 * qs_refusal.c - refusal records (design-notes section 2a): the fault path writes one into the arena's
 * ring for every access it refuses and bumps arena->pending; the control plane takes them here under
 * the arena's control lock, which the handler never takes. Java reads arena->pending at its API
 * boundaries and throws FaultRefusedException for each record taken.
 */
#include "qs_arena.h"
#include "qs_export.h"

/* [signal-safe] */
void qs_refusal_record(struct qs_arena *a, uint32_t reason, int err, uint64_t addr, uint64_t frame, uint64_t page) {
    uint64_t idx = atomic_fetch_add(&a->ref_head, 1);
    struct qs_refusal *r = &a->refusals[idx % QS_REFUSAL_RING];
    atomic_store_explicit(&r->seq, 0, memory_order_relaxed);
    atomic_store_explicit(&r->taken, 0, memory_order_relaxed);
    r->reason = reason;
    r->err = err;
    r->tid = qs_gettid();
    r->addr = addr;
    r->frame = frame;
    r->page = page;
    atomic_store_explicit(&r->seq, idx + 1, memory_order_release);
    qs_count(a, QS_C_REFUSALS, 1);
    atomic_fetch_add_explicit(&a->pending, 1, memory_order_release);
}


/* Takes one pending refusal: the oldest one of the calling thread if any, else the oldest one.
 * out[0]=reason out[1]=errno out[2]=tid out[3]=address out[4]=frame out[5]=page out[6]=1 if it was
 * the calling thread's. Returns 1 if a record was taken, 0 if none is pending. Records overwritten
 * before being taken are reported once each as QS_R_LOST. */
QS_EXPORT int qs_refusal_take(struct qs_arena *a, uint64_t *out) {
    pthread_mutex_lock(&a->ctl_lock);
    int rc = 0;
    if (atomic_load(&a->pending) > 0) {
        int self = qs_gettid();
        uint64_t head = atomic_load(&a->ref_head);
        uint64_t lo = head > QS_REFUSAL_RING ? head - QS_REFUSAL_RING : 0;
        struct qs_refusal *pick = NULL, *oldest = NULL;
        for (uint64_t idx = lo; idx < head; idx++) {
            struct qs_refusal *r = &a->refusals[idx % QS_REFUSAL_RING];
            if (atomic_load_explicit(&r->seq, memory_order_acquire) != idx + 1 || atomic_load(&r->taken)) continue;
            if (!oldest) oldest = r;
            if (r->tid == self) { pick = r; break; }
        }
        if (!pick) pick = oldest;
        if (pick) {
            atomic_store(&pick->taken, 1);
            out[0] = pick->reason; out[1] = (uint64_t)pick->err; out[2] = (uint64_t)pick->tid;
            out[3] = pick->addr; out[4] = pick->frame; out[5] = pick->page; out[6] = pick->tid == self;
        } else { /* pending but no record visible: overwritten (or still being written) */
            out[0] = QS_R_LOST; out[1] = 0; out[2] = 0; out[3] = 0; out[4] = 0; out[5] = 0; out[6] = 0;
        }
        atomic_fetch_sub(&a->pending, 1);
        rc = 1;
    }
    pthread_mutex_unlock(&a->ctl_lock);
    return rc;
}

