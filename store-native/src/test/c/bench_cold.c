/* bench_cold.c - not a test (build.sh runs test_*.c only): what a cold opening's faults cost, in one process.
 *   bash store-native/src/test/c/bench_cold.sh
 * A cold OO7 operation reopens the store: a new arena (a new memfd, no memory allocated), every frame
 * RESERVED, the volume's pages in the OS page cache. Each round here does the same: a fresh arena, P frames
 * reserved for P pages of a file in the page cache, then one pass that touches every frame once (in page
 * order, or in a shuffled order) and is timed as a whole (ns per page: everything a cold operation pays,
 * signal, handler, pread, allocation, mprotect, the application view's minor fault), in thread CPU time. Rows:
 *   - pread 8 KiB into one reused buffer: the I/O-only baseline `qs oo7 run` subtracts ("pread ms");
 *   - pread 8 KiB into the fresh memfd through the alias view: + the kernel's allocation and zeroing;
 *   - bare round trip: signal + mprotect(READ) on memory that is already allocated (the goal's baseline);
 *   - store read faults with read-ahead 0 (one frame per fault), 4, 8, 16 frames (runs read through the arena's run
 *     buffer), and 8 and 16 with runs read into the alias view (the path without the buffer);
 *   - store read faults with read-ahead 0 and 16 and cold loads by userfaultfd minor faults (qs_minor.c: a SIGBUS,
 *     the frame's pages mapped by UFFDIO_CONTINUE, no island, no minor fault afterwards);
 * with the minor faults per page (getrusage), the mappings the pass leaves (lines of /proc/self/maps), and the
 * time inside the handler (QS_C_HANDLER_NS, wall clock; the rest of a fault is the kernel's signal delivery and
 * return). */
#include "qs_test.h"
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#define FS 8192u
#define P 512u
#define ROUNDS 7

/* the thread's CPU time (user + kernel, signal delivery included), not the wall clock: on a machine shared with
 * other work the wall clock also counts the time the thread waited for a CPU */
static uint64_t now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec; }
static long minflt(void) { struct rusage u; getrusage(RUSAGE_THREAD, &u); return u.ru_minflt; }
static int cmpd(const void *x, const void *y) { double a = *(const double *)x, b = *(const double *)y; return a < b ? -1 : a > b; }
static int maps(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    int n = 0, c;
    while ((c = fgetc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}
static volatile uint64_t sink;
static uint32_t order[P];

struct row { const char *name; double ns[ROUNDS], mf[ROUNDS], vma[ROUNDS], handler[ROUNDS], faults[ROUNDS]; };
static void report(struct row *r) {
    qsort(r->ns, ROUNDS, sizeof(double), cmpd); qsort(r->mf, ROUNDS, sizeof(double), cmpd);
    qsort(r->vma, ROUNDS, sizeof(double), cmpd); qsort(r->handler, ROUNDS, sizeof(double), cmpd);
    qsort(r->faults, ROUNDS, sizeof(double), cmpd);
    printf("%-52s %8.0f cpu ns/page (%6.0f..%6.0f)  minflt/page %5.2f  signals/page %5.2f  handler ns/page %6.0f  new maps %4.0f\n",
           r->name, r->ns[ROUNDS / 2], r->ns[0], r->ns[ROUNDS - 1], r->mf[ROUNDS / 2], r->faults[ROUNDS / 2],
           r->handler[ROUNDS / 2], r->vma[ROUNDS / 2]);
}

/* one cold pass over a fresh arena with read-ahead `ra` (alias: runs read into the alias view; minor: loads by minor
 * faults), pages touched in `order` */
static void store_pass(const char *path, uint32_t ra, int alias, int minor, struct row *r, int round) {
    struct qs_arena *a;
    CHECK(qs_arena_open(2ull * P * FS, FS, 0, QS_MODE_STORE, &a) == 0, "open");
    CHECK(!minor || qs_arena_set_minor_faults(a) == 0, "minor faults");
    int src = qs_source_open_file(a, path, 0);
    CHECK(src >= 0 && qs_reserve(a, 0, P, (uint32_t)src, 0) == P, "reserve");
    CHECK(qs_arena_set_readahead(a, ra) == 0, "readahead");
    qs_test_readahead_alias(a, (uint32_t)alias);
    qs_arena_set_txn(a, 1);
    uint8_t *base = (uint8_t *)qs_arena_base(a);
    int v0 = maps();
    long m0 = minflt();
    uint64_t t0 = now();
    for (uint32_t k = 0; k < P; k++) sink += ((volatile uint64_t *)(base + (uint64_t)order[k] * FS))[1];
    uint64_t t = now() - t0;
    r->mf[round] = (double)(minflt() - m0) / P;
    r->ns[round] = (double)t / P;
    r->vma[round] = maps() - v0;
    r->handler[round] = (double)qs_test_counter(a, QS_C_HANDLER_NS) / P;
    r->faults[round] = (double)(qs_test_counter(a, QS_C_READ_FAULTS)) / P;
    for (uint32_t k = 0; k < P; k++) CHECK(((volatile uint64_t *)(base + (uint64_t)k * FS))[1] == qs_test_word(k, 1), "page %u", k);
    qs_arena_close(a);
}

int main(int argc, char **argv) {
    (void)argv;
    int shuffled = argc > 1; /* any argument: touch the pages in a shuffled order */
    const char *path = qs_test_file(FS, P);
    int fd = open(path, O_RDONLY);
    CHECK(qs_signal_install() == 0, "install");
    uint64_t seed = 12345;
    for (uint32_t k = 0; k < P; k++) order[k] = k;
    if (shuffled)
        for (uint32_t k = P - 1; k > 0; k--) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t j = (uint32_t)((seed >> 33) % (k + 1)), x = order[k];
            order[k] = order[j]; order[j] = x;
        }
    uint8_t *buf = mmap(NULL, FS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    static struct row rows[11] = {{.name = "pread 8K into one reused buffer (oo7 baseline)"},
                                 {.name = "pread 8K into fresh memfd memory (alias view)"},
                                 {.name = "bare round trip: signal + mprotect(READ)"},
                                 {.name = "store cold read fault, read-ahead off"},
                                 {.name = "store cold read faults, read-ahead 4"},
                                 {.name = "store cold read faults, read-ahead 8"},
                                 {.name = "store cold read faults, read-ahead 16"},
                                 {.name = "store cold read faults, read-ahead 8 into the alias"},
                                 {.name = "store cold read faults, read-ahead 16 into the alias"},
                                 {.name = "store cold read fault, read-ahead off, minor faults"},
                                 {.name = "store cold read faults, read-ahead 16, minor faults"}};
    for (int round = 0; round < ROUNDS; round++) {
        long m0 = minflt();
        uint64_t t0 = now();
        for (uint32_t k = 0; k < P; k++) CHECK(pread(fd, buf, FS, (off_t)order[k] * FS) == FS, "pread");
        rows[0].ns[round] = (double)(now() - t0) / P;
        rows[0].mf[round] = (double)(minflt() - m0) / P;
        /* fresh memory: a new bare arena's alias */
        struct qs_arena *b;
        CHECK(qs_arena_open(2ull * P * FS, FS, 0, QS_MODE_BARE, &b) == 0, "open bare");
        uint8_t *al = (uint8_t *)qs_arena_alias(b), *bb = (uint8_t *)qs_arena_base(b);
        m0 = minflt();
        t0 = now();
        for (uint32_t k = 0; k < P; k++) CHECK(pread(fd, al + (uint64_t)order[k] * FS, FS, (off_t)order[k] * FS) == FS, "pread");
        rows[1].ns[round] = (double)(now() - t0) / P;
        rows[1].mf[round] = (double)(minflt() - m0) / P;
        /* bare round trip on allocated memory whose application-view entries exist (touched once, reprotected) */
        mprotect(bb, (size_t)P * FS, PROT_READ);
        for (uint32_t k = 0; k < P; k++) sink += ((volatile uint64_t *)(bb + (uint64_t)k * FS))[1];
        qs_reprotect_all(b);
        int v0 = maps();
        m0 = minflt();
        t0 = now();
        for (uint32_t k = 0; k < P; k++) sink += ((volatile uint64_t *)(bb + (uint64_t)order[k] * FS))[1];
        rows[2].ns[round] = (double)(now() - t0) / P;
        rows[2].mf[round] = (double)(minflt() - m0) / P;
        rows[2].vma[round] = maps() - v0;
        rows[2].faults[round] = (double)qs_test_counter(b, QS_C_READ_FAULTS) / P;
        qs_arena_close(b);
        store_pass(path, 0, 0, 0, &rows[3], round);
        store_pass(path, 4, 0, 0, &rows[4], round);
        store_pass(path, 8, 0, 0, &rows[5], round);
        store_pass(path, 16, 0, 0, &rows[6], round);
        store_pass(path, 8, 1, 0, &rows[7], round);
        store_pass(path, 16, 1, 0, &rows[8], round);
        store_pass(path, 0, 0, 1, &rows[9], round);
        store_pass(path, 16, 0, 1, &rows[10], round);
    }
    printf("%u pages, %s order, fresh arena per pass, median of %d rounds\n", P, shuffled ? "shuffled" : "page", ROUNDS);
    for (int k = 0; k < 11; k++) report(&rows[k]);
    close(fd);
    unlink(path);
    return 0;
}
