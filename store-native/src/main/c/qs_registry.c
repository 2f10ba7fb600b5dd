/*
 * qs_registry.c - the registry of open arenas: how the signal handler (qs_signal.c -> qs_fault.c) finds
 * the arena an address belongs to. Arenas are added by qs_arena_open and removed by qs_arena_close;
 * lookups are lock-free acquire loads (async-signal-safe), so the handler never waits on an open or
 * close in progress.
 */
#include "qs_arena.h"

#define QS_MAX_ARENAS 64
static struct qs_arena *_Atomic registry[QS_MAX_ARENAS];

int qs_registry_add(struct qs_arena *a) {
    for (int k = 0; k < QS_MAX_ARENAS; k++) {
        struct qs_arena *expected = NULL;
        if (atomic_compare_exchange_strong(&registry[k], &expected, a)) return 0;
    }
    return -1;
}
void qs_registry_remove(struct qs_arena *a) {
    for (int k = 0; k < QS_MAX_ARENAS; k++) {
        struct qs_arena *expected = a;
        atomic_compare_exchange_strong(&registry[k], &expected, NULL);
    }
}
/* [signal-safe] */
struct qs_arena *qs_registry_find(const void *addr) {
    uintptr_t p = (uintptr_t)addr;
    for (int k = 0; k < QS_MAX_ARENAS; k++) {
        struct qs_arena *a = atomic_load_explicit(&registry[k], memory_order_acquire);
        if (a && p >= (uintptr_t)a->app && p - (uintptr_t)a->app < a->size) return a;
    }
    return NULL;
}

