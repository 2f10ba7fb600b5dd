/* qs_test.h - tiny harness for the C unit tests: CHECK aborts the test with a message. */
#ifndef QS_TEST_H
#define QS_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include "qs_api.h"
#include "qs_arena.h"

/* build.sh's second pass sets QS_TEST_MINOR=1: every store arena a test opens then loads by userfaultfd minor faults
 * (qs_minor.c) instead of mprotect, with the handler installed first (the condition qs_arena_set_minor_faults
 * checks); a test of a mechanism minor faults exclude (kernel write tracking) defines QS_TEST_NO_MINOR first. */
static inline int qs_test_arena_open(uint64_t size, uint32_t fs, uint64_t base, int mode, struct qs_arena **out) {
    int rc = (qs_arena_open)(size, fs, base, mode, out);
#ifndef QS_TEST_NO_MINOR
    const char *m = getenv("QS_TEST_MINOR");
    if (rc == 0 && mode == QS_MODE_STORE && m != NULL && m[0] == '1') {
        int e = qs_signal_install();
        if (e == 0) e = qs_arena_set_minor_faults(*out);
        if (e != 0) {
            fprintf(stderr, "QS_TEST_MINOR=1: minor faults refused (%d)\n", e);
            exit(1);
        }
    }
#endif
    return rc;
}
#define qs_arena_open qs_test_arena_open

/* xorshift64: the tests' and benches' seeded random numbers (*s must not be 0). */
static inline uint64_t qs_test_rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int qs_checks;
#define CHECK(cond, ...) do { qs_checks++; if (!(cond)) { fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
    fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); exit(1); } } while (0)

/* Writes `pages` pages of `ps` bytes to a temp file: word k (k >= 1) of page p = p * 1000003 + k,
 * bytes 0..3 = CRC32C of bytes 4..ps-1 (the page contract). Returns the path (static buffer). */
static inline uint64_t qs_test_word(uint64_t p, uint64_t k) { return p * 1000003u + k; }
static inline void qs_test_fill_page(uint8_t *buf, uint32_t ps, uint64_t p) {
    for (uint32_t k = 1; k < ps / 8; k++) { uint64_t v = qs_test_word(p, k); memcpy(buf + 8 * k, &v, 8); }
    memset(buf, 0, 8);
    uint32_t c = qs_crc32c(buf + 4, ps - 4);
    memcpy(buf, &c, 4);
}
static inline const char *qs_test_file(uint32_t ps, uint64_t pages) {
    static char path[256];
    snprintf(path, sizeof path, "/tmp/qs-ctest-%d.pages", (int)getpid());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) { perror("open"); exit(1); }
    uint8_t *buf = malloc(ps);
    for (uint64_t p = 0; p < pages; p++) {
        qs_test_fill_page(buf, ps, p);
        if (pwrite(fd, buf, ps, (off_t)(p * ps)) != (ssize_t)ps) { perror("pwrite"); exit(1); }
    }
    free(buf);
    close(fd);
    return path;
}
/* The benchmarks' pair (bench_fault.c, bench_wfault.c): a store arena *S of n frames of ps bytes with the
 * signal handler installed, frames reserved for the n pages of the file at `path` and a transaction open, and a
 * bare arena *B of n + 1 frames as the baseline. */
static inline void qs_test_bench_arenas(const char *path, uint32_t ps, uint64_t n, struct qs_arena **S, struct qs_arena **B) {
    CHECK(qs_arena_open(n * ps, ps, 0, QS_MODE_STORE, S) == 0, "open store");
    CHECK(qs_arena_open((n + 1) * ps, ps, 0, QS_MODE_BARE, B) == 0, "open bare");
    CHECK(qs_signal_install() == 0, "install");
    int src = qs_source_open_file(*S, path, 0);
    CHECK(src >= 0, "src");
    CHECK(qs_reserve(*S, 0, n, (uint32_t)src, 0) == (int64_t)n, "reserve");
    qs_arena_set_txn(*S, 1);
}
static inline uint64_t qs_test_counter(struct qs_arena *a, int c) {
    uint64_t out[QS_C_COUNT];
    qs_counters(a, out, QS_C_COUNT);
    return out[c];
}
#endif
