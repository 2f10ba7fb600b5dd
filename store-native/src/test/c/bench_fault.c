/* bench_fault.c - not a test (build.sh runs test_*.c only): a C microbenchmark that decomposes the
 * cost of a read/write fault into its parts, with clock_gettime around each part, in one process.
 *   bash store-native/src/test/c/bench_fault.sh
 * Prints median ns per operation for: whole read fault (store arena, page-cache file, CRC on),
 * bare read fault (mprotect only), whole write fault on a clean frame, bare write fault, and the
 * pieces: pread into a punched memfd page vs into a resident one, CRC32C of a page, mprotect of one
 * frame, futex wake without waiters, clock_gettime; the 8 KiB copy into one hot buffer vs into a slot
 * per frame; mprotect READ->RW vs NONE->RW; and the write fault from each starting protection (a
 * CLEAN frame is PROT_READ, the bare baseline's frames are PROT_NONE after reprotectAll). Each row
 * also shows the minor (kernel-only) page faults per operation (getrusage, RUSAGE_THREAD). */
#include "qs_test.h"
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/resource.h>
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
/* minor page faults of this thread so far: kernel-only faults (no signal) that a row pays for */
static long minflt(void) { struct rusage u; getrusage(RUSAGE_THREAD, &u); return u.ru_minflt; }
static long mf0;
static double mf[20][ROUNDS];

static void report(const char *what, double *r, double *m) {
    double lo = r[0], hi = r[0];
    for (int k = 1; k < ROUNDS; k++) { if (r[k] < lo) lo = r[k]; if (r[k] > hi) hi = r[k]; }
    qsort(r, ROUNDS, sizeof r[0], cmpd);
    qsort(m, ROUNDS, sizeof m[0], cmpd);
    printf("%-48s median of medians %8.0f ns  (rounds %0.0f..%0.0f)  minor faults/op %.2f\n", what, r[ROUNDS / 2], lo,
           hi, m[ROUNDS / 2]);
}

int main(void) {
    const char *path = qs_test_file(FS, N);
    struct qs_arena *S, *B;
    qs_test_bench_arenas(path, FS, N, &S, &B);
    int fd = open(path, O_RDONLY);
    uint8_t *sb = (uint8_t *)qs_arena_base(S), *bb = (uint8_t *)qs_arena_base(B);
    uint8_t *sal = (uint8_t *)qs_arena_alias(S), *bal = (uint8_t *)qs_arena_alias(B);
    memset(bal, 1, (size_t)(N + 1) * FS); /* bare pages resident */
    double xr[4][ROUNDS], xm[4][ROUNDS], xr2[4][ROUNDS];
    double r[20][ROUNDS], handler_w[ROUNDS], nomf[ROUNDS] = {0};
    uint8_t *hot = mmap(NULL, FS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    uint8_t *slots = mmap(NULL, (size_t)N * FS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    CHECK(hot != MAP_FAILED && slots != MAP_FAILED, "mmap copy buffers");
    for (int round = 0; round < ROUNDS; round++) {
        int m = 0;
        /* store read fault: frames evicted (punched) */
        qs_evict(S, 0, N, 1);
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        /* store write fault on clean resident frames */
        mf0 = minflt();
        uint64_t h0 = qs_test_counter(S, QS_C_HANDLER_NS);
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1] = f; samples[f] = now() - t; }
        handler_w[round] = (double)(qs_test_counter(S, QS_C_HANDLER_NS) - h0) / N;
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        for (uint32_t f = 0; f < N; f++) qs_mark_clean(S, f);
        /* the mprotect of a write fault alone, on the store arena (READ -> RW, then back) */
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); mprotect(sb + (uint64_t)f * FS, FS, PROT_READ | PROT_WRITE); samples[f] = now() - t; }
        xr[0][round] = median_ns(); xm[0][round] = (double)(minflt() - mf0) / N;
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); mprotect(sb + (uint64_t)f * FS, FS, PROT_READ); samples[f] = now() - t; }
        xr[1][round] = median_ns(); xm[1][round] = 0;
        /* and on the bare arena, NONE -> RW after a whole-arena reprotection */
        qs_reprotect_all(B);
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); mprotect(bb + (uint64_t)f * FS, FS, PROT_READ | PROT_WRITE); samples[f] = now() - t; }
        xr[2][round] = median_ns(); xm[2][round] = 0;
        /* reference fault (reprotectAll then touch) */
        mf0 = minflt();
        uint64_t t0 = now();
        int64_t res = qs_reprotect_all(S);
        samples[0] = now() - t0;
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = res ? (double)samples[0] / (double)res : 0;
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        /* bare read + write */
        qs_reprotect_all(B);
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        qs_reprotect_all(B);
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1] = f; samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        /* bare write fault on readable frames (READ -> RW, the transition of a store write fault on a
         * CLEAN frame; the row above starts from PROT_NONE) */
        mprotect(bb, (size_t)(N + 1) * FS, PROT_READ);
        for (uint32_t f = 0; f < N; f++) sink += ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1];
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1] = f; samples[f] = now() - t; }
        xm[3][round] = (double)(minflt() - mf0) / N; xr[3][round] = median_ns();
        /* store write fault on CLEAN frames reprotected by reprotectAll (NONE -> RW, like the bare row) */
        for (uint32_t f = 0; f < N; f++) qs_mark_clean(S, f);
        qs_reprotect_all(S);
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1] = f; samples[f] = now() - t; }
        xr2[0][round] = median_ns();
        for (uint32_t f = 0; f < N; f++) qs_mark_clean(S, f);
        /* CRC32C as the fault path sees it: right after pread into the frame (bytes in cache), with
         * the default (three-stream) and the one-stream implementation */
        for (int impl = 1; impl <= 2; impl++) {
            for (uint32_t f = 0; f < N; f++) {
                CHECK(pread(fd, sal + (uint64_t)f * FS, FS, (off_t)f * FS) == FS, "pread");
                uint64_t t = now(); sink += qs_crc32c_impl(sal + (uint64_t)f * FS + 4, FS - 4, impl); samples[f] = now() - t;
            }
            xr2[impl][round] = median_ns();
        }
        /* pieces */
        qs_evict(S, 0, N, 1); /* punched */
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); CHECK(pread(fd, sal + (uint64_t)f * FS, FS, (off_t)f * FS) == FS, "pread"); samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); CHECK(pread(fd, sal + (uint64_t)f * FS, FS, (off_t)f * FS) == FS, "pread"); samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += qs_crc32c(sal + (uint64_t)f * FS + 4, FS - 4); samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); mprotect(bb + (uint64_t)f * FS, FS, PROT_READ); samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        _Atomic uint32_t w = 0;
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); syscall(SYS_futex, (uint32_t *)&w, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0); samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += now(); samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        /* read fault after an eviction that kept the memory (QS_EVICT_KEEP_MEMORY) */
        for (uint32_t f = 0; f < N; f++) sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1];
        qs_evict(S, 0, N, QS_EVICT_KEEP_MEMORY);
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        /* read fault into punched memory populated ahead (qs_populate) */
        qs_evict(S, 0, N, 0);
        mf0 = minflt();
        t0 = now();
        qs_populate(S, 0, N);
        samples[0] = now() - t0;
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = (double)samples[0] / N;
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        qs_evict(S, 0, N, 0);
        /* the copy of a write fault: 8 KiB from frame f (alias) into one hot buffer (what the bare
         * baseline does) vs into a different populated slot per frame (what pre-image capture does) */
        qs_populate(S, 0, N);
        for (uint32_t f = 0; f < N; f++) memset(sal + (uint64_t)f * FS, (int)f, FS);
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); memcpy(hot, sal + (uint64_t)f * FS, FS); samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        mf0 = minflt();
        for (uint32_t f = 0; f < N; f++) { uint64_t t = now(); memcpy(slots + (uint64_t)f * FS, sal + (uint64_t)f * FS, FS); samples[f] = now() - t; }
        mf[m][round] = (double)(minflt() - mf0) / N; r[m++][round] = median_ns();
        sink += hot[5] + slots[7];
    }
    const char *names[] = {"read fault (store, page cache, crc on)", "write fault (store, clean frame)",
                           "reprotectAll per resident frame", "reference fault", "bare read fault", "bare write fault",
                           "pread 8K into punched memfd page", "pread 8K into resident memfd page", "crc32c 8K (frames read 16 MiB ago)",
                           "mprotect one frame", "futex wake syscall, no waiters", "clock_gettime pair",
                           "read fault after keep-memory evict", "qs_populate per frame (off the fault path)",
                           "read fault after qs_populate", "memcpy 8K from frame into one hot buffer",
                           "memcpy 8K from frame into its own slot"};
    for (int k = 0; k < 17; k++) report(names[k], r[k], mf[k]);
    report("write fault: time inside resolve() (mean)", handler_w, nomf);
    report("mprotect READ->RW, store arena", xr[0], xm[0]);
    report("mprotect RW->READ, store arena", xr[1], xm[1]);
    report("mprotect NONE->RW, bare arena", xr[2], xm[2]);
    report("bare write fault on a readable frame (READ->RW)", xr[3], xm[3]);
    report("write fault (store, clean frame after reprotectAll, NONE->RW)", xr2[0], nomf);
    report("crc32c 8K after pread (default: 3 streams if pclmul)", xr2[1], nomf);
    report("crc32c 8K after pread (sse4.2, one stream)", xr2[2], nomf);
    qs_arena_close(S);
    qs_arena_close(B);
    unlink(path);
    return 0;
}
