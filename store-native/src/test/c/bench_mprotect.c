/* bench_mprotect.c - not a test (build.sh runs test_*.c only): the wall-clock cost of one mprotect of an 8 KiB
 * frame of a shared memfd mapping, as the fault path and commit make it, alone and with a second thread of the
 * process on the other CPU (docs/results.md, "A delete is the store's own write").
 *   bash store-native/src/test/c/bench_mprotect.sh
 * Variants: "alone"; "spinning" (a second thread runs a pause loop: the kernel must interrupt that CPU to flush
 * its TLB); "sleeping" (a second thread that touched the mapping once and sleeps: no flush needed there). Rows:
 * READ->RW of every other frame of one mapping (each call splits a VMA out, as the arena's islands do), and
 * READ->RW then RW->READ of frames mapped one VMA each (no split). Wall-clock ns per call, median of 5 rounds. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define FR 8192u
#define N 1024u
#define ROUNDS 5

static _Atomic int stop;
static volatile char *frames;

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void *spinning(void *arg) {
    (void)arg;
    while (!atomic_load(&stop)) __asm__ volatile("pause");
    return NULL;
}

static void *sleeping(void *arg) {
    (void)arg;
    long s = 0;
    for (unsigned k = 0; k < N; k++) s += frames[(size_t)k * FR];
    (void)s;
    while (!atomic_load(&stop)) usleep(1000);
    return NULL;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v) {
    qsort(v, ROUNDS, sizeof *v, cmp);
    return v[ROUNDS / 2];
}

int main(int argc, char **argv) {
    const char *variant = argc > 1 ? argv[1] : "alone";
    int fd = memfd_create("bench-mprotect", 0);
    if (fd < 0 || ftruncate(fd, (off_t)N * FR * 2) != 0) { perror("memfd"); return 1; }
    char *one = mmap(NULL, (size_t)N * FR, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    char *base = mmap(NULL, (size_t)N * FR * 2, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (one == MAP_FAILED || base == MAP_FAILED) { perror("mmap"); return 1; }
    char *own[N / 2];
    for (unsigned k = 0; k < N / 2; k++) { /* a guard page apart: one VMA each, never merged */
        own[k] = mmap(base + (size_t)k * 2 * FR, FR, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
                      (off_t)(N + k) * FR);
        if (own[k] == MAP_FAILED) { perror("mmap frame"); return 1; }
        memset(own[k], 1, FR);
    }
    memset(one, 1, (size_t)N * FR);
    frames = one;
    pthread_t t;
    int sibling = strcmp(variant, "spinning") == 0 ? 1 : strcmp(variant, "sleeping") == 0 ? 2 : 0;
    if (sibling && pthread_create(&t, NULL, sibling == 1 ? spinning : sleeping, NULL) != 0) return 1;
    usleep(20000);
    double split[ROUNDS], up[ROUNDS], down[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        for (unsigned k = 0; k < N; k++) /* islands: every other frame read-only */
            mprotect(one + (size_t)k * FR, FR, (k & 1) ? PROT_READ : PROT_READ | PROT_WRITE);
        uint64_t sum = 0;
        for (unsigned k = 1; k < N; k += 2) {
            uint64_t t0 = now();
            mprotect(one + (size_t)k * FR, FR, PROT_READ | PROT_WRITE);
            sum += now() - t0;
            one[(size_t)k * FR] = 2;
        }
        split[r] = (double)sum / (N / 2);
        for (unsigned k = 0; k < N / 2; k++) mprotect(own[k], FR, PROT_READ);
        uint64_t su = 0, sd = 0;
        for (unsigned k = 0; k < N / 2; k++) {
            uint64_t t0 = now();
            mprotect(own[k], FR, PROT_READ | PROT_WRITE);
            su += now() - t0;
            own[k][0] = 2;
        }
        for (unsigned k = 0; k < N / 2; k++) {
            uint64_t t0 = now();
            mprotect(own[k], FR, PROT_READ);
            sd += now() - t0;
        }
        up[r] = (double)su / (N / 2);
        down[r] = (double)sd / (N / 2);
    }
    printf("%-9s READ->RW splitting a VMA %6.0f ns | one VMA each: READ->RW %6.0f ns, RW->READ %6.0f ns\n", variant,
           median(split), median(up), median(down));
    atomic_store(&stop, 1);
    if (sibling) pthread_join(t, NULL);
    return 0;
}
