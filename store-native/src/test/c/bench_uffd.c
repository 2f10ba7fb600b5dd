/* bench_uffd.c - not a test (build.sh runs test_*.c only): write detection by the MMU, two ways, with a second thread of the process running on the other CPU
 * (as a JVM's compiler and GC threads do):
 *   mprotect: frames read-only; a write faults (SIGSEGV), the handler copies the 8 KiB pre-image and mprotects the
 *             frame writable; commit reprotects with one mprotect(READ) over the whole range;
 *   uffd-wp async (Linux 6.7+: UFFD_FEATURE_WP_ASYNC): frames write-protected through userfaultfd; a write is resolved
 *             by the kernel without a signal; commit asks PAGEMAP_SCAN for the written pages and write-protects them
 *             again in the same call, then copies each written frame as the next pre-image.
 * Usage: bash store-native/src/test/c/bench_uffd.sh (or bench_uffd [stride] [nospin]): ns per written frame (wall and
 * thread CPU) of the writes and of the commit, median of the rounds. Stand-alone (not linked with the library): it
 * measures the two kernel mechanisms, not the store's fault path (bench_wfault.c does that for page protection).
 * Checks that PAGEMAP_SCAN finds exactly the frames written in each round. docs/results.md, "Write detection by
 * the kernel: userfaultfd write-protect, asynchronous". */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef UFFD_FEATURE_WP_UNPOPULATED
#define UFFD_FEATURE_WP_UNPOPULATED (1 << 13)
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif
struct pm_scan_arg { uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages, category_inverted, category_mask, category_anyof_mask, return_mask; };
struct page_region { uint64_t start, end, categories; };
#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PM_SCAN_WP_MATCHING (1 << 0)
#define PM_SCAN_CHECK_WPASYNC (1 << 1)
#define PAGE_IS_WRITTEN (1 << 1)

#define FS 8192u
#define P 512u
#define ROUNDS 41
static uint8_t *app, *pre;
static volatile int stop;
static volatile uint64_t sink;
static uint64_t wall(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec; }
static uint64_t cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec; }
static void pin(int c) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(c, &s); pthread_setaffinity_np(pthread_self(), sizeof s, &s); }
static void *spin(void *x) { (void)x; pin(1); while (!stop) sink++; return NULL; }
static void on_segv(int sig, siginfo_t *si, void *uc) {
    (void)sig; (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr - (uintptr_t)app;
    if (a >= (uintptr_t)P * FS) abort(); /* not the arena: a bug of this benchmark */
    uint64_t i = a / FS;
    memcpy(pre + i * FS, app + i * FS, FS);
    if (mprotect(app + i * FS, FS, PROT_READ | PROT_WRITE)) abort();
}
static int cmp(const void *x, const void *y) { uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y; return a < b ? -1 : a > b; }
static uint64_t med(uint64_t *v) { qsort(v, ROUNDS, sizeof *v, cmp); return v[ROUNDS / 2]; }

int main(int argc, char **argv) {
    unsigned stride = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    int spinning = !(argc > 2 && strcmp(argv[2], "nospin") == 0);
    unsigned W = (P + stride - 1) / stride;
    pin(0);
    pthread_t th;
    if (spinning) pthread_create(&th, NULL, spin, NULL);
    int mfd = memfd_create("arena", 0);
    if (ftruncate(mfd, (off_t)P * FS)) return 1;
    app = mmap(NULL, (size_t)P * FS, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    pre = mmap(NULL, (size_t)P * FS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    memset(app, 1, (size_t)P * FS);
    struct sigaction sa = {0};
    sa.sa_sigaction = on_segv; sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    uint64_t mw[ROUNDS], mwc[ROUNDS], mc[ROUNDS], uw[ROUNDS], uwc[ROUNDS], uc[ROUNDS], ucc[ROUNDS];
    /* page protection */
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t0 = wall(), c0 = cpu();
        if (mprotect(app, (size_t)P * FS, PROT_READ)) return 2; /* commit's reprotection (whole range, one call) */
        uint64_t t1 = wall(), c1 = cpu();
        for (unsigned k = 0; k < P; k += stride) ((volatile uint64_t *)(app + (uint64_t)k * FS))[3] = r;
        uint64_t t2 = wall(), c2 = cpu();
        mc[r] = t1 - t0; mw[r] = t2 - t1; mwc[r] = c2 - c1; (void)c0;
    }
    if (mprotect(app, (size_t)P * FS, PROT_READ | PROT_WRITE)) return 3;
    /* userfaultfd write-protect, asynchronous */
    int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (uffd < 0) { perror("userfaultfd"); return 4; }
    struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED | UFFD_FEATURE_WP_HUGETLBFS_SHMEM};
    if (ioctl(uffd, UFFDIO_API, &api)) { perror("UFFDIO_API with WP_ASYNC (Linux 6.7 or later)"); return 5; }
    struct uffdio_register reg = {.range = {(uintptr_t)app, (uint64_t)P * FS}, .mode = UFFDIO_REGISTER_MODE_WP};
    if (ioctl(uffd, UFFDIO_REGISTER, &reg)) { perror("UFFDIO_REGISTER"); return 6; }
    struct uffdio_writeprotect wp = {.range = {(uintptr_t)app, (uint64_t)P * FS}, .mode = UFFDIO_WRITEPROTECT_MODE_WP};
    if (ioctl(uffd, UFFDIO_WRITEPROTECT, &wp)) { perror("UFFDIO_WRITEPROTECT"); return 7; }
    int pm = open("/proc/self/pagemap", O_RDONLY);
    static struct page_region vec[P * 2];
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t1 = wall(), c1 = cpu();
        for (unsigned k = 0; k < P; k += stride) ((volatile uint64_t *)(app + (uint64_t)k * FS))[3] = r;
        uint64_t t2 = wall(), c2 = cpu();
        /* commit: which pages were written (and write-protect them again, atomically), then the new pre-images */
        struct pm_scan_arg arg = {.size = sizeof arg, .flags = PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC,
                                  .start = (uintptr_t)app, .end = (uintptr_t)app + (uint64_t)P * FS,
                                  .vec = (uintptr_t)vec, .vec_len = P * 2, .category_mask = PAGE_IS_WRITTEN,
                                  .return_mask = PAGE_IS_WRITTEN};
        long n = ioctl(pm, PAGEMAP_SCAN, &arg);
        if (n < 0) { perror("PAGEMAP_SCAN"); return 8; }
        uint64_t t3 = wall(), c3 = cpu();
        unsigned frames = 0;
        for (long k = 0; k < n; k++) {
            uint64_t i = (vec[k].start - (uintptr_t)app) / FS, end = (vec[k].end - (uintptr_t)app + FS - 1) / FS;
            for (; i < end; i++) {
                memcpy(pre + i * FS, app + i * FS, FS);
                frames++;
            }
        }
        uint64_t t4 = wall();
        if (frames != W) { fprintf(stderr, "round %d: scan found %u written frames, expected %u\n", r, frames, W); return 9; }
        uw[r] = t2 - t1; uwc[r] = c2 - c1; uc[r] = t3 - t2; ucc[r] = t4 - t3; (void)c3;
    }
    stop = 1;
    if (spinning) pthread_join(th, NULL);
    printf("%u frames of 8 KiB, one in %u written (%u per round), %s, median of %d rounds, ns per written frame\n",
           P, stride, W, spinning ? "a second thread spinning on CPU 1" : "no other thread running", ROUNDS);
    printf("  page protection: write (fault + 8 KiB pre-image + mprotect) %7.0f wall %7.0f cpu | commit mprotect(READ) of the range %6.0f\n",
           (double)med(mw) / W, (double)med(mwc) / W, (double)med(mc) / W);
    printf("  uffd-wp async:   write (no signal)                          %7.0f wall %7.0f cpu | commit PAGEMAP_SCAN+reprotect %6.0f, pre-image copies %6.0f\n",
           (double)med(uw) / W, (double)med(uwc) / W, (double)med(uc) / W, (double)med(ucc) / W);
    return 0;
}
