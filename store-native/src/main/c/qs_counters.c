/*
 * qs_counters.c - counters and refusal records as the control plane reads them.
 *
 * Counters are per arena, updated with relaxed atomic adds by the fault path; a snapshot is a copy
 * (each counter individually consistent). Refusal records are written by the fault path into a ring
 * (qs_fault.c) and taken here under the arena's control lock, which the handler never takes.
 */
#include "qs_arena.h"
#include "qs_export.h"

/* Copies min(n, QS_C_COUNT) counters into out; returns QS_C_COUNT. */
QS_EXPORT int qs_counters(struct qs_arena *a, uint64_t *out, int n) {
    for (int k = 0; k < n && k < QS_C_COUNT; k++) out[k] = atomic_load_explicit(&a->counters[k], memory_order_relaxed);
    return QS_C_COUNT;
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

QS_EXPORT int qs_gettid_export(void) { return qs_gettid(); }
