/*
 * qs_arena.c - the arena: one memfd mapped twice (application view with per-frame protection,
 * always-writable alias view), the frame descriptor table, and the low-level helpers that change a
 * frame's mapping (protect, punch, scratch). QuickStore section 3.1-3.2 (virtual frames mapped onto
 * buffer frames with mmap); design-notes section 4 (two views of one memfd, VMA limit).
 *
 * Functions marked [signal-safe] are called from the SIGSEGV handler: they use raw syscalls and
 * C11 atomics only, never malloc/stdio/locks, and preserve nothing but what the handler restores.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* ---- futex / tid [signal-safe] ---------------------------------------------------------------- */
void qs_futex_wait(_Atomic uint32_t *w, uint32_t expected) {
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}
void qs_futex_wake(_Atomic uint32_t *w) {
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}
int qs_gettid(void) { return (int)syscall(SYS_gettid); }

static int is_transient(uint32_t s) { return qs_state(s) == QS_LOADING || qs_state(s) == QS_BUSY; }

/* [signal-safe] Announce the waiter, then sleep while the word is unchanged. If the word changed
 * meanwhile (the owner unlocked), return at once: the caller re-reads the state. */
void qs_frame_wait(struct qs_frame *f, uint32_t seen) {
    if (!(seen & QS_WAITERS)) {
        if (!atomic_compare_exchange_strong_explicit(&f->state, &seen, seen | QS_WAITERS, memory_order_acq_rel,
                                                     memory_order_acquire))
            return;
        seen |= QS_WAITERS;
    }
    qs_futex_wait(&f->state, seen);
}

/* [signal-safe] */
uint32_t qs_frame_lock(struct qs_arena *a, struct qs_frame *f) {
    (void)a;
    for (;;) {
        uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
        if (is_transient(s)) { qs_frame_wait(f, s); continue; }
        if (atomic_compare_exchange_weak_explicit(&f->state, &s, QS_BUSY, memory_order_acq_rel, memory_order_acquire))
            return s;
    }
}
/* [signal-safe] */
void qs_frame_unlock(struct qs_frame *f, uint32_t new_state) {
    /* a frame published resident or refused has had its view changed (mapped, reprotected, remapped): from now on
     * its loads set the view's protection (QS_F_VIEW_TOUCHED); set before the state, which releases it */
    if ((new_state == QS_CLEAN || new_state == QS_DIRTY || new_state == QS_REFUSED)
        && !(atomic_load_explicit(&f->flags, memory_order_relaxed) & QS_F_VIEW_TOUCHED))
        atomic_fetch_or_explicit(&f->flags, QS_F_VIEW_TOUCHED, memory_order_relaxed);
    uint32_t old = atomic_exchange_explicit(&f->state, new_state, memory_order_release);
    if (old & QS_WAITERS) qs_futex_wake(&f->state);
}

/* ---- mapping helpers [signal-safe] ---------------------------------------------------------- */
void qs_punch(struct qs_arena *a, uint64_t first, uint64_t n) {
    if (n == 0) return;
    /* Frees the memory; later reads through either view see zeros. */
    if (fallocate(a->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)(first << a->frame_shift),
                  (off_t)(n << a->frame_shift)) != 0) {
        /* MADV_REMOVE on the alias is equivalent for shmem. */
        madvise(qs_alias_addr(a, first), n << a->frame_shift, MADV_REMOVE);
    }
}

int qs_map_scratch(struct qs_arena *a, uint64_t i, int cow) {
    uint32_t t = atomic_load(&a->test_fail_scratch);
    while (t > 0 && !atomic_compare_exchange_weak(&a->test_fail_scratch, &t, t - 1)) {}
    if (t > 0) return ENOMEM;
    void *p;
    if (cow)
        p = mmap(qs_app_addr(a, i), a->frame_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED,
                 a->memfd, (off_t)(i << a->frame_shift));
    else
        p = mmap(qs_app_addr(a, i), a->frame_size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? errno : 0;
}

uint32_t qs_vma_reserve_release(struct qs_arena *a, uint32_t n) {
    uint32_t done = 0;
    for (int k = 0; k < QS_VMA_RESERVE && done < n; k++) {
        void *p = atomic_exchange(&a->vma_reserve[k], NULL);
        if (p) {
            munmap(p, a->vma_reserve_bytes);
            done++;
        }
    }
    return done;
}

/* Each reserve page maps offset 0 of the memfd: mappings of one file merge only when their file
 * offsets are contiguous, so no two reserve pages (nor a reserve page and a view) ever merge, and
 * each one that is unmapped gives the kernel's mapping count back one. */
int qs_vma_reserve_refill(struct qs_arena *a) {
    int have = 0;
    for (int k = 0; k < QS_VMA_RESERVE; k++) {
        if (atomic_load(&a->vma_reserve[k]) != NULL) { have++; continue; }
        void *p = mmap(NULL, a->vma_reserve_bytes, PROT_NONE, MAP_SHARED | MAP_NORESERVE, a->memfd, 0);
        if (p == MAP_FAILED) continue;
        void *expected = NULL;
        if (atomic_compare_exchange_strong(&a->vma_reserve[k], &expected, p)) have++;
        else munmap(p, a->vma_reserve_bytes);
    }
    return have;
}

QS_EXPORT int qs_vma_reserve_count(struct qs_arena *a) {
    int have = 0;
    for (int k = 0; k < QS_VMA_RESERVE; k++) have += atomic_load(&a->vma_reserve[k]) != NULL;
    return have;
}

/* Tests: the next n scratch mappings of the refusal path fail with ENOMEM, as at vm.max_map_count. */
QS_EXPORT void qs_test_fail_scratch(struct qs_arena *a, uint32_t n) { atomic_store(&a->test_fail_scratch, n); }

int qs_restore_view(struct qs_arena *a, uint64_t i) {
    void *p = mmap(qs_app_addr(a, i), a->frame_size, PROT_NONE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE,
                   a->memfd, (off_t)(i << a->frame_shift));
    return p == MAP_FAILED ? errno : 0; /* kernel tracking: the caller registers the new mapping (qs_frames.c) */
}

/* Reprotects stable resident frames near i to PROT_NONE (flag QS_F_PROTNONE, REF cleared) so that
 * their islands merge with neighbouring PROT_NONE mappings, freeing VMAs. The frames stay resident;
 * the next access takes a cheap reference fault. Returns the number of frames reprotected.
 * [signal-safe]: only CAS on stable states, never waits. */
static uint64_t collapse_span(struct qs_arena *a, uint64_t i, uint64_t span);

/* Tries the 256 frames on either side first, then the whole used part of the arena. */
uint64_t qs_collapse_around(struct qs_arena *a, uint64_t i) {
    uint64_t n = collapse_span(a, i, 256);
    return n ? n : collapse_span(a, i, atomic_load(&a->hwm));
}

static uint64_t collapse_span(struct qs_arena *a, uint64_t i, uint64_t span) {
    uint64_t lo = i > span ? i - span : 0, hi = i + span < a->nframes ? i + span : a->nframes;
    uint64_t done = 0, run = 0, run_start = 0;
    for (uint64_t j = lo; j <= hi; j++) {
        int locked = 0;
        if (j < hi && j != i) {
            struct qs_frame *f = qs_frame_at(a, j);
            uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
            if ((s == QS_CLEAN || s == QS_DIRTY) &&
                atomic_compare_exchange_strong_explicit(&f->state, &s, QS_BUSY, memory_order_acq_rel, memory_order_relaxed)) {
                locked = 1;
                if (run == 0) run_start = j;
                run++;
            }
        }
        if (!locked && run > 0) {
            mprotect(qs_app_addr(a, run_start), run << a->frame_shift, PROT_NONE); /* merge never needs a VMA */
            for (uint64_t k = run_start; k < run_start + run; k++) {
                struct qs_frame *g = qs_frame_at(a, k);
                atomic_fetch_or(&g->flags, QS_F_PROTNONE);
                atomic_fetch_and(&g->flags, ~QS_F_REF);
                /* a frame is DIRTY exactly when it holds a pre-image */
                int dirty = g->preimage_slot != 0;
                qs_frame_unlock(g, dirty ? QS_DIRTY : QS_CLEAN);
                if (dirty) qs_dirty_note(a, k); /* it was DIRTY already; noted again for the summary's sake */
            }
            done += run;
            run = 0;
        }
    }
    if (done) qs_count(a, QS_C_VMA_COLLAPSES, 1);
    return done;
}

/* [signal-safe] Disables access to frames [start, start+n), held by the caller, for a clock's reference bits: their
 * page-table entries in the view zapped where the arena zaps (qs_zaps: the view keeps its protection, the next access
 * is a minor fault), else PROT_NONE (to NONE never needs a VMA). Returns the flag for the run's resident frames:
 * QS_F_ZAPPED or QS_F_PROTNONE. */
uint32_t qs_disable_run(struct qs_arena *a, uint64_t start, uint64_t n) {
    if (qs_zaps(a) && madvise(qs_app_addr(a, start), n << a->frame_shift, MADV_DONTNEED) == 0) return QS_F_ZAPPED;
    mprotect(qs_app_addr(a, start), n << a->frame_shift, PROT_NONE);
    return QS_F_PROTNONE;
}

/* Disables access to the resident frames of [s0, s1) (held BUSY by qs_reprotect_range, prior state in prior_state)
 * with one qs_disable_run; returns how many were resident. [signal-safe] */
static int64_t disable_stretch(struct qs_arena *a, uint64_t s0, uint64_t s1) {
    int64_t resident = 0;
    uint32_t how = qs_disable_run(a, s0, s1 - s0);
    for (uint64_t k = s0; k < s1; k++) {
        struct qs_frame *g = qs_frame_at(a, k);
        /* a RESERVED or FREE frame's view is NONE now; zapping leaves every view's protection alone */
        if (how == QS_F_PROTNONE) atomic_fetch_or(&g->flags, QS_F_VIEW_TOUCHED);
        if (g->prior_state == QS_CLEAN || g->prior_state == QS_DIRTY) {
            qs_frame_disabled(g, how);
            resident++;
        }
    }
    return resident;
}

/* Disables access to the resident frames of a run [lo, lo+n) that qs_reprotect_range holds BUSY, unlocks the run and
 * returns how many were disabled. Without zapping, one mprotect(NONE) over the whole run. Zapping (qs_zaps): CLEAN
 * frames only, one MADV_DONTNEED per stretch of them bridging at most ZAP_BRIDGE frames that are not resident (claimed
 * too, nothing mapped); a DIRTY frame ends a stretch and is left alone (never a victim). Measured on the large OO7
 * build under a pool of one eighth (docs/results.md): zapping every frame of a run walked the page tables of the whole
 * arena per pass, a call per resident frame made nine million calls, and zapping the RW islands of DIRTY frames cost
 * half again the system time of mprotect; CLEAN stretches cost what mprotect did. [signal-safe] */
#define ZAP_BRIDGE 256
static int64_t disable_run_and_unlock(struct qs_arena *a, uint64_t lo, uint64_t n) {
    int64_t resident = 0;
    if (!qs_zaps(a)) {
        resident = disable_stretch(a, lo, lo + n);
    } else {
        uint64_t seg = lo, last = UINT64_MAX; /* the open stretch [seg, last] of CLEAN frames (last: none yet) */
        for (uint64_t j = lo; j <= lo + n; j++) {
            uint32_t p = j < lo + n ? qs_frame_at(a, j)->prior_state : QS_FREE;
            int clean = j < lo + n && p == QS_CLEAN;
            if (last != UINT64_MAX && (j == lo + n || p == QS_DIRTY || (clean && j - last - 1 > ZAP_BRIDGE))) {
                resident += disable_stretch(a, seg, last + 1);
                last = UINT64_MAX;
            }
            if (clean) {
                if (last == UINT64_MAX) seg = j;
                last = j;
            }
        }
    }
    for (uint64_t k = lo; k < lo + n; k++) qs_frame_unlock(qs_frame_at(a, k), qs_frame_at(a, k)->prior_state);
    return resident;
}

/* Reprotects frames [lo, hi) (hi <= hwm) to PROT_NONE, one mprotect per run of lockable frames (under minor faults
 * zaps the clean ones instead: disable_run_and_unlock).
 * Returns the number of resident frames reprotected. [signal-safe]: CAS on stable states only, never waits
 * (the simplified clock runs it inside the fault path). */
int64_t qs_reprotect_range(struct qs_arena *a, uint64_t lo, uint64_t hi) {
    const uint64_t chunk = 4096;
    int64_t resident = 0;
    for (uint64_t c = lo; c < hi; c += chunk) {
        uint64_t ce = c + chunk < hi ? c + chunk : hi;
        uint64_t run_start = 0, run = 0;
        for (uint64_t i = c; i <= ce; i++) {
            int locked = 0;
            if (i < ce) {
                struct qs_frame *f = qs_frame_at(a, i);
                uint32_t s = atomic_load_explicit(&f->state, memory_order_acquire);
                if ((s == QS_FREE || s == QS_RESERVED || s == QS_CLEAN || s == QS_DIRTY) &&
                    atomic_compare_exchange_strong_explicit(&f->state, &s, QS_BUSY, memory_order_acq_rel, memory_order_relaxed)) {
                    f->prior_state = s;
                    locked = 1;
                    if (run == 0) run_start = i;
                    run++;
                }
            }
            if (!locked && run > 0) {
                resident += disable_run_and_unlock(a, run_start, run);
                run = 0;
            }
        }
    }
    return resident;
}

/* [signal-safe] Sets the protection of frame i, recovering once from ENOMEM (the VMA limit) by
 * collapsing islands around it. The caller holds the frame in a transient state. */
int qs_protect_frame(struct qs_arena *a, uint64_t i, int prot) {
    if (mprotect(qs_app_addr(a, i), a->frame_size, prot) == 0) return 0;
    int e = errno;
    if (e != ENOMEM) return e;
    if (qs_collapse_around(a, i) == 0) return ENOMEM;
    return mprotect(qs_app_addr(a, i), a->frame_size, prot) == 0 ? 0 : errno;
}

/* ---- open / close ------------------------------------------------------------------------------- */
#define QS_OK 0
/* Error codes returned (negated errno otherwise); Java maps them to messages. */

QS_EXPORT int qs_arena_open(uint64_t size, uint32_t frame_size, uint64_t preferred_base, int mode,
                            struct qs_arena **out) {
    long os_page = sysconf(_SC_PAGESIZE);
    if (frame_size < (uint64_t)os_page || (frame_size & (frame_size - 1)) != 0) return -EINVAL;
    if (size == 0 || size % frame_size != 0) return -EINVAL;
    if (mode != QS_MODE_STORE && mode != QS_MODE_BARE) return -EINVAL;
    struct qs_arena *a = mmap(NULL, sizeof *a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED) return -errno;
    memset(a, 0, sizeof *a);
    int err = 0;
    a->size = size;
    a->frame_size = frame_size;
    a->frame_shift = (uint32_t)__builtin_ctz(frame_size);
    a->nframes = size / frame_size;
    a->mode = mode;
    a->memfd = -1;
    a->uffd = -1;
    a->minor_uffd = -1;
    a->pagemap = -1;
    a->clean_prot = PROT_READ;
    atomic_store(&a->verify, 1);
    pthread_mutex_init(&a->ctl_lock, NULL);
    a->memfd = (int)syscall(SYS_memfd_create, "quickstore-arena", MFD_CLOEXEC);
    if (a->memfd < 0) { err = errno; goto fail; }
    if (ftruncate(a->memfd, (off_t)size) != 0) { err = errno; goto fail; }
    void *app = MAP_FAILED;
    if (preferred_base != 0) {
        app = mmap((void *)preferred_base, size, PROT_NONE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                   a->memfd, 0);
        if (app != MAP_FAILED && (uint64_t)app != preferred_base) { munmap(app, size); app = MAP_FAILED; }
        a->at_preferred = app != MAP_FAILED;
    }
    if (app == MAP_FAILED) app = mmap(NULL, size, PROT_NONE, MAP_SHARED | MAP_NORESERVE, a->memfd, 0);
    if (app == MAP_FAILED) { err = errno; goto fail; }
    a->app = app;
    void *alias = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, a->memfd, 0);
    if (alias == MAP_FAILED) { err = errno; goto fail; }
    a->alias = alias;
    void *sc = mmap(NULL, (size_t)QS_SCRATCH * frame_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (sc == MAP_FAILED) { err = errno; goto fail; }
    a->scratch = sc;
    atomic_store(&a->scratch_free, (uint32_t)((1ull << QS_SCRATCH) - 1));
    void *fr = mmap(NULL, a->nframes * sizeof(struct qs_frame), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (fr == MAP_FAILED) { err = errno; goto fail; }
    a->frames = fr;
    void *pm = mmap(NULL, a->nframes * (frame_size / 64), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (pm == MAP_FAILED) { err = errno; goto fail; }
    a->ptrmaps = pm;
    void *dg = mmap(NULL, qs_dirty_words(a->nframes) * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (dg == MAP_FAILED) { err = errno; goto fail; }
    a->dirty_groups = dg;
    void *nx = mmap(NULL, (size_t)QS_PRE_MAX_CHUNKS * QS_PRE_CHUNK_SLOTS * sizeof(uint32_t), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (nx == MAP_FAILED) { err = errno; goto fail; }
    a->pre.next = nx;
    void *zp = mmap(NULL, frame_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (zp == MAP_FAILED) { err = errno; goto fail; }
    a->pre.zero = zp;
    a->vma_reserve_bytes = (uint32_t)sysconf(_SC_PAGESIZE);
    qs_vma_reserve_refill(a);
    if (qs_registry_add(a) != 0) { err = EMFILE; goto fail; }
    *out = a;
    return QS_OK;
fail:
    qs_vma_reserve_release(a, QS_VMA_RESERVE);
    if (a->pre.zero) munmap(a->pre.zero, frame_size);
    if (a->pre.next) munmap((void *)a->pre.next, (size_t)QS_PRE_MAX_CHUNKS * QS_PRE_CHUNK_SLOTS * sizeof(uint32_t));
    if (a->dirty_groups) munmap((void *)a->dirty_groups, qs_dirty_words(a->nframes) * sizeof(uint64_t));
    if (a->ptrmaps) munmap(a->ptrmaps, a->nframes * (frame_size / 64));
    if (a->frames) munmap(a->frames, a->nframes * sizeof(struct qs_frame));
    if (a->scratch) munmap(a->scratch, (size_t)QS_SCRATCH * frame_size);
    if (a->alias) munmap(a->alias, size);
    if (a->app) munmap(a->app, size);
    if (a->memfd >= 0) close(a->memfd);
    munmap(a, sizeof *a);
    return -err;
}

/* The caller (Java) guarantees that no thread accesses the application view any more: the
 * MemorySegment of the view belongs to a shared java.lang.foreign.Arena closed first. */
QS_EXPORT void qs_arena_close(struct qs_arena *a) {
    if (a == NULL) return;
    qs_registry_remove(a);
    for (int k = 0; k < QS_MAX_SOURCES; k++)
        if (a->sources[k].ops) a->sources[k].ops->close(&a->sources[k]);
    for (uint32_t k = 0; k < atomic_load(&a->nxtables); k++) {
        struct qs_xtable *t = atomic_load(&a->xtables[k]);
        if (t) munmap(t, sizeof *t + t->n * sizeof(struct qs_xrange));
    }
    if (a->minor_uffd >= 0) close(a->minor_uffd); /* minor faults (qs_minor.c): closing unregisters */
    if (a->uffd >= 0) close(a->uffd); /* kernel write tracking (qs_kwp.c): closing unregisters */
    if (a->pagemap >= 0) close(a->pagemap);
    if (a->kwp_regions) munmap(a->kwp_regions, a->kwp_regions_bytes);
    qs_preimage_destroy(a);
    qs_texas_destroy(a);
    if (a->cards) munmap(a->cards, a->size >> a->card_shift);
    qs_vma_reserve_release(a, QS_VMA_RESERVE);
    munmap((void *)a->pre.next, (size_t)QS_PRE_MAX_CHUNKS * QS_PRE_CHUNK_SLOTS * sizeof(uint32_t));
    munmap(a->pre.zero, a->frame_size);
    munmap((void *)a->dirty_groups, qs_dirty_words(a->nframes) * sizeof(uint64_t));
    munmap(a->ptrmaps, a->nframes * (a->frame_size / 64));
    munmap(a->frames, a->nframes * sizeof(struct qs_frame));
    munmap(a->scratch, (size_t)QS_SCRATCH * a->frame_size);
    uint8_t *rb = atomic_load(&a->ra_buf);
    if (rb) munmap(rb, (size_t)QS_READAHEAD_MAX << a->frame_shift);
    munmap(a->alias, a->size);
    munmap(a->app, a->size);
    close(a->memfd);
    pthread_mutex_destroy(&a->ctl_lock);
    munmap(a, sizeof *a);
}

QS_EXPORT uint64_t qs_arena_base(struct qs_arena *a) { return (uint64_t)a->app; }
QS_EXPORT uint64_t qs_arena_alias(struct qs_arena *a) { return (uint64_t)a->alias; }
QS_EXPORT uint64_t qs_arena_size(struct qs_arena *a) { return a->size; }
QS_EXPORT uint32_t qs_arena_frame_size(struct qs_arena *a) { return a->frame_size; }
QS_EXPORT int qs_arena_at_preferred(struct qs_arena *a) { return a->at_preferred; }
QS_EXPORT uint64_t qs_arena_pending_addr(struct qs_arena *a) { return (uint64_t)&a->pending; }
QS_EXPORT uint64_t qs_arena_pressure(struct qs_arena *a) { return atomic_load(&a->pressure); }
QS_EXPORT uint64_t qs_arena_resident(struct qs_arena *a) { return atomic_load(&a->resident); }
QS_EXPORT void qs_arena_set_verify(struct qs_arena *a, int on) { atomic_store(&a->verify, on != 0); }
QS_EXPORT void qs_arena_set_txn(struct qs_arena *a, int on) {
    if (on) atomic_store(&a->txn_write_faults, 0); /* write-ahead's measure of a write-heavy transaction */
    atomic_store(&a->in_txn, on != 0);
}
/* Page locks from the fault path (ABI 7): frames of sources that lock (a page server under locking) take a
 * shared lock on their first read in a transaction and an exclusive one on their first write. */
QS_EXPORT void qs_arena_set_locking(struct qs_arena *a, int on) { atomic_store(&a->locking, on != 0); }
QS_EXPORT void qs_arena_set_budgets(struct qs_arena *a, uint64_t max_resident, uint64_t preimage_bytes) {
    atomic_store(&a->max_resident, max_resident);
    atomic_store(&a->preimage_budget, preimage_bytes);
}
