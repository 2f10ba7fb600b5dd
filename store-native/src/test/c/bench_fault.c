/* bench_fault.c - not a test (build.sh runs test_*.c only): a C microbenchmark that decomposes the
 * cost of a read/write fault into its parts, with clock_gettime around each part, in one process.
 *   bash store-native/src/test/c/bench_fault.sh
 * Prints median ns per operation for: whole read fault (store arena, page-cache file, CRC on),
 * bare read fault (mprotect only), whole write fault on a clean frame, bare write fault, and the
 * pieces: pread into a punched memfd page vs into a resident one, CRC32C of a page, mprotect of one
 * frame, futex wake without waiters, clock_gettime. */
#include "qs_test.h"
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#define FS 8192u
#define N 2048u
#define ROUNDS 5

static uint64_t now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec; }
static int cmp(const void *x, const void *y) { uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y; return a < b ? -1 : a > b; }
static int cmpd(const void *x, const void *y) { double a = *(const double *)x, b = *(const double *)y; return a < b ? -1 : a > b; }
static uint64_t samples[N];
static double median_ns(void) { qsort(samples, N, sizeof samples[0], cmp); return (double)samples[N / 2]; }
static volatile uint64_t sink;

static void report(const char *what, double *r) {
    double lo = r[0], hi = r[0];
    for (int k = 1; k < ROUNDS; k++) { if (r[k] < lo) lo = r[k]; if (r[k] > hi) hi = r[k]; }
    qsort(r, ROUNDS, sizeof r[0], cmpd);
    printf("%-48s median of medians %8.0f ns  (rounds %0.0f..%0.0f)\n", what, r[ROUNDS / 2], lo, hi);
}

int main(void) {
    const char *path = qs_test_file(FS, N);
    struct qs_arena *S, *B;
    CHECK(qs_arena_open((uint64_t)N * FS, FS, 0, QS_MODE_STORE, &S) == 0, "open store");
    CHECK(qs_arena_open((uint64_t)(N + 1) * FS, FS, 0, QS_MODE_BARE, &B) == 0, "open bare");
    CHECK(qs_signal_install() == 0, "install");
    int src = qs_source_open_file(S, path, 0);
    CHECK(src >= 0, "src");
    CHECK(qs_reserve(S, 0, N, (uint32_t)src, 0) == N, "reserve");
    qs_arena_set_txn(S, 1);
    int fd = open(path, O_RDONLY);
    uint8_t *sb = (uint8_t *)qs_arena_base(S), *bb = (uint8_t *)qs_arena_base(B);
    uint8_t *sal = (uint8_t *)qs_arena_alias(S), *bal = (uint8_t *)qs_arena_alias(B);
    memset(bal, 1, (size_t)(N + 1) * FS); /* bare pages resident */
    double r[16][ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        int m = 0;
        /* store read fault: frames evicted (punched) */
        qs_evict(S, 0, N, 1);
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        r[m++][round] = median_ns();
        /* store write fault on clean resident frames */
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1] = f; samples[f] = now() - t; }
        r[m++][round] = median_ns();
        for (uint32_t f = 0; f < N; f++) qs_mark_clean(S, f);
        /* reference fault (reprotectAll then touch) */
        uint64_t t0 = now();
        int64_t res = qs_reprotect_all(S);
        samples[0] = now() - t0;
        r[m++][round] = res ? (double)samples[0] / (double)res : 0;
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        r[m++][round] = median_ns();
        /* bare read + write */
        qs_reprotect_all(B);
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        r[m++][round] = median_ns();
        qs_reprotect_all(B);
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1] = f; samples[f] = now() - t; }
        r[m++][round] = median_ns();
        /* pieces */
        qs_evict(S, 0, N, 1); /* punched */
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); CHECK(pread(fd, sal + (uint64_t)f * FS, FS, (off_t)f * FS) == FS, "pread"); samples[f] = now() - t; }
        r[m++][round] = median_ns();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); CHECK(pread(fd, sal + (uint64_t)f * FS, FS, (off_t)f * FS) == FS, "pread"); samples[f] = now() - t; }
        r[m++][round] = median_ns();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += qs_crc32c(sal + (uint64_t)f * FS + 4, FS - 4); samples[f] = now() - t; }
        r[m++][round] = median_ns();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); mprotect(bb + (uint64_t)f * FS, FS, PROT_READ); samples[f] = now() - t; }
        r[m++][round] = median_ns();
        _Atomic uint32_t w = 0;
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); syscall(SYS_futex, (uint32_t *)&w, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0); samples[f] = now() - t; }
        r[m++][round] = median_ns();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += now(); samples[f] = now() - t; }
        r[m++][round] = median_ns();
        /* read fault after an eviction that kept the memory (QS_EVICT_KEEP_MEMORY) */
        for (uint32_t f = 0; f < N; f++) sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1];
        qs_evict(S, 0, N, QS_EVICT_KEEP_MEMORY);
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        r[m++][round] = median_ns();
        /* read fault into punched memory populated ahead (qs_populate) */
        qs_evict(S, 0, N, 0);
        t0 = now();
        qs_populate(S, 0, N);
        samples[0] = now() - t0;
        r[m++][round] = (double)samples[0] / N;
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        r[m++][round] = median_ns();
        qs_evict(S, 0, N, 0);
    }
    const char *names[] = {"read fault (store, page cache, crc on)", "write fault (store, clean frame)",
                           "reprotectAll per resident frame", "reference fault", "bare read fault", "bare write fault",
                           "pread 8K into punched memfd page", "pread 8K into resident memfd page", "crc32c 8K",
                           "mprotect one frame", "futex wake syscall, no waiters", "clock_gettime pair",
                           "read fault after keep-memory evict", "qs_populate per frame (off the fault path)",
                           "read fault after qs_populate"};
    for (int k = 0; k < 15; k++) report(names[k], r[k]);
    qs_arena_close(S);
    qs_arena_close(B);
    unlink(path);
    return 0;
}
