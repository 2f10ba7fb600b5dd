/* bench_minor.c - not a test (build.sh runs test_*.c only): what a cold read fault costs, two ways, for frames of
 * 8 KiB filled from a file in the page cache into a memfd that is mapped twice (an application view and an alias,
 * as the store's arena is; design notes section 4):
 *   mprotect: the application view is PROT_NONE where a frame is not loaded; a read faults (SIGSEGV), the handler
 *             reads the page with pread into a reused buffer, writes it into the memfd with pwrite and makes the
 *             frame readable with mprotect(READ): the store's load path ("Loads through a buffer"), which splits
 *             the view's mapping at every island of loaded frames and leaves the page-table entries to two later
 *             minor faults;
 *   minor:    the application view is PROT_READ everywhere and registered with a userfaultfd for missing and minor
 *             faults with UFFD_FEATURE_SIGBUS (Linux 5.13+ for shared memory): a read of a frame whose pages are not
 *             mapped in the view raises SIGBUS in the faulting thread (no resolver thread), whose handler does the
 *             same pread and pwrite and then UFFDIO_CONTINUE, which maps the frame's pages from the memfd's page
 *             cache: no mprotect, no split mapping, no minor fault afterwards;
 *   minor+mprotect: the same with mprotect(READ) before UFFDIO_CONTINUE, as the store's load does (the clock may
 *             have changed the frame's protection since the fault; on a readable range the call changes nothing);
 *   "no fault": the same work per frame called directly before the reads (the signal's share is the difference).
 * Each pass maps a fresh memfd (allocated ahead with fallocate, as ArenaPopulator does, unless "alloc" is given) and
 * reads one word of each OS page of every frame, in page order or in a shuffled order ("shuffled"); another thread
 * of the process spins on the second CPU unless "nospin" is given (a JVM's compiler and GC threads). Prints thread
 * CPU and wall ns per frame and minor faults per frame, median of the passes, and checks every word read against
 * the file's. Usage: bash store-native/src/test/c/bench_minor.sh. Stand-alone (not linked with the library): it
 * measures the two kernel mechanisms, not the store's fault path. docs/results.md, "A cold read fault through
 * userfaultfd's minor faults". */
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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define FS 8192u
#define OSP 4096u
#define P 512u
#define PASSES 15
static uint8_t *app;
static int protect_too; /* minor: mprotect(READ) first as the store does (no change on a readable range) */
static int memfd = -1, filefd = -1, uffd = -1;
static uint8_t buf[FS] __attribute__((aligned(4096)));
static volatile int stop;
static volatile uint64_t sink;
static uint64_t ns(clockid_t c) {
    struct timespec t;
    clock_gettime(c, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
static uint64_t wall(void) { return ns(CLOCK_MONOTONIC); }
static uint64_t cpu(void) { return ns(CLOCK_THREAD_CPUTIME_ID); }
static long minflt(void) { struct rusage u; getrusage(RUSAGE_THREAD, &u); return u.ru_minflt; }
static void pin(int c) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(c, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}
static void *spin(void *x) { (void)x; pin(1); while (!stop) sink++; return NULL; }

/* the frame at a faulting address, or abort: a fault outside the view is a bug of this benchmark */
static uint64_t frame_of(void *addr) {
    uintptr_t a = (uintptr_t)addr - (uintptr_t)app;
    if ((uintptr_t)addr < (uintptr_t)app || a >= (uintptr_t)P * FS) abort();
    return a / FS;
}

/* the page from the file into the memfd (through a reused buffer, as the store's loads do) */
static void fill(uint64_t i) {
    if (pread(filefd, buf, FS, (off_t)(i * FS)) != FS) abort();
    if (pwrite(memfd, buf, FS, (off_t)(i * FS)) != FS) abort();
}

static void on_segv(int sig, siginfo_t *si, void *uc) {
    (void)sig; (void)uc;
    int saved = errno;
    uint64_t i = frame_of(si->si_addr);
    fill(i);
    if (mprotect(app + i * FS, FS, PROT_READ) != 0) abort();
    errno = saved;
}

static void on_bus(int sig, siginfo_t *si, void *uc) {
    (void)sig; (void)uc;
    int saved = errno;
    uint64_t i = frame_of(si->si_addr);
    fill(i);
    if (protect_too && mprotect(app + i * FS, FS, PROT_READ) != 0) abort();
    struct uffdio_continue c = {.range = {.start = (uintptr_t)(app + i * FS), .len = FS}, .mode = 0};
    if (ioctl(uffd, UFFDIO_CONTINUE, &c) != 0 && errno != EEXIST) abort();
    errno = saved;
}

/* a fresh memfd mapped as the application view for `minor` or not; 0, or -1 if the kernel refuses uffd */
static int map_view(int minor, int alloc) {
    memfd = memfd_create("bench-minor", MFD_CLOEXEC);
    if (memfd < 0 || ftruncate(memfd, (off_t)P * FS) != 0) abort();
    if (!alloc && fallocate(memfd, 0, 0, (off_t)P * FS) != 0) abort();
    app = mmap(NULL, (size_t)P * FS, minor ? PROT_READ : PROT_NONE, MAP_SHARED, memfd, 0);
    if (app == MAP_FAILED) abort();
    if (!minor) return 0;
    uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (uffd < 0) return -1;
    struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_SIGBUS | UFFD_FEATURE_MINOR_SHMEM};
    if (ioctl(uffd, UFFDIO_API, &api) != 0) return -1;
    struct uffdio_register r = {.range = {.start = (uintptr_t)app, .len = (uint64_t)P * FS},
                                .mode = UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_MINOR};
    if (ioctl(uffd, UFFDIO_REGISTER, &r) != 0) return -1;
    return 0;
}

static void unmap_view(void) {
    munmap(app, (size_t)P * FS);
    close(memfd);
    if (uffd >= 0) close(uffd);
    uffd = -1;
}

static int cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* mode: 0 mprotect, 1 minor (through the faults); 2 and 3 the same work called directly before the reads, no fault */
static int run(int mode, int alloc, const uint32_t *order, const char *name) {
    int minor = mode & 1;
    uint64_t c[PASSES], w[PASSES], m[PASSES];
    for (int r = 0; r < PASSES; r++) {
        if (map_view(minor, alloc) != 0) {
            printf("%-9s refused by the kernel (%s)\n", name, strerror(errno));
            unmap_view();
            return 0;
        }
        long f0 = minflt();
        uint64_t c0 = cpu(), w0 = wall();
        uint64_t sum = 0;
        if (mode >= 2) {
            for (uint32_t k = 0; k < P; k++) {
                siginfo_t si = {0};
                si.si_addr = app + (uint64_t)order[k] * FS;
                if (minor) on_bus(SIGBUS, &si, NULL);
                else on_segv(SIGSEGV, &si, NULL);
            }
        }
        for (uint32_t k = 0; k < P; k++) {
            const uint8_t *f = app + (uint64_t)order[k] * FS;
            for (uint32_t o = 0; o < FS; o += OSP) sum += *(const volatile uint64_t *)(f + o);
        }
        c[r] = cpu() - c0;
        w[r] = wall() - w0;
        m[r] = (uint64_t)(minflt() - f0);
        uint64_t want = 0;
        for (uint32_t i = 0; i < P; i++)
            for (uint32_t o = 0; o < FS; o += OSP) want += (uint64_t)i * 1000003u + o;
        if (sum != want) {
            printf("%-9s read wrong words (sum %llu, expected %llu)\n", name, (unsigned long long)sum,
                   (unsigned long long)want);
            return 1;
        }
        unmap_view();
    }
    qsort(c, PASSES, sizeof c[0], cmp);
    qsort(w, PASSES, sizeof w[0], cmp);
    qsort(m, PASSES, sizeof m[0], cmp);
    printf("%-18s cpu %6llu ns/frame  wall %6llu ns/frame  minor faults %.2f/frame\n", name,
           (unsigned long long)(c[PASSES / 2] / P), (unsigned long long)(w[PASSES / 2] / P),
           (double)m[PASSES / 2] / P);
    return 0;
}

int main(int argc, char **argv) {
    int shuffled = 0, nospin = 0, alloc = 0;
    for (int k = 1; k < argc; k++) {
        shuffled |= !strcmp(argv[k], "shuffled");
        nospin |= !strcmp(argv[k], "nospin");
        alloc |= !strcmp(argv[k], "alloc");
    }
    pin(0);
    char path[] = "/tmp/bench-minor-XXXXXX";
    filefd = mkstemp(path);
    if (filefd < 0) abort();
    unlink(path);
    for (uint32_t i = 0; i < P; i++) {
        for (uint32_t o = 0; o < FS; o += 8) {
            uint64_t v = (uint64_t)i * 1000003u + o;
            memcpy(buf + o, &v, 8);
        }
        if (pwrite(filefd, buf, FS, (off_t)i * FS) != FS) abort();
    }
    fsync(filefd); /* the file stays in the page cache: what is measured is the fault, not the disk */
    uint32_t order[P];
    for (uint32_t i = 0; i < P; i++) order[i] = i;
    if (shuffled) {
        srand(7);
        for (uint32_t i = P - 1; i > 0; i--) {
            uint32_t j = (uint32_t)rand() % (i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
    struct sigaction sa = {0};
    sa.sa_flags = SA_SIGINFO;
    sa.sa_sigaction = on_segv;
    sigaction(SIGSEGV, &sa, NULL);
    sa.sa_sigaction = on_bus;
    sigaction(SIGBUS, &sa, NULL);
    pthread_t t;
    if (!nospin) pthread_create(&t, NULL, spin, NULL);
    printf("%u frames of %u bytes, %s order, memory %s, %s\n", P, FS, shuffled ? "shuffled" : "page",
           alloc ? "allocated by the loads" : "allocated ahead (fallocate)",
           nospin ? "no other thread" : "another thread spinning on CPU 1");
    int bad = 0;
    for (int k = 0; k < 2; k++) { /* twice, alternated: the first pair warms the file's pages and the allocator */
        bad |= run(0, alloc, order, "mprotect");
        bad |= run(1, alloc, order, "minor");
        protect_too = 1;
        bad |= run(1, alloc, order, "minor+mprotect");
        protect_too = 0;
        bad |= run(2, alloc, order, "mprotect, no fault");
        bad |= run(3, alloc, order, "minor, no fault");
    }
    stop = 1;
    if (!nospin) pthread_join(t, NULL);
    close(filefd);
    return bad;
}
