/* test_frames.c - the frame table and fault path in a plain C process: real SIGSEGVs on real
 * mprotect'ed memory. States, read/write faults, pre-images, dirty iteration, eviction, the
 * whole-arena reprotection, refusals (scratch page + pending word), the capacity fall-back,
 * concurrent faults and forwarding of foreign faults to the previous handler. */
#include "qs_test.h"
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>

#define FS 8192u
#define NPAGES 256u

static struct qs_arena *A;
static volatile uint64_t sink;

static uint64_t rd(uint64_t frame, uint64_t k) { return ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k]; }
static void wr(uint64_t frame, uint64_t k, uint64_t v) { ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k] = v; }
static uint32_t st(uint64_t frame) { return qs_frame_state(A, frame) & 0xff; }
static uint32_t fl(uint64_t frame) { return qs_frame_state(A, frame) >> 8; }

static uint64_t take(uint64_t *out) { return (uint64_t)qs_refusal_take(A, out); }

/* ---- foreign fault forwarding ---- */
static sigjmp_buf jb;
static volatile int prev_called;
static void prev_handler(int sig, siginfo_t *si, void *uc) { (void)sig; (void)si; (void)uc; prev_called++; siglongjmp(jb, 1); }

static void *read50(void *arg) { (void)arg; return (void *)(uintptr_t)rd(50, 4); }

static volatile int stop;
static void *reader(void *arg) {
    uint64_t seed = (uint64_t)(uintptr_t)arg * 7919 + 1, n = 0;
    while (!stop) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t f = (seed >> 33) % 64, k = 1 + (seed >> 20) % (FS / 8 - 1);
        uint64_t v = rd(f, k);
        if (v != qs_test_word(f, k)) { fprintf(stderr, "reader: frame %lu word %lu = %lu\n", (unsigned long)f, (unsigned long)k, (unsigned long)v); exit(1); }
        n++;
    }
    return (void *)(uintptr_t)n;
}

int main(void) {
    /* a previous handler, as HotSpot's would be */
    struct sigaction pa;
    memset(&pa, 0, sizeof pa);
    pa.sa_sigaction = prev_handler;
    pa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &pa, NULL);

    const char *path = qs_test_file(FS, NPAGES);
    CHECK(qs_arena_open(1024ull * FS, FS, 0x600000000000ull, QS_MODE_STORE, &A) == 0, "open");
    CHECK(qs_arena_at_preferred(A) == 1 && qs_arena_base(A) == 0x600000000000ull, "preferred base");
    CHECK(qs_signal_install() == 0 && qs_signal_install() == 0, "install idempotent");
    CHECK(qs_signal_mode() == 1, "interposed");
    int src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0, "source %d", src);
    CHECK(st(0) == QS_FREE, "fresh frame is FREE");
    CHECK(qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve");
    CHECK(st(5) == QS_RESERVED && qs_frame_page(A, 5) == 5, "reserved page 5");
    qs_arena_set_txn(A, 1);

    /* read fault */
    CHECK(rd(3, 7) == qs_test_word(3, 7), "read");
    CHECK(st(3) == QS_CLEAN && (fl(3) & QS_F_REF), "clean+ref");
    CHECK(qs_test_counter(A, QS_C_READ_FAULTS) == 1, "one read fault");
    CHECK(rd(3, 8) == qs_test_word(3, 8), "no second fault");
    CHECK(qs_test_counter(A, QS_C_READ_FAULTS) == 1, "still one read fault");
    CHECK(qs_test_counter(A, QS_C_BYTES_READ) == FS, "bytes read");

    /* loads through a buffer (qs_source.c): pread into a load buffer, pwrite into the frame's memory; the alias
     * path when no buffer is free or while qs_allocate runs. Same bytes either way; the buffer path takes no page
     * faults on the alias view (a pread into the alias takes one per 4 KiB page it fills). */
    {
        uint64_t *alias3 = (uint64_t *)(qs_arena_alias(A) + 3 * FS);
        CHECK(alias3[7] == qs_test_word(3, 7) && alias3[FS / 8 - 1] == qs_test_word(3, FS / 8 - 1), "alias holds the page");
        CHECK(atomic_load(&A->scratch_free) == (uint32_t)((1ull << QS_SCRATCH) - 1), "every load buffer released");
        struct rusage u0, u1, u2;
        getrusage(RUSAGE_THREAD, &u0);
        CHECK(rd(20, 9) == qs_test_word(20, 9), "load through a buffer");
        getrusage(RUSAGE_THREAD, &u1);
        atomic_store(&A->scratch_free, 0); /* every buffer taken: the alias path */
        CHECK(rd(21, 9) == qs_test_word(21, 9), "load into the alias");
        getrusage(RUSAGE_THREAD, &u2);
        atomic_store(&A->scratch_free, (uint32_t)((1ull << QS_SCRATCH) - 1));
        long mf_buffer = u1.ru_minflt - u0.ru_minflt, mf_alias = u2.ru_minflt - u1.ru_minflt;
        CHECK(mf_buffer < mf_alias && mf_alias >= 2, "minor faults: buffer %ld, alias %ld", mf_buffer, mf_alias);
        atomic_store(&A->allocating, 1); /* as while ArenaPopulator's fallocate runs: the alias path */
        CHECK(rd(22, FS / 8 - 1) == qs_test_word(22, FS / 8 - 1), "load while allocating");
        atomic_store(&A->allocating, 0);
        for (uint64_t f = 20; f <= 22; f++)
            for (uint64_t k = 1; k < FS / 8; k++) CHECK(rd(f, k) == qs_test_word(f, k), "frame %lu word %lu", (unsigned long)f, (unsigned long)k);
        CHECK(atomic_load(&A->scratch_free) == (uint32_t)((1ull << QS_SCRATCH) - 1), "buffers free after the loads");
        CHECK(qs_evict(A, 20, 3, 0) == 3 && st(20) == QS_RESERVED, "evict them again");
    }

    /* write fault on a clean frame, and on a reserved frame (read+write) */
    wr(3, 7, 42);
    CHECK(st(3) == QS_DIRTY && rd(3, 7) == 42, "dirty");
    uint64_t *pre = (uint64_t *)qs_preimage_of(A, 3);
    CHECK(pre && pre[7] == qs_test_word(3, 7), "pre-image holds the old value");
    {   /* the whole page, byte for byte (the capture copies with streaming stores, 64 bytes a step) */
        uint8_t *page = malloc(FS);
        qs_test_fill_page(page, FS, 3);
        CHECK(memcmp(pre, page, FS) == 0, "pre-image is the whole page as loaded");
        free(page);
    }
    wr(9, 1, 99);
    CHECK(st(9) == QS_DIRTY && rd(9, 2) == qs_test_word(9, 2), "write on reserved frame loads first");
    CHECK(qs_test_counter(A, QS_C_WRITE_FAULTS) == 2, "two write faults");
    CHECK(qs_test_counter(A, QS_C_PREIMAGE_BYTES) == 2 * FS, "pre-image bytes");
    uint64_t dl[8];
    CHECK(qs_dirty_list(A, 0, dl, 8) == 2 && dl[0] == 3 && dl[1] == 9, "dirty list");
    /* the dirty summary (one bit per 64 frames): lists across groups, in batches smaller than a group, and a
     * group whose frames were cleaned and dirtied again */
    wr(70, 1, 1); wr(130, 1, 1); wr(131, 1, 1); wr(200, 1, 1);
    CHECK(qs_dirty_list(A, 0, dl, 8) == 6 && dl[0] == 3 && dl[1] == 9 && dl[2] == 70 && dl[3] == 130 && dl[4] == 131
              && dl[5] == 200, "dirty list over four groups");
    CHECK(qs_dirty_list(A, 0, dl, 2) == 2 && dl[0] == 3 && dl[1] == 9, "first batch of two");
    CHECK(qs_dirty_list(A, 10, dl, 2) == 2 && dl[0] == 70 && dl[1] == 130, "second batch of two");
    CHECK(qs_dirty_list(A, 131, dl, 2) == 2 && dl[0] == 131 && dl[1] == 200, "third batch, inside a group");
    CHECK(qs_dirty_list(A, 201, dl, 2) == 0, "nothing after the last");
    CHECK(qs_mark_clean(A, 130) == 1 && qs_mark_clean(A, 131) == 1, "clean a whole group's dirty frames");
    CHECK(qs_dirty_list(A, 0, dl, 8) == 4 && dl[2] == 70 && dl[3] == 200, "cleaned group not listed");
    wr(131, 2, 2);
    CHECK(qs_dirty_list(A, 0, dl, 8) == 5 && dl[3] == 131 && dl[4] == 200, "dirty again: listed again");
    CHECK(qs_mark_clean(A, 70) == 1 && qs_mark_clean(A, 131) == 1 && qs_mark_clean(A, 200) == 1, "clean them");
    CHECK(qs_evict(A, 64, 192, 0) == 4, "evict them");
    CHECK(qs_dirty_list(A, 0, dl, 8) == 2 && dl[0] == 3 && dl[1] == 9, "dirty list back to two");
    CHECK(qs_mark_clean(A, 3) == 1 && st(3) == QS_CLEAN && qs_preimage_of(A, 3) == 0, "mark clean");
    wr(3, 7, 43); /* faults again: write protection was restored */
    CHECK(qs_test_counter(A, QS_C_WRITE_FAULTS) == 8, "write fault after clean (3 + the summary test's 5)");
    CHECK(qs_evict(A, 0, 16, 1) == 2, "discard evicts the two dirty frames");
    CHECK(rd(3, 7) == qs_test_word(3, 7), "discarded write is gone after re-read");

    /* eviction of clean frames */
    for (uint64_t f = 0; f < 8; f++) sink = rd(f, 1);
    CHECK(qs_evict(A, 0, 8, 0) == 8 && st(4) == QS_RESERVED, "evict run");
    CHECK(qs_arena_resident(A) == 0, "nothing resident");
    CHECK(rd(4, 5) == qs_test_word(4, 5) && qs_frame_loads(A, 4) == 2, "re-read after eviction");

    /* reserving over a resident frame fails and undoes the part already reserved */
    CHECK(qs_reserve(A, 0, 8, (uint32_t)src, 0) == -16, "EBUSY over resident frame 4");
    CHECK(st(0) == QS_FREE && st(3) == QS_FREE && st(4) == QS_CLEAN, "undone");
    CHECK(qs_reserve(A, 0, 4, (uint32_t)src, 0) == 4 && st(2) == QS_RESERVED, "re-reserve");

    /* whole-arena reprotection: reference faults, no I/O */
    uint64_t br = qs_test_counter(A, QS_C_BYTES_READ);
    CHECK(qs_reprotect_all(A) == 1, "one resident frame reprotected");
    CHECK(st(4) == QS_CLEAN && (fl(4) & QS_F_DISABLED) && !(fl(4) & QS_F_REF), "protnone");
    CHECK(rd(4, 6) == qs_test_word(4, 6), "ref fault read");
    CHECK(qs_test_counter(A, QS_C_REF_FAULTS) == 1 && qs_test_counter(A, QS_C_BYTES_READ) == br, "ref fault without I/O");

    /* reprotecting a range (classic clock): only the resident frames inside it lose access */
    sink = rd(2, 1);
    sink = rd(3, 1);
    CHECK(st(2) == QS_CLEAN && st(3) == QS_CLEAN && st(4) == QS_CLEAN, "frames 2..4 resident");
    CHECK(qs_reprotect(A, 3, 2) == 2, "two resident frames reprotected");
    CHECK(!(fl(2) & QS_F_DISABLED) && (fl(3) & QS_F_DISABLED) && (fl(4) & QS_F_DISABLED), "only 3 and 4");
    CHECK(rd(3, 2) == qs_test_word(3, 2) && rd(4, 2) == qs_test_word(4, 2) && rd(2, 2) == qs_test_word(2, 2),
          "values intact");
    CHECK(qs_test_counter(A, QS_C_REF_FAULTS) == 3 && qs_test_counter(A, QS_C_BYTES_READ) == br + 2 * FS,
          "two reference faults, no I/O beyond the two loads");
    CHECK(qs_reprotect(A, NPAGES, 2048) == -ERANGE, "range check");
    CHECK(qs_evict(A, 2, 2, 0) == 2 && st(2) == QS_RESERVED && st(3) == QS_RESERVED, "evicted back to reserved");

    /* refusals: not reserved, released, checksum, no transaction */
    uint64_t out[7];
    CHECK(take(out) == 0, "nothing pending");
    CHECK(rd(700, 3) == 0, "unreserved frame reads zeros");
    wr(700, 3, 5); /* harmless: scratch */
    CHECK(st(700) == QS_REFUSED, "refused");
    CHECK(*(volatile uint64_t *)qs_arena_pending_addr(A) == 1, "pending word");
    CHECK(take(out) == 1 && out[0] == QS_R_NOT_RESERVED && out[3] == qs_arena_base(A) + 700 * FS + 24 && out[4] == 700 && out[6] == 1,
          "record %lu %lx", (unsigned long)out[0], (unsigned long)out[3]);
    CHECK(qs_reset_refused(A, 700, 1) == 1 && st(700) == QS_FREE, "reset");
    CHECK(qs_release(A, 10, 1) == 1, "release");
    CHECK(rd(10, 1) == 0 && take(out) == 1 && out[0] == QS_R_RELEASED && out[4] == 10, "released");
    CHECK(qs_reserve(A, 10, 1, (uint32_t)src, 10) == 1 && st(10) == QS_RESERVED, "re-reserve a refused frame");
    CHECK(rd(10, 1) == qs_test_word(10, 1), "works again");
    /* corrupt page 11 in the file */
    int fd = open(path, O_WRONLY);
    uint64_t bad = 12345;
    CHECK(pwrite(fd, &bad, 8, 11 * FS + 100 * 8) == 8, "corrupt");
    close(fd);
    CHECK(rd(11, 100) == 0 && take(out) == 1 && out[0] == QS_R_CHECKSUM && out[5] == 11, "checksum");
    qs_arena_set_verify(A, 0);
    CHECK(qs_reset_refused(A, 11, 1) == 1 && rd(11, 100) == bad, "verify off reads the bytes");
    qs_arena_set_verify(A, 1);
    { /* repair page 11 */
        uint8_t page[FS];
        qs_test_fill_page(page, FS, 11);
        fd = open(path, O_WRONLY);
        CHECK(pwrite(fd, page, FS, 11 * FS) == FS, "repair");
        close(fd);
    }
    qs_arena_set_txn(A, 0);
    CHECK(rd(12, 1) == 0 && take(out) == 1 && out[0] == QS_R_NO_TXN, "read outside txn");
    sink = rd(4, 1); /* resident: readable without a fault */
    wr(4, 1, 77);
    CHECK(st(4) == QS_REFUSED && (fl(4) & QS_F_SCRATCH_COW), "refused write keeps a private copy");
    CHECK(rd(4, 2) == qs_test_word(4, 2) && take(out) == 1 && out[0] == QS_R_NO_TXN, "write outside txn");
    uint64_t alias4;
    memcpy(&alias4, (void *)(qs_arena_alias(A) + 4 * FS + 8), 8);
    CHECK(alias4 == qs_test_word(4, 1), "refused store never reaches the alias view");
    CHECK(qs_reset_refused(A, 0, 64) == 2, "reset both");
    qs_arena_set_txn(A, 1);
    CHECK(rd(4, 1) == qs_test_word(4, 1) && rd(12, 1) == qs_test_word(12, 1), "after reset");

    /* capacity: 4 resident frames max; fault path evicts unreferenced clean frames or overcommits */
    qs_evict(A, 0, NPAGES, 1);
    qs_arena_set_budgets(A, 4, 0);
    for (uint64_t f = 0; f < 4; f++) sink = rd(f, 1);
    qs_reprotect_all(A); /* clears REF: these four become victims */
    for (uint64_t f = 20; f < 24; f++) sink = rd(f, 1);
    CHECK(qs_test_counter(A, QS_C_FAULT_EVICTIONS) == 4 && qs_arena_resident(A) == 4, "fault-path evictions %lu",
          (unsigned long)qs_test_counter(A, QS_C_FAULT_EVICTIONS));
    sink = rd(30, 1); /* all four are referenced: overcommit */
    CHECK(qs_test_counter(A, QS_C_OVERCOMMITS) == 1 && qs_arena_pressure(A) == 1 && qs_arena_resident(A) == 5, "overcommit");
    qs_arena_set_budgets(A, 0, 0);
    qs_evict(A, 0, NPAGES, 1);

    /* keep-memory eviction and populate: the memory stays allocated, the next load reads into it */
    CHECK(st(40) == QS_RESERVED && st(41) == QS_RESERVED, "frames 40, 41 reserved");
    uint32_t l40 = qs_frame_loads(A, 40);
    CHECK(qs_populate(A, 40, 8) == 8 && st(40) == QS_RESERVED, "populate changes no state");
    CHECK(qs_populate(A, NPAGES, 1024) == -ERANGE, "populate range check");
    CHECK(st(42) == QS_RESERVED && qs_allocate(A, 42, 4) == 4 && st(42) == QS_RESERVED, "allocate changes no state");
    CHECK(qs_allocate(A, NPAGES, 1024) == -ERANGE, "allocate range check");
    CHECK(rd(42, 5) == qs_test_word(42, 5) && st(42) == QS_CLEAN, "a load reads into allocated memory");
    CHECK(qs_evict(A, 42, 1, 0) == 1 && st(42) == QS_RESERVED, "frame 42 evicted again");
    sink = rd(40, 1);
    sink = rd(41, 1);
    CHECK(qs_evict(A, 40, 8, QS_EVICT_KEEP_MEMORY) == 2 && st(40) == QS_RESERVED && qs_arena_resident(A) == 0, "evict keeping memory");
    CHECK(((volatile uint64_t *)(qs_arena_alias(A) + 40 * FS))[3] == qs_test_word(40, 3), "memory kept (stale bytes, alias only)");
    CHECK(rd(40, 3) == qs_test_word(40, 3) && qs_frame_loads(A, 40) == l40 + 2, "re-read into kept memory");
    wr(41, 2, 7);
    CHECK(qs_evict(A, 40, 8, QS_EVICT_KEEP_MEMORY) == 1 && st(41) == QS_DIRTY, "keep-memory evict leaves dirty frames");
    CHECK(qs_evict(A, 40, 8, QS_EVICT_DISCARD | QS_EVICT_KEEP_MEMORY) == 1 && st(41) == QS_RESERVED, "discard keeping memory");
    CHECK(rd(41, 2) == qs_test_word(41, 2), "discarded write gone after a reload into kept memory");
    qs_evict(A, 0, NPAGES, 1);
    CHECK(((volatile uint64_t *)(qs_arena_alias(A) + 40 * FS))[3] == 0, "plain evict frees (punches) the memory");

    /* waiter bit: a fault waiting on a BUSY frame announces itself; unlock wakes it; no bit otherwise */
    {
        struct qs_frame *f50 = qs_frame_at(A, 50);
        CHECK(qs_frame_lock(A, f50) == QS_RESERVED, "lock 50");
        pthread_t w;
        pthread_create(&w, NULL, read50, NULL);
        while (!(atomic_load(&f50->state) & QS_WAITERS)) sched_yield();
        CHECK((qs_frame_state(A, 50) & 0xff) == QS_BUSY, "state without the waiter bit for Java");
        uint64_t waits0 = qs_test_counter(A, QS_C_WAITS);
        qs_frame_unlock(f50, QS_RESERVED);
        void *r;
        pthread_join(w, &r);
        CHECK((uint64_t)(uintptr_t)r == qs_test_word(50, 4) && st(50) == QS_CLEAN, "woken waiter loaded the frame");
        CHECK(atomic_load(&f50->state) == QS_CLEAN && waits0 >= 1, "no waiter bit left, wait counted");
    }
    qs_evict(A, 0, NPAGES, 1);

    /* concurrency: readers on 64 frames while this thread evicts and reprotects */
    pthread_t th[4];
    for (int t = 0; t < 4; t++) pthread_create(&th[t], NULL, reader, (void *)(uintptr_t)(t + 1));
    /* At least 2000 rounds, and on until the readers have faulted enough (a loaded machine may
     * schedule them late); a deadline keeps a broken build from hanging. */
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t round = 0;; round++) {
        if (round % 10 == 0) qs_reprotect_all(A);
        else qs_evict(A, (round * 7) % 60, 4, 0);
        if (round >= 2000 && qs_test_counter(A, QS_C_READ_FAULTS) > 64 + 200) break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > 60) break;
    }
    stop = 1;
    uint64_t reads = 0;
    for (int t = 0; t < 4; t++) { void *r; pthread_join(th[t], &r); reads += (uint64_t)(uintptr_t)r; }
    CHECK(reads > 0 && qs_test_counter(A, QS_C_READ_FAULTS) > 64, "concurrent reads %lu", (unsigned long)reads);
    CHECK(*(volatile uint64_t *)qs_arena_pending_addr(A) == 0, "no refusal under concurrency");
    uint64_t faults = qs_test_counter(A, QS_C_READ_FAULTS) + qs_test_counter(A, QS_C_REF_FAULTS);

    /* a foreign fault goes to the previous handler */
    uint8_t *foreign = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (sigsetjmp(jb, 1) == 0) { sink = *(volatile uint8_t *)foreign; CHECK(0, "no fault"); }
    CHECK(prev_called == 1 && qs_signal_forwarded() >= 1, "forwarded");

    qs_arena_close(A);

    /* write-ahead (qs_fault.c): a write fault whose predecessor frame is DIRTY also makes the following CLEAN,
     * readable frames writable (pre-image each); a lone write fault does not; the run ends at a frame that is not
     * resident, at one reprotected by the clock, and at the limit; card marking never writes ahead */
    CHECK(qs_arena_open(1024ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for write-ahead");
    src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve for write-ahead");
    CHECK(qs_arena_set_writeahead(A, 65) == -EINVAL && qs_arena_set_writeahead(A, 4) == 0, "write-ahead 0..64");
    qs_arena_set_txn(A, 1);
    for (uint64_t f = 10; f <= 40; f++) if (f != 28) sink = rd(f, 1); /* CLEAN and readable; 28 stays RESERVED */
    wr(10, 3, 1000);
    CHECK(st(10) == QS_DIRTY && st(11) == QS_CLEAN && qs_test_counter(A, QS_C_WRITEAHEAD) == 0,
          "a write fault after a clean frame claims nothing");
    wr(11, 3, 1001); /* 10 is DIRTY: 12..15 become writable with 11 */
    CHECK(qs_test_counter(A, QS_C_WRITEAHEAD) == 4 && qs_test_counter(A, QS_C_WRITE_FAULTS) == 2, "four claimed");
    for (uint64_t f = 12; f <= 15; f++) {
        uint8_t *page = malloc(FS);
        qs_test_fill_page(page, FS, f);
        CHECK(st(f) == QS_DIRTY && qs_preimage_of(A, f) && memcmp((const void *)qs_preimage_of(A, f), page, FS) == 0,
              "claimed frame %lu is DIRTY with its whole page as pre-image", (unsigned long)f);
        free(page);
    }
    CHECK(st(16) == QS_CLEAN, "at most four");
    for (uint64_t f = 12; f <= 15; f++) wr(f, 5, f);
    CHECK(qs_test_counter(A, QS_C_WRITE_FAULTS) == 2, "writes to claimed frames take no fault");
    CHECK(rd(12, 5) == 12 && rd(15, 5) == 15 && rd(14, 6) == qs_test_word(14, 6), "claimed frames hold the writes");
    wr(25, 3, 1); /* alone */
    wr(26, 3, 1); /* 27 claimed, then 28 is not resident: the run ends */
    CHECK(st(27) == QS_DIRTY && st(28) == QS_RESERVED && qs_test_counter(A, QS_C_WRITEAHEAD) == 5,
          "the run ends at a frame that is not resident");
    CHECK(qs_reprotect_range(A, 33, 34) >= 0 && (fl(33) & QS_F_DISABLED), "frame 33 reprotected by the clock");
    wr(30, 3, 1); wr(31, 3, 1); /* 32 claimed, 33 is PROTNONE */
    CHECK(st(32) == QS_DIRTY && st(33) == QS_CLEAN && qs_test_counter(A, QS_C_WRITEAHEAD) == 6,
          "the run ends at a reprotected frame");
    wr(35, 3, 1); /* alone (34 is CLEAN, 33 reprotected) */
    CHECK(st(36) == QS_CLEAN && qs_test_counter(A, QS_C_WRITEAHEAD) == 6, "35 alone");
    wr(37, 3, 1); /* 36 is CLEAN but 35 is DIRTY: every other page is a stream too; 41 is not resident */
    CHECK(st(36) == QS_CLEAN && st(38) == QS_DIRTY && st(40) == QS_DIRTY && st(41) == QS_RESERVED
              && qs_test_counter(A, QS_C_WRITEAHEAD) == 9,
          "two frames back: 38..40 claimed");
    uint64_t wl[32];
    int64_t nd = qs_dirty_list(A, 0, wl, 32);
    CHECK(nd == 17, "dirty: 10..15, 25..27, 30..32, 35, 37..40 and no other (%ld)", (long)nd);
    CHECK(qs_mark_clean_list(A, wl, (uint64_t)nd, 16) == nd && st(12) == QS_CLEAN && qs_preimage_of(A, 12) == 0,
          "claimed frames end like written ones");
    qs_arena_set_writeahead(A, 0);
    wr(10, 3, 1); wr(11, 3, 1);
    CHECK(st(12) == QS_CLEAN && qs_test_counter(A, QS_C_WRITEAHEAD) == 9, "0 turns it off");
    /* a write-heavy transaction (QS_WRITEAHEAD_HEAVY write faults since it began) claims without a stream: faults
     * on every third frame (two clean predecessors each) claim nothing until the 32nd, then the next one claims the
     * frames after it and, behind it, up to half the window */
    nd = qs_dirty_list(A, 0, wl, 32);
    CHECK(qs_mark_clean_list(A, wl, (uint64_t)nd, 16) == nd, "clean before the heavy transaction");
    qs_arena_set_txn(A, 0);
    qs_arena_set_txn(A, 1); /* a new transaction: its count starts at 0 */
    qs_arena_set_writeahead(A, 2);
    for (uint64_t f = 100; f < 100 + 3 * 34; f++) sink = rd(f, 1);
    uint64_t wh0 = qs_test_counter(A, QS_C_WRITEAHEAD), wf1 = qs_test_counter(A, QS_C_WRITE_FAULTS);
    for (uint64_t k = 0; k < QS_WRITEAHEAD_HEAVY; k++) wr(100 + 3 * k, 3, 1);
    CHECK(qs_test_counter(A, QS_C_WRITEAHEAD) == wh0 && st(101) == QS_CLEAN
              && qs_test_counter(A, QS_C_WRITE_FAULTS) == wf1 + QS_WRITEAHEAD_HEAVY,
          "lone faults claim nothing below the threshold");
    wr(100 + 3 * QS_WRITEAHEAD_HEAVY, 3, 1);
    CHECK(qs_test_counter(A, QS_C_WRITEAHEAD) == wh0 + 3 && st(197) == QS_DIRTY && st(198) == QS_DIRTY
              && st(199) == QS_CLEAN && st(195) == QS_DIRTY && st(194) == QS_CLEAN,
          "a write-heavy transaction claims around a lone fault (196: 197 and 198 ahead, 195 behind)");
    for (uint64_t f = 194; f <= 199; f++) wr(f, 5, f);
    CHECK(rd(195, 5) == 195 && rd(197, 5) == 197 && rd(195, 6) == qs_test_word(195, 6),
          "frames claimed behind hold the writes and their bytes");
    uint8_t *p195 = malloc(FS);
    qs_test_fill_page(p195, FS, 195);
    CHECK(qs_preimage_of(A, 195) && memcmp((const void *)qs_preimage_of(A, 195), p195, FS) == 0,
          "a frame claimed behind has its whole page as pre-image");
    free(p195);
    qs_arena_set_txn(A, 0);
    qs_arena_close(A);
    CHECK(qs_arena_open(1024ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for write-ahead under cards");
    src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve under cards");
    CHECK(qs_arena_set_write_detection(A, 9 /* cards of 512 bytes */) == 0 && qs_arena_set_writeahead(A, 4) == 0,
          "cards");
    qs_arena_set_txn(A, 1);
    for (uint64_t f = 0; f < 8; f++) sink = rd(f, 1);
    wr(1, 3, 1); wr(2, 3, 1);
    CHECK(qs_test_counter(A, QS_C_WRITEAHEAD) == 0 && qs_test_counter(A, QS_C_WRITE_FAULTS) == 0,
          "card marking: no write faults, nothing claimed");
    qs_arena_close(A);

    /* qs_mark_dirty_run (ABI 14): the store announces a run of frames it is about to write; each CLEAN, readable
     * frame gets its pre-image and each run of them one mprotect; a DIRTY frame, one not resident and one the
     * clock reprotected are left to their write faults; nothing while write-ahead is off; beyond the arena refused */
    CHECK(qs_arena_open(1024ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for announced runs");
    src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve for announced runs");
    qs_arena_set_txn(A, 1);
    for (uint64_t f = 50; f <= 60; f++) if (f != 55) sink = rd(f, 1); /* 55 stays RESERVED */
    CHECK(qs_mark_dirty_run(A, 50, 4) == 0 && st(50) == QS_CLEAN, "write-ahead off: nothing announced");
    qs_arena_set_writeahead(A, 8);
    CHECK(qs_mark_dirty_run(A, 1025, 0) == -ERANGE && qs_mark_dirty_run(A, 1000, 25) == -ERANGE,
          "beyond the arena");
    wr(51, 3, 7); /* DIRTY by its fault (50 is CLEAN: no stream) */
    CHECK(qs_reprotect_range(A, 58, 59) >= 0 && (fl(58) & QS_F_DISABLED), "frame 58 reprotected by the clock");
    uint64_t wf0 = qs_test_counter(A, QS_C_WRITE_FAULTS), wa0 = qs_test_counter(A, QS_C_WRITEAHEAD);
    CHECK(st(51) == QS_DIRTY && wa0 == 0, "51 alone");
    int64_t made = qs_mark_dirty_run(A, 50, 11);
    CHECK(made == 8 && qs_test_counter(A, QS_C_WRITEAHEAD) == 8, "50, 52-54, 56-57, 59-60 announced (%ld)",
          (long)made);
    static const uint64_t ann[] = { 50, 52, 53, 54, 56, 57, 59, 60 };
    for (int k = 0; k < 8; k++) {
        uint64_t f = ann[k];
        uint8_t *page = malloc(FS);
        qs_test_fill_page(page, FS, f);
        CHECK(st(f) == QS_DIRTY && qs_preimage_of(A, f) && memcmp((const void *)qs_preimage_of(A, f), page, FS) == 0,
              "announced frame %lu is DIRTY with its page as pre-image", (unsigned long)f);
        free(page);
        wr(f, 5, f);
    }
    CHECK(qs_test_counter(A, QS_C_WRITE_FAULTS) == wf0, "writes to announced frames take no fault");
    CHECK(rd(50, 5) == 50 && rd(60, 5) == 60 && rd(53, 6) == qs_test_word(53, 6), "announced frames hold the writes");
    CHECK(st(55) == QS_RESERVED && st(58) == QS_CLEAN && rd(51, 3) == 7, "the others left alone");
    wr(58, 5, 1);
    CHECK(st(58) == QS_DIRTY && qs_test_counter(A, QS_C_WRITE_FAULTS) == wf0 + 1, "58 faults as before");
    CHECK(qs_mark_dirty_run(A, 50, 11) == 0, "nothing left to announce");
    uint64_t rl[32];
    int64_t nr = qs_dirty_list(A, 0, rl, 32);
    CHECK(nr == 10 && qs_mark_clean_list(A, rl, (uint64_t)nr, 16) == nr && st(52) == QS_CLEAN
              && qs_preimage_of(A, 52) == 0,
          "announced frames end like written ones (%ld dirty)", (long)nr);
    qs_arena_close(A);
    CHECK(qs_arena_open(1024ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for announced runs under cards");
    src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve under cards");
    CHECK(qs_arena_set_write_detection(A, 9) == 0 && qs_arena_set_writeahead(A, 4) == 0, "cards");
    qs_arena_set_txn(A, 1);
    for (uint64_t f = 0; f < 8; f++) sink = rd(f, 1);
    CHECK(qs_mark_dirty_run(A, 0, 8) == 0 && st(3) == QS_CLEAN, "card marking: nothing announced");
    qs_arena_close(A);

    /* commit's clean list that detaches the pre-images (ABI 13): the slots stay the caller's until released, a
     * write after the clean point gets a fresh slot holding the image at the clean point */
    CHECK(qs_arena_open(1024ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for detach");
    src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve for detach");
    qs_arena_set_txn(A, 1);
    {
        uint8_t *orig = malloc(FS);
        for (uint64_t f = 0; f < 12; f++) sink = rd(f, 1);
        wr(1, 7, 101); wr(2, 7, 102); wr(4, 7, 104); wr(6, 7, 106); /* 3 and 5 stay CLEAN: bridges */
        /* under minor faults a clock zaps CLEAN frames only and leaves a DIRTY one alone (qs_arena.c): the PROTNONE
         * case below is then the plain pass's */
        CHECK(qs_reprotect_range(A, 6, 7) >= 0 && st(6) == QS_DIRTY
                  && (qs_zaps(A) ? !(fl(6) & QS_F_DISABLED) : (fl(6) & QS_F_PROTNONE) != 0),
              "frame 6 DIRTY and reprotected by the clock, or left alone under zapping");
        CHECK(atomic_load(&A->pre.used_bytes) == 4ull * FS, "four pre-images in use");
        uint64_t pre1 = qs_preimage_of(A, 1);
        uint64_t list[5] = { 1, 2, 4, 6, 8 }, slots[5] = { 9, 9, 9, 9, 9 }, addrs[5] = { 9, 9, 9, 9, 9 };
        CHECK(qs_mark_clean_list_detach(A, list, 5, 16, slots, addrs) == 4, "four cleaned");
        for (int k = 0; k < 4; k++) {
            uint64_t f = list[k];
            qs_test_fill_page(orig, FS, f);
            CHECK(slots[k] != 0 && addrs[k] == (uint64_t)qs_preimage_addr(A, (uint32_t)slots[k])
                      && memcmp((const void *)addrs[k], orig, FS) == 0,
                  "frame %lu's detached slot holds the page as loaded", (unsigned long)f);
            CHECK(st(f) == QS_CLEAN && qs_preimage_of(A, f) == 0 && rd(f, 7) == 100 + f,
                  "frame %lu CLEAN without a slot, its bytes kept", (unsigned long)f);
        }
        CHECK(addrs[0] == pre1, "the slot is the frame's pre-image, not a copy");
        CHECK(slots[4] == 0 && addrs[4] == 0, "a listed frame that was not dirty gets no slot");
        CHECK(atomic_load(&A->pre.used_bytes) == 4ull * FS, "detached slots stay counted until released");
        uint64_t wf = qs_test_counter(A, QS_C_WRITE_FAULTS);
        wr(1, 8, 201); /* after the clean point: a write fault and a fresh slot */
        wr(6, 8, 206); /* the PROTNONE case: reference + write fault */
        CHECK(qs_test_counter(A, QS_C_WRITE_FAULTS) >= wf + 2 && st(1) == QS_DIRTY && st(6) == QS_DIRTY,
              "writes after the clean point fault");
        for (int k = 0; k < 4; k += 3) {
            uint64_t f = list[k];
            const uint64_t *np = (const uint64_t *)qs_preimage_of(A, f);
            CHECK(np != NULL && (uint64_t)np != addrs[0] && (uint64_t)np != addrs[1] && (uint64_t)np != addrs[2]
                      && (uint64_t)np != addrs[3],
                  "frame %lu's new pre-image is a fresh slot", (unsigned long)f);
            CHECK(np[7] == 100 + f && np[8] == qs_test_word(f, 8), "frame %lu's new pre-image = image at the clean point",
                  (unsigned long)f);
            qs_test_fill_page(orig, FS, f);
            CHECK(memcmp((const void *)addrs[k], orig, FS) == 0, "frame %lu's detached slot is intact", (unsigned long)f);
        }
        CHECK(atomic_load(&A->pre.used_bytes) == 6ull * FS, "two fresh slots beside the four detached");
        uint64_t bad = 1ull << 40;
        CHECK(qs_preimage_release_list(A, &bad, 1) == -EINVAL, "not a slot");
        CHECK(qs_preimage_release_list(A, slots, 5) == 4, "four released");
        CHECK(atomic_load(&A->pre.used_bytes) == 2ull * FS, "released slots leave the budget");
        uint64_t rest[2] = { 1, 6 };
        CHECK(qs_mark_clean_list(A, rest, 2, 16) == 2 && atomic_load(&A->pre.used_bytes) == 0,
              "the old call still frees; accounting back to zero");
        /* an invalid list: the runs before the error are clean and their slots handed over */
        wr(20, 1, 1); wr(21, 1, 1);
        uint64_t badlist[3] = { 20, 21, 21 }, s3[3], a3[3];
        CHECK(qs_mark_clean_list_detach(A, badlist, 3, 16, s3, a3) == -EINVAL && st(20) == QS_CLEAN && s3[0] && s3[1]
                  && s3[2] == 0,
              "earlier runs cleaned and reported on -EINVAL");
        CHECK(qs_preimage_release_list(A, s3, 3) == 2 && atomic_load(&A->pre.used_bytes) == 0, "released after the error");
        free(orig);
    }
    qs_arena_close(A);
    /* card marking: a clean frame stays writable; detaching needs no mprotect */
    CHECK(qs_arena_open(1024ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for detach under cards");
    src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve for detach under cards");
    CHECK(qs_arena_set_write_detection(A, 9) == 0, "cards");
    qs_arena_set_txn(A, 1);
    {
        sink = rd(3, 1);
        CHECK(qs_mark_card(A, 3ull * FS + 56) == 1, "barrier");
        wr(3, 7, 33);
        uint64_t l1[1] = { 3 }, s1[1], a1[1];
        CHECK(qs_mark_clean_list_detach(A, l1, 1, 16, s1, a1) == 1 && s1[0] && st(3) == QS_CLEAN
                  && ((const uint64_t *)a1[0])[7] == qs_test_word(3, 7),
              "card-marked frame detached with its pre-image");
        CHECK(((uint8_t *)qs_arena_cards(A))[(3ull * FS + 56) >> 9] == 0, "its cards are clean again");
        CHECK(qs_mark_card(A, 3ull * FS + 64) == 1 && qs_preimage_of(A, 3) != a1[0]
                  && ((const uint64_t *)qs_preimage_of(A, 3))[7] == 33,
              "the next barrier takes a fresh slot with the image at the clean point");
        CHECK(qs_preimage_release_list(A, s1, 1) == 1 && atomic_load(&A->pre.used_bytes) == FS, "one left in use");
    }
    qs_arena_close(A);

    /* scanning (pre-image at load): a read fault in a transaction makes the frame DIRTY; the dirty summary lists it */
    CHECK(qs_arena_open(8192ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for scanning");
    CHECK(qs_arena_set_write_detection(A, 0x100u /* QS_WD_PREIMAGE_ON_LOAD */) == 0, "scanning");
    src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve for scanning");
    CHECK(qs_reserve(A, 8000, 1, (uint32_t)src, 100) == 1, "a frame in the arena's last summary word");
    qs_arena_set_txn(A, 1);
    sink = rd(5, 1);
    sink = rd(8000, 1);
    CHECK(st(5) == QS_DIRTY && st(8000) == QS_DIRTY, "loaded dirty");
    CHECK(qs_dirty_list(A, 0, dl, 8) == 2 && dl[0] == 5 && dl[1] == 8000, "scanning's dirty frames listed");
    qs_arena_close(A);
    CHECK(qs_signal_uninstall() == 1 && qs_signal_uninstall() == 0, "uninstall idempotent");
    unlink(path);
    printf("test_frames: %d checks passed (%lu concurrent reads, %lu faults)\n", qs_checks, (unsigned long)reads,
           (unsigned long)faults);
    return 0;
}
