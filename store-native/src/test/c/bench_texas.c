/* bench_texas.c - not a test (build.sh runs test_*.c only): the cost of a read fault with Texas swizzling
 * (Kakkad & Wilson 1999, section 3) against the same fault without translation (QuickStore's identity
 * placement), in one process, on the same page-cache file:
 *   bash store-native/src/test/c/bench_texas.sh [pointers-per-page]
 * N slotted 8 KiB pages, each with P pointer words (default 81: an OO1 page of ~27 parts with 3 connections),
 * 90 % to a page within +-1 % of its own and 10 % uniform (OO1's rule); every page is touched once in a random
 * order, each access timed (clock_gettime around the load). Rows: median ns per fault for identity frames
 * (no translation), for Texas (swizzle every pointer, reserve frames one step ahead), and Texas's frames
 * reserved per fault. ROUNDS rounds, median of medians, ratio taken in the same run. */
#include "qs_test.h"
#include <time.h>

#define FS 8192u
#define N 4096u
#define ROUNDS 5

static uint64_t now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec; }
static int cmp(const void *x, const void *y) { uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y; return a < b ? -1 : a > b; }
static int cmpd(const void *x, const void *y) { double a = *(const double *)x, b = *(const double *)y; return a < b ? -1 : a > b; }
static uint64_t samples[N];
static uint32_t order[N];
static volatile uint64_t sink;
static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

/* writes the volume: page p's pointer words 40..40+P-1 hold targets by OO1's rule, as Texas persistent pointers
 * (texas != 0) or as identity virtual addresses base + target * FS + 64 (QuickStore) */
static const char *volume(int texas, uint64_t base, uint32_t ptrs) {
    static char path[2][64];
    snprintf(path[texas], sizeof path[texas], "/tmp/qs-btexas-%d-%d", (int)getpid(), texas);
    int fd = open(path[texas], O_RDWR | O_CREAT | O_TRUNC, 0600);
    static uint8_t buf[FS];
    rng = 88172645463325252ull;
    for (uint64_t p = 0; p < N; p++) {
        memset(buf, 0, FS);
        buf[4] = 3;
        buf[5] = 1;
        memcpy(buf + 8, &p, 8);
        for (uint32_t k = 0; k < ptrs; k++) {
            uint64_t t = next() % 10 == 0 ? next() % N : (p + N + next() % (N / 50 + 1) - N / 100) % N;
            uint64_t v = texas ? (0x9ull << 60) | (t * FS + 64) : base + t * FS + 64;
            uint32_t w = 40 + k;
            memcpy(buf + 8 * w, &v, 8);
            buf[32 + w / 8] |= (uint8_t)(1u << (w % 8));
        }
        uint32_t c = qs_crc32c(buf + 4, FS - 4);
        memcpy(buf, &c, 4);
        if (pwrite(fd, buf, FS, (off_t)(p * FS)) != FS) { perror("pwrite"); exit(1); }
    }
    close(fd);
    return path[texas];
}

static double run(int texas, uint32_t ptrs, double *reserved_per_fault) {
    struct qs_arena *a;
    CHECK(qs_arena_open(2ull * N * FS, FS, 0, QS_MODE_STORE, &a) == 0, "open");
    const char *path = volume(texas, qs_arena_base(a), ptrs);
    int src = qs_source_open_file(a, path, 0);
    CHECK(src >= 0, "source");
    uint64_t frame[N];
    if (texas) {
        CHECK(qs_texas_enable(a, (uint32_t)src, N, 0) == 0, "enable");
    } else {
        CHECK(qs_reserve(a, 0, N, (uint32_t)src, 0) == N, "reserve every page (identity placement)");
    }
    qs_arena_set_txn(a, 1);
    for (uint32_t i = 0; i < N; i++) order[i] = i;
    for (uint32_t i = N - 1; i > 0; i--) { uint32_t j = (uint32_t)(next() % (i + 1)); uint32_t t = order[i]; order[i] = order[j]; order[j] = t; }
    uint64_t c0[16] = {0}, c1[16] = {0};
    if (texas) qs_texas_counters(a, c0, 16);
    for (uint32_t i = 0; i < N; i++) {
        /* the page's frame: reserved already if a faulted page referred to it, else now (untimed: the root) */
        frame[i] = texas ? (uint64_t)qs_texas_frame(a, order[i], 1) : order[i];
        volatile uint64_t *v = (volatile uint64_t *)(qs_arena_base(a) + frame[i] * FS);
        uint64_t t0 = now();
        sink += v[40];
        samples[i] = now() - t0;
    }
    if (texas) qs_texas_counters(a, c1, 16);
    *reserved_per_fault = texas ? (double)(c1[1] - c0[1]) / N : 0;
    CHECK(*(volatile uint64_t *)qs_arena_pending_addr(a) == 0, "no refusal");
    qs_arena_close(a);
    unlink(path);
    qsort(samples, N, sizeof samples[0], cmp);
    return (double)samples[N / 2];
}

int main(int argc, char **argv) {
    uint32_t ptrs = argc > 1 ? (uint32_t)atoi(argv[1]) : 81;
    CHECK(ptrs >= 1 && 40 + ptrs < FS / 8, "pointers per page");
    CHECK(qs_signal_install() == 0, "install");
    double id[ROUNDS], tx[ROUNDS], res[ROUNDS], ratio[ROUNDS], dummy;
    for (int r = 0; r < ROUNDS; r++) { /* alternate which runs first */
        if (r % 2 == 0) {
            id[r] = run(0, ptrs, &dummy);
            tx[r] = run(1, ptrs, &res[r]);
        } else {
            tx[r] = run(1, ptrs, &res[r]);
            id[r] = run(0, ptrs, &dummy);
        }
        ratio[r] = tx[r] / id[r];
    }
    qsort(id, ROUNDS, sizeof id[0], cmpd);
    qsort(tx, ROUNDS, sizeof tx[0], cmpd);
    qsort(ratio, ROUNDS, sizeof ratio[0], cmpd);
    printf("read fault, %u pages of %u pointers, page-cache file, CRC on (median of %d rounds' medians):\n", N, ptrs, ROUNDS);
    printf("  identity placement (QuickStore, no translation) %8.0f ns\n", id[ROUNDS / 2]);
    printf("  Texas (swizzle %u words, reserve one step ahead) %8.0f ns   ratio %.2fx (per round %.2f..%.2f)\n", ptrs,
           tx[ROUNDS / 2], ratio[ROUNDS / 2], ratio[0], ratio[ROUNDS - 1]);
    printf("  Texas frames reserved one step ahead per fault (last round) %.2f; the rest reserved just before the access\n",
           res[ROUNDS - 1]);
    qs_signal_uninstall();
    return 0;
}
