/* bench_wfault.c - not a test (build.sh runs test_*.c only): what a write fault costs beyond its baseline
 * (issue 13: "a write fault <= 1.5x signal + 8 KiB copy + mprotect"), in thread CPU time, many rounds, the
 * variants alternated within each round so that load on the machine hits them alike.
 *   bash store-native/src/test/c/bench_wfault.sh
 * Rows, CPU ns per fault over N frames (median of the rounds, min..max):
 *   bare NONE->RW    signal + 8 KiB copy into one hot buffer + mprotect(RW)   (the baseline)
 *   bare READ->RW    the same from a readable frame (a CLEAN frame is readable)
 *   store CLEAN      the store's write fault on a CLEAN frame (pre-image + mprotect RW + bookkeeping)
 *   store NONE->RW   the same on a CLEAN frame reprotected by reprotectAll
 * and the pieces without a signal: the pre-image capture alone (qs_preimage_capture: slot, copy, counters),
 * the copy into one hot buffer, the copy into a slot per frame, the mprotect pair READ->RW->READ. */
#include "qs_test.h"
#include <pthread.h>
#include <sys/mman.h>
#include <time.h>

#define FS 8192u
#define N 1024u
#define ROUNDS 15
#define ROWS 8

static uint64_t cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec; }
static int cmpd(const void *x, const void *y) { double a = *(const double *)x, b = *(const double *)y; return a < b ? -1 : a > b; }
static volatile uint64_t sink;

static void report(const char *what, double *r, double base) {
    qsort(r, ROUNDS, sizeof r[0], cmpd);
    printf("%-44s %8.0f ns  (%0.0f..%0.0f)", what, r[ROUNDS / 2], r[0], r[ROUNDS - 1]);
    if (base > 0) printf("  %.2fx bare NONE->RW", r[ROUNDS / 2] / base);
    printf("\n");
}

/* "spin": a second thread of this process keeps running on the other CPU, as a JVM's threads may; then a
 * protection change that needs a TLB flush (a present PTE losing or gaining write access) interrupts it */
static _Atomic int stop;
static void *spinner(void *arg) {
    (void)arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) sink++;
    return NULL;
}

static void clean_all(struct qs_arena *S, uint64_t *list) {
    CHECK(qs_mark_clean_list(S, list, N, 16) == (int64_t)N, "mark clean list");
}

int main(int argc, char **argv) {
    pthread_t spin;
    int spinning = argc > 1 && strcmp(argv[1], "spin") == 0;
    if (spinning) CHECK(pthread_create(&spin, NULL, spinner, NULL) == 0, "spinner");
    const char *path = qs_test_file(FS, N);
    struct qs_arena *S, *B;
    qs_test_bench_arenas(path, FS, N, &S, &B);
    uint8_t *sb = (uint8_t *)qs_arena_base(S), *bb = (uint8_t *)qs_arena_base(B);
    uint8_t *sal = (uint8_t *)qs_arena_alias(S);
    memset((void *)qs_arena_alias(B), 1, (size_t)(N + 1) * FS); /* bare pages resident */
    uint64_t list[N];
    for (uint32_t f = 0; f < N; f++) list[f] = f;
    for (uint32_t f = 0; f < N; f++) sink += ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1]; /* all CLEAN */
    /* grow the pre-image space once (its first use takes kernel faults on fresh slots) */
    for (uint32_t f = 0; f < N; f++) ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1] = f;
    clean_all(S, list);
    uint8_t *hot = mmap(NULL, FS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    uint8_t *slots = mmap(NULL, (size_t)N * FS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    CHECK(hot != MAP_FAILED && slots != MAP_FAILED, "mmap copy buffers");
    double r[ROWS][ROUNDS];
    uint64_t h_ns = 0, h_n = 0;
    for (int round = 0; round < ROUNDS; round++) {
        uint64_t t;
        /* 0: bare NONE -> RW */
        qs_reprotect_all(B);
        t = cpu();
        for (uint32_t f = 0; f < N; f++) ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1] = f;
        r[0][round] = (double)(cpu() - t) / N;
        /* 1: bare READ -> RW */
        mprotect(bb, (size_t)(N + 1) * FS, PROT_READ);
        for (uint32_t f = 0; f < N; f++) sink += ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1];
        t = cpu();
        for (uint32_t f = 0; f < N; f++) ((volatile uint64_t *)(bb + (uint64_t)f * FS))[1] = f;
        r[1][round] = (double)(cpu() - t) / N;
        /* 2: store write fault on CLEAN (readable) frames */
        uint64_t h0 = qs_test_counter(S, QS_C_HANDLER_NS), w0 = qs_test_counter(S, QS_C_WRITE_FAULTS);
        t = cpu();
        for (uint32_t f = 0; f < N; f++) ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1] = f;
        r[2][round] = (double)(cpu() - t) / N;
        CHECK(qs_test_counter(S, QS_C_WRITE_FAULTS) - w0 == N, "one write fault per frame");
        h_ns += qs_test_counter(S, QS_C_HANDLER_NS) - h0;
        h_n += N;
        clean_all(S, list);
        /* 3: store write fault on CLEAN frames reprotected (NONE -> RW) */
        CHECK(qs_reprotect_all(S) == N, "reprotect");
        t = cpu();
        for (uint32_t f = 0; f < N; f++) ((volatile uint64_t *)(sb + (uint64_t)f * FS))[1] = f;
        r[3][round] = (double)(cpu() - t) / N;
        clean_all(S, list);
        /* 4: the pre-image capture alone (frames CLEAN; single thread, so no lock is needed here) */
        t = cpu();
        for (uint32_t f = 0; f < N; f++) CHECK(qs_preimage_capture(S, f) == 0, "capture");
        r[4][round] = (double)(cpu() - t) / N;
        for (uint32_t f = 0; f < N; f++) qs_preimage_free(S, qs_frame_at(S, f));
        /* 5: 8 KiB copy into one hot buffer; 6: into a slot per frame */
        t = cpu();
        for (uint32_t f = 0; f < N; f++) memcpy(hot, sal + (uint64_t)f * FS, FS);
        r[5][round] = (double)(cpu() - t) / N;
        t = cpu();
        for (uint32_t f = 0; f < N; f++) memcpy(slots + (uint64_t)(N - 1 - f) * FS, sal + (uint64_t)f * FS, FS);
        r[6][round] = (double)(cpu() - t) / N;
        /* 7: mprotect READ -> RW -> READ of one store frame (two calls) */
        t = cpu();
        for (uint32_t f = 0; f < N; f++) {
            mprotect(sb + (uint64_t)f * FS, FS, PROT_READ | PROT_WRITE);
            mprotect(sb + (uint64_t)f * FS, FS, PROT_READ);
        }
        r[7][round] = (double)(cpu() - t) / N;
        sink += hot[5] + slots[7];
    }
    double base;
    {
        double c[ROUNDS];
        memcpy(c, r[0], sizeof c);
        qsort(c, ROUNDS, sizeof c[0], cmpd);
        base = c[ROUNDS / 2];
    }
    printf("write fault, CPU ns per fault, %d rounds of %u faults (median (min..max))%s\n", ROUNDS, N,
           spinning ? ", a second thread spinning" : "");
    report("bare NONE->RW (signal + copy + mprotect)", r[0], 0);
    report("bare READ->RW", r[1], base);
    report("store write fault, CLEAN frame (READ->RW)", r[2], base);
    report("store write fault, reprotected (NONE->RW)", r[3], base);
    report("piece: qs_preimage_capture", r[4], 0);
    report("piece: memcpy 8K into one hot buffer", r[5], 0);
    report("piece: memcpy 8K into a slot per frame", r[6], 0);
    report("piece: mprotect READ->RW + RW->READ", r[7], 0);
    printf("%-44s %8.0f ns (wall, mean)\n", "store CLEAN: time inside resolve()", (double)h_ns / (double)h_n);
    if (spinning) { atomic_store(&stop, 1); pthread_join(spin, NULL); }
    qs_arena_close(S);
    qs_arena_close(B);
    unlink(path);
    return 0;
}
