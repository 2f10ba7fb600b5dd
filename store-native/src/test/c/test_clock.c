/* test_clock.c - the replacement clocks of the data plane (qs_clock.c) with real SIGSEGVs: the
 * resident budget is never exceeded while clean victims exist, the victim is the one each policy
 * names (simplified: first disabled frame, reprotect-all when none; classic: second chance by
 * reprotecting runs), dirty and held frames are never victims (the load overcommits instead), and the
 * bytes read are always the page's. */
#include "qs_test.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#define FS 8192u
#define NPAGES 64u
#define BUDGET 8u

static struct qs_arena *A;
static volatile uint64_t sink;
static uint64_t rd(uint64_t frame, uint64_t k) { return ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k]; }
static void wr(uint64_t frame, uint64_t k, uint64_t v) { ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k] = v; }
static uint32_t st(uint64_t frame) { return qs_frame_state(A, frame) & 0xff; }
static uint32_t fl(uint64_t frame) { return qs_frame_state(A, frame) >> 8; }
static uint64_t C(int c) { return qs_test_counter(A, c); }

static void open_arena(const char *path, int policy, uint64_t base) {
    CHECK(qs_arena_open(256ull * FS, FS, base, QS_MODE_STORE, &A) == 0, "open");
    int src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0, "source %d", src);
    CHECK(qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve");
    CHECK(qs_arena_set_policy(A, policy) == 0, "policy");
    CHECK(qs_arena_set_policy(A, 7) == -EINVAL, "unknown policy refused");
    qs_arena_set_budgets(A, BUDGET, 0);
    qs_arena_set_txn(A, 1);
}

/* a pseudo-random walk over all pages: the budget holds after every fault and every value is right */
static void walk(void) {
    uint64_t x = 12345;
    for (int n = 0; n < 2000; n++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t p = (x >> 33) % NPAGES, k = 1 + (x >> 20) % (FS / 8 - 1);
        CHECK(rd(p, k) == qs_test_word(p, k), "page %lu word %lu", (unsigned long)p, (unsigned long)k);
        CHECK(qs_arena_resident(A) <= BUDGET, "resident %lu > budget after %d accesses",
              (unsigned long)qs_arena_resident(A), n);
    }
    CHECK(C(QS_C_OVERCOMMITS) == 0, "clean victims existed: no overcommit");
}

/* every resident frame dirty (or held): nothing is evictable, the next load overcommits */
static void all_dirty(void) {
    qs_evict(A, 0, NPAGES, QS_EVICT_DISCARD);
    CHECK(qs_arena_resident(A) == 0, "empty");
    for (uint64_t f = 0; f < BUDGET - 1; f++) wr(f, 2, 77);
    sink = rd(BUDGET - 1, 1);
    CHECK(qs_frame_hold(A, BUDGET - 1, QS_F_WAL, 1) == 0, "hold");
    CHECK(qs_frame_hold(A, BUDGET - 1, QS_F_REF, 1) == -EINVAL, "only hold bits");
    uint64_t over = C(QS_C_OVERCOMMITS), victims = C(QS_C_CLOCK_VICTIMS);
    CHECK(qs_clock_evict(A) == -1, "Java's call finds no victim either");
    CHECK(rd(40, 3) == qs_test_word(40, 3), "load still served");
    CHECK(C(QS_C_OVERCOMMITS) == over + 1 && qs_arena_resident(A) == BUDGET + 1, "overcommitted");
    /* the failed sweep is remembered: the next over-budget load overcommits without sweeping again */
    uint64_t fails = C(QS_C_CLOCK_FAILS), alls = C(QS_C_REPROTECT_ALLS), runs = C(QS_C_CLOCK_RUNS);
    CHECK(fails >= 1, "failed sweep counted");
    CHECK(rd(41, 3) == qs_test_word(41, 3), "load 41");
    CHECK(C(QS_C_CLOCK_FAILS) == fails && C(QS_C_REPROTECT_ALLS) == alls && C(QS_C_CLOCK_RUNS) == runs, "no sweep");
    CHECK(C(QS_C_OVERCOMMITS) == over + 2 && qs_arena_resident(A) == BUDGET + 2, "overcommitted again");
    CHECK(qs_evict(A, 41, 1, 0) == 1 && qs_arena_resident(A) == BUDGET + 1, "Java evicts 41");
    CHECK(C(QS_C_CLOCK_VICTIMS) == victims, "no dirty or held victim");
    for (uint64_t f = 0; f < BUDGET - 1; f++) CHECK(st(f) == QS_DIRTY && rd(f, 2) == 77, "dirty frame %lu kept", (unsigned long)f);
    CHECK(st(BUDGET - 1) == QS_CLEAN, "held frame kept");
    /* released hold: Java's call evicts it (by the policy) and the pool is back at its budget */
    CHECK(qs_frame_hold(A, BUDGET - 1, QS_F_WAL, 0) == 0, "unhold");
    int64_t v = qs_clock_evict(A);
    CHECK(v == BUDGET - 1 || v == 40, "victim %ld is clean", (long)v);
    CHECK(qs_arena_resident(A) == BUDGET, "back at budget");
    qs_evict(A, 0, NPAGES, QS_EVICT_DISCARD);
}

/* 4 threads fault concurrently over all pages: every value right; the budget can only be exceeded by
 * loads that found every other resident frame transient (owned by the other threads) */
static _Atomic int bad;
static void *racer(void *arg) {
    uint64_t x = (uint64_t)(uintptr_t)arg * 7919 + 1;
    for (int n = 0; n < 20000; n++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t p = (x >> 33) % NPAGES, k = 1 + (x >> 20) % (FS / 8 - 1);
        if (rd(p, k) != qs_test_word(p, k)) atomic_fetch_add(&bad, 1);
    }
    return NULL;
}
static void concurrent(void) {
    pthread_t t[4];
    uint64_t victims = C(QS_C_CLOCK_VICTIMS);
    for (int k = 0; k < 4; k++) pthread_create(&t[k], NULL, racer, (void *)(uintptr_t)k);
    for (int k = 0; k < 4; k++) pthread_join(t[k], NULL);
    CHECK(atomic_load(&bad) == 0, "%d wrong values under concurrent faults", atomic_load(&bad));
    CHECK(qs_arena_resident(A) <= BUDGET + 4, "resident %lu", (unsigned long)qs_arena_resident(A));
    CHECK(C(QS_C_CLOCK_VICTIMS) > victims + 1000, "the clock evicted under concurrency");
    uint64_t resident = 0;
    for (uint64_t f = 0; f < NPAGES; f++) resident += st(f) == QS_CLEAN || st(f) == QS_DIRTY;
    CHECK(resident == qs_arena_resident(A), "resident count %lu matches the frames %lu",
          (unsigned long)qs_arena_resident(A), (unsigned long)resident);
    printf("test_clock: concurrent: %lu overcommits of %lu victims\n", (unsigned long)C(QS_C_OVERCOMMITS),
           (unsigned long)(C(QS_C_CLOCK_VICTIMS) - victims));
}

static void simplified(const char *path) {
    open_arena(path, QS_POLICY_SIMPLIFIED, 0x610000000000ull);
    for (uint64_t f = 0; f < BUDGET; f++) sink = rd(f, 1);
    CHECK(qs_arena_resident(A) == BUDGET && C(QS_C_CLOCK_VICTIMS) == 0, "filled");
    /* no frame is disabled: the whole space is reprotected, then the hand takes the first frame */
    CHECK(rd(8, 5) == qs_test_word(8, 5), "load 8");
    CHECK(C(QS_C_REPROTECT_ALLS) == 1 && C(QS_C_CLOCK_REPROTECTED) == BUDGET, "one reprotect-all of %u frames", BUDGET);
    CHECK(st(0) == QS_RESERVED && C(QS_C_CLOCK_VICTIMS) == 1 && qs_arena_resident(A) == BUDGET, "victim 0");
    for (uint64_t f = 1; f < BUDGET; f++)
        CHECK(st(f) == QS_CLEAN && (fl(f) & QS_F_DISABLED), "frame %lu disabled", (unsigned long)f);
    CHECK(st(8) == QS_CLEAN && !(fl(8) & QS_F_DISABLED), "8 enabled");
    /* a reference re-enables frame 1: the hand passes it and takes 2; no new reprotect-all */
    CHECK(rd(1, 9) == qs_test_word(1, 9) && C(QS_C_REF_FAULTS) == 1, "reference fault on 1");
    sink = rd(9, 1);
    CHECK(st(1) == QS_CLEAN && st(2) == QS_RESERVED && C(QS_C_REPROTECT_ALLS) == 1, "victim 2, 1 kept");
    /* a pinned frame (store fix) is neither disabled-and-unreferenced nor evictable */
    CHECK(qs_frame_hold(A, 3, QS_F_PINNED, 1) == 0 && (fl(3) & QS_F_REF), "pin is a reference");
    sink = rd(10, 1);
    CHECK(st(3) == QS_CLEAN && st(4) == QS_RESERVED, "victim 4, pinned 3 kept");
    /* Java's side uses the same hand: the next victim is 5 */
    CHECK(qs_clock_evict(A) == 5 && qs_arena_resident(A) == BUDGET - 1, "Java evicts 5");
    /* the store's own loads are bounded too */
    static uint8_t page[FS];
    qs_test_fill_page(page, FS, 11);
    sink = rd(12, 1);
    CHECK(qs_arena_resident(A) == BUDGET, "full again");
    CHECK(qs_install(A, 11, page) == 1 && qs_arena_resident(A) == BUDGET, "install evicts first");
    CHECK(rd(11, 4) == qs_test_word(11, 4), "installed bytes");
    qs_frame_hold(A, 3, QS_F_PINNED, 0);
    walk();
    CHECK(C(QS_C_REPROTECT_ALLS) > 1 && C(QS_C_CLOCK_RUNS) == 0, "simplified never reprotects runs");
    all_dirty();
    concurrent();
    qs_arena_close(A);
}

static void classic(const char *path) {
    open_arena(path, QS_POLICY_CLASSIC, 0x620000000000ull);
    for (uint64_t f = 0; f < BUDGET; f++) sink = rd(f, 1);
    /* all referenced: one sweep clears 0..7 with one mprotect, the wrap takes 0 */
    CHECK(rd(8, 5) == qs_test_word(8, 5), "load 8");
    CHECK(C(QS_C_CLOCK_RUNS) == 1 && C(QS_C_CLOCK_REPROTECTED) == BUDGET, "one run of %u", BUDGET);
    CHECK(C(QS_C_REPROTECT_ALLS) == 0, "classic never reprotects everything");
    CHECK(st(0) == QS_RESERVED && qs_arena_resident(A) == BUDGET, "victim 0");
    /* frame 1 referenced again: second chance (its bit cleared by reprotecting it), victim 2 */
    sink = rd(1, 1);
    sink = rd(9, 1);
    CHECK(st(1) == QS_CLEAN && (fl(1) & QS_F_DISABLED) && st(2) == QS_RESERVED, "1 cleared, victim 2");
    CHECK(C(QS_C_CLOCK_RUNS) == 2 && C(QS_C_CLOCK_REPROTECTED) == BUDGET + 1, "one more run of one frame");
    /* a dirty unreferenced frame is passed over, the next clean one is taken */
    wr(3, 2, 5);
    qs_reprotect(A, 3, 1); /* clear its bit: dirty and unreferenced */
    sink = rd(10, 1);
    CHECK(st(3) == QS_DIRTY && st(4) == QS_RESERVED, "dirty 3 passed over, victim 4");
    CHECK(rd(3, 2) == 5 && st(3) == QS_DIRTY, "dirty bytes kept");
    qs_evict(A, 0, NPAGES, QS_EVICT_DISCARD);
    walk();
    CHECK(C(QS_C_REPROTECT_ALLS) == 0 && C(QS_C_CLOCK_RUNS) > 2, "classic reprotects runs only");
    all_dirty();
    concurrent();
    qs_arena_close(A);
}

int main(void) {
    const char *path = qs_test_file(FS, NPAGES);
    CHECK(qs_signal_install() == 0, "install");
    simplified(path);
    classic(path);
    unlink(path);
    printf("test_clock: %d checks passed\n", qs_checks);
    return 0;
}
