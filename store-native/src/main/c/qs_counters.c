/*
 * qs_counters.c - the fault path's counters as the control plane reads them.
 *
 * Counters are per arena, updated with relaxed atomic adds by the fault path; a snapshot is a copy
 * (each counter individually consistent).
 */
#include "qs_arena.h"
#include "qs_export.h"

/* Copies min(n, QS_C_COUNT) counters into out; returns QS_C_COUNT. */
QS_EXPORT int qs_counters(struct qs_arena *a, uint64_t *out, int n) {
    for (int k = 0; k < n && k < QS_C_COUNT; k++) out[k] = atomic_load_explicit(&a->counters[k], memory_order_relaxed);
    return QS_C_COUNT;
}

QS_EXPORT int qs_gettid_export(void) { return qs_gettid(); }
