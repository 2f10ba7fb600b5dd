/* bench_newpages.c - not a test (build.sh runs test_*.c only): what a page a transaction allocates costs the store
 * in the native layer, for 4,096 frames of 8 KiB of a fresh store arena (a new memfd, none of its memory allocated,
 * as in a bulk load into a new store), each followed by three stores through the alias view (the allocator's):
 *   install+dirty: qs_install of a page of zeros, then qs_mark_dirty (pre-image capture into a pre-image slot and
 *                  mprotect(READ|WRITE)) - the store's path before ABI 20;
 *   make_new 1:    qs_make_new per frame (zeros, the shared zero pre-image, one mprotect; the frame's memory
 *                  allocated and mapped by MADV_POPULATE_WRITE);
 *   make_new 8:    qs_make_new per run of 8 frames (write-ahead for new pages: 1 + 8 at most in the store).
 * Each variant runs on a new arena five times; prints the thread CPU per frame of each pass and their median.
 * Linked with the library's sources, as the tests are. Usage: bash store-native/src/test/c/bench_newpages.sh
 * (QS_TEST_MINOR=1 for an arena that loads by userfaultfd minor faults, the store's default). docs/results.md,
 * "New pages against a zero pre-image". */
#include "qs_test.h"
#include <time.h>

#define FS 8192u
#define N 4096
#define PASSES 5

static double cpu_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* one pass of a variant: run 0 = install + mark_dirty per frame, else make_new per run of `run` frames */
static double pass(const char *path, int run) {
    struct qs_arena *a;
    CHECK(qs_arena_open((uint64_t)(N + 64) * FS, FS, 0, QS_MODE_STORE, &a) == 0, "open");
    int src = qs_source_open_file(a, path, 0);
    CHECK(src >= 0 && qs_reserve(a, 0, N, (uint32_t)src, 0) == N, "reserve");
    qs_arena_set_txn(a, 1);
    uint8_t *zeros = aligned_alloc(4096, FS);
    memset(zeros, 0, FS);
    double t0 = cpu_ns();
    int step = run == 0 ? 1 : run;
    for (int f = 0; f < N; f += step) {
        if (run == 0) {
            CHECK(qs_install(a, (uint64_t)f, zeros) == 1 && qs_mark_dirty(a, (uint64_t)f) == 1, "frame %d", f);
        } else {
            CHECK(qs_make_new(a, (uint64_t)f, (uint64_t)run, (uint64_t)run) == run, "run at %d", f);
        }
        for (int k = 0; k < step; k++) {
            volatile uint64_t *p = (volatile uint64_t *)(uintptr_t)(qs_arena_alias(a) + (uint64_t)(f + k) * FS);
            p[0] = 1;
            p[600] = 2;
            p[1020] = 3;
        }
    }
    double ns = (cpu_ns() - t0) / N;
    free(zeros);
    qs_arena_close(a);
    return ns;
}

int main(void) {
    const char *path = qs_test_file(FS, 16);
    CHECK(qs_signal_install() == 0, "handler");
    static const int runs[] = {0, 1, 8};
    static const char *names[] = {"install+dirty", "make_new 1", "make_new 8"};
    for (int v = 0; v < 3; v++) {
        double t[PASSES];
        printf("%-14s", names[v]);
        for (int p = 0; p < PASSES; p++) {
            t[p] = pass(path, runs[v]);
            printf(" %6.2f", t[p] / 1e3);
        }
        qsort(t, PASSES, sizeof t[0], cmp);
        printf("  median %.2f us CPU per frame\n", t[PASSES / 2] / 1e3);
    }
    unlink(path);
    return 0;
}
