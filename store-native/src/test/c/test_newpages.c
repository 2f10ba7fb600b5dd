/* test_newpages.c - qs_make_new (ABI 20): frames for pages a transaction allocates become DIRTY against the shared
 * zero pre-image (QS_PRE_ZERO) and writable, with no slot, no copy and one mprotect per run. Real stores through
 * the application view: a store into a frame made new takes no fault; the frame's bytes are zeros whatever it held;
 * the pre-image is the arena's read-only zero page and costs no pre-image bytes; a clean list (freeing or detaching)
 * ends the frame like a written one; the run stops at the first frame it cannot claim; the first frame DIRTY
 * already is left as it is; disk-dirty frames are never zeroed; the pool's bound and the caller's allowance stop the
 * frames after the first that need installing; modes that write pre-images or lock pages refuse. */
#include "qs_test.h"
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define FS 8192u
#define NPAGES 256u

static struct qs_arena *A;
static volatile uint64_t sink;

static uint64_t rd(uint64_t frame, uint64_t k) { return ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k]; }
static void wr(uint64_t frame, uint64_t k, uint64_t v) {
    ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k] = v;
}
static uint32_t st(uint64_t frame) { return qs_frame_state(A, frame) & 0xff; }
static uint32_t fl(uint64_t frame) { return qs_frame_state(A, frame) >> 8; }

static int all_zero(const void *p) {
    const uint64_t *w = p;
    for (uint32_t k = 0; k < FS / 8; k++)
        if (w[k] != 0) return 0;
    return 1;
}

static void open_store(const char *path) {
    CHECK(qs_arena_open(1024ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open");
    int src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve");
    qs_arena_set_txn(A, 1);
}

int main(void) {
    const char *path = qs_test_file(FS, NPAGES);
    CHECK(qs_signal_install() == 0, "handler");
    open_store(path);

    CHECK(qs_make_new(A, 0, 0, 64) == -ERANGE && qs_make_new(A, 1024, 1, 64) == -ERANGE
              && qs_make_new(A, 1000, 25, 64) == -ERANGE,
          "beyond the arena");

    /* a run over reserved frames 10..13 and a clean one (14, loaded: it holds its page) */
    sink = rd(14, 1);
    CHECK(st(14) == QS_CLEAN, "14 loaded");
    uint64_t wf0 = qs_test_counter(A, QS_C_WRITE_FAULTS), rf0 = qs_test_counter(A, QS_C_READ_FAULTS);
    uint64_t pre0 = qs_test_counter(A, QS_C_PREIMAGE_BYTES), res0 = qs_arena_resident(A);
    int64_t made = qs_make_new(A, 10, 5, 64);
    CHECK(made == 5 && qs_test_counter(A, QS_C_NEW_PAGES) == 5, "10-14 made new (%ld)", (long)made);
    CHECK(qs_arena_resident(A) == res0 + 4, "the four reserved frames are resident now");
    for (uint64_t f = 10; f <= 14; f++) {
        CHECK(st(f) == QS_DIRTY && (fl(f) & QS_F_REF) && !(fl(f) & QS_F_VIEW_RO), "frame %lu DIRTY", (unsigned long)f);
        const void *pre = (const void *)qs_preimage_of(A, f);
        CHECK(pre == A->pre.zero && all_zero(pre), "frame %lu's pre-image is the zero page", (unsigned long)f);
        CHECK(all_zero((const void *)(uintptr_t)(qs_arena_alias(A) + f * FS)), "frame %lu holds zeros",
              (unsigned long)f);
        CHECK(rd(f, 7) == 0, "the view reads zeros");
        wr(f, 7, 1000 + f);
        CHECK(rd(f, 7) == 1000 + f, "the store landed");
    }
    CHECK(qs_test_counter(A, QS_C_WRITE_FAULTS) == wf0 && qs_test_counter(A, QS_C_READ_FAULTS) == rf0,
          "no fault: the frames were writable");
    CHECK(qs_test_counter(A, QS_C_PREIMAGE_BYTES) == pre0 && atomic_load(&A->pre.used_bytes) == 0,
          "no pre-image bytes copied or in use");
    {   /* the zero page is read-only: a stray write to a pre-image kills the writer instead of corrupting every new
         * page's pre-image (a child writes; the handler forwards the foreign fault to the default action) */
        volatile uint8_t *z = A->pre.zero;
        pid_t pid = fork();
        CHECK(pid >= 0, "fork");
        if (pid == 0) {
            struct rlimit none = {0, 0};
            setrlimit(RLIMIT_CORE, &none); /* no core file */
            z[100] = 1;
            _exit(0);
        }
        int status = 0;
        CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
              "a write to the zero pre-image faults (status %d)", status);
        CHECK(z[100] == 0, "and changed nothing here");
    }

    /* the first frame DIRTY already: left alone (its pre-image is the page as last committed) */
    sink = rd(20, 1);
    wr(20, 3, 5);
    uint64_t pre20 = qs_preimage_of(A, 20);
    CHECK(st(20) == QS_DIRTY && pre20 != 0 && pre20 != (uint64_t)(uintptr_t)A->pre.zero, "20 dirty by its fault");
    CHECK(qs_make_new(A, 20, 3, 64) == 0 && qs_preimage_of(A, 20) == pre20 && rd(20, 3) == 5 && st(21) == QS_RESERVED,
          "a dirty first frame: nothing changed");

    /* the run stops at the first frame it cannot claim: 32 is DIRTY, 31 clean but disabled by the clock */
    sink = rd(31, 1);
    CHECK(qs_reprotect_range(A, 31, 32) >= 0 && (fl(31) & QS_F_DISABLED), "31 reprotected");
    CHECK(qs_make_new(A, 29, 4, 64) == 2 && st(29) == QS_DIRTY && st(30) == QS_DIRTY && st(31) == QS_CLEAN,
          "29-30 made new, the run stopped at 31");
    CHECK(qs_make_new(A, 31, 1, 64) == -ENOENT && st(31) == QS_CLEAN, "a disabled first frame: the general path's");
    CHECK(qs_make_new(A, 300, 1, 64) == -ENOENT && st(300) == QS_FREE, "a free (unreserved) frame: refused");
    /* a disk-dirty frame (its committed image only here and in the log) is never zeroed; a pinned one only first */
    sink = rd(50, 1);
    sink = rd(52, 1);
    CHECK(qs_frame_hold(A, 50, QS_F_WAL, 1) == 0 && qs_frame_hold(A, 52, QS_F_PINNED, 1) == 0, "holds");
    CHECK(qs_make_new(A, 50, 1, 64) == -ENOENT && st(50) == QS_CLEAN && rd(50, 3) == qs_test_word(50, 3),
          "a disk-dirty first frame: the general path's");
    CHECK(qs_make_new(A, 49, 3, 64) == 1 && st(49) == QS_DIRTY && st(50) == QS_CLEAN,
          "a run stops at a disk-dirty frame");
    CHECK(qs_make_new(A, 51, 3, 64) == 1 && st(52) == QS_CLEAN && rd(52, 3) == qs_test_word(52, 3),
          "a run stops at a pinned frame after its first");
    CHECK(qs_make_new(A, 52, 1, 64) == 1 && rd(52, 3) == 0, "a pinned first frame (the caller's fix) is made new");
    CHECK(qs_frame_hold(A, 50, QS_F_WAL, 0) == 0 && qs_frame_hold(A, 52, QS_F_PINNED, 0) == 0, "holds off");

    /* the pool's bound: the first frame may evict (as qs_install), the others only below it */
    uint64_t r = qs_arena_resident(A);
    qs_arena_set_budgets(A, r + 2, 0);
    CHECK(qs_make_new(A, 40, 8, 64) == 2 && st(41) == QS_DIRTY && st(42) == QS_RESERVED,
          "two frames left below the bound");
    qs_arena_set_budgets(A, 0, 0);
    /* the caller's allowance of frames to install after the first (its pool's room); resident ones need none */
    CHECK(qs_make_new(A, 60, 4, 1) == 2 && st(61) == QS_DIRTY && st(62) == QS_RESERVED, "one install allowed");
    sink = rd(71, 1);
    CHECK(qs_make_new(A, 70, 3, 0) == 2 && st(71) == QS_DIRTY && rd(71, 1) == 0 && st(72) == QS_RESERVED,
          "none allowed: the first and a resident one");

    /* commit: a clean list ends them like written frames; the detaching one hands out the zero page, released as a
     * no-op; cleaned frames are write-protected again (the next store faults and captures a real pre-image) */
    uint64_t dl[64];
    int64_t nd = qs_dirty_list(A, 0, dl, 64);
    CHECK(nd == 17, "10-14, 20, 29-30, 40-41, 49, 51-52, 60-61, 70-71 dirty (%ld)", (long)nd);
    uint64_t slots[64], addrs[64];
    CHECK(qs_mark_clean_list_detach(A, dl, (uint64_t)nd, 16, slots, addrs) == nd, "cleaned, detached");
    int zeros = 0;
    for (int k = 0; k < nd; k++) zeros += slots[k] == QS_PRE_ZERO && addrs[k] == (uint64_t)(uintptr_t)A->pre.zero;
    CHECK(zeros == 16, "sixteen zero pre-images handed out (%d)", zeros);
    CHECK(qs_preimage_release_list(A, slots, (uint64_t)nd) == nd && atomic_load(&A->pre.used_bytes) == 0,
          "released; no pre-image bytes in use");
    CHECK(st(12) == QS_CLEAN && qs_preimage_of(A, 12) == 0 && rd(12, 7) == 1012, "12 clean, its bytes kept");
    wf0 = qs_test_counter(A, QS_C_WRITE_FAULTS);
    wr(12, 8, 9);
    const uint64_t *p12 = (const uint64_t *)qs_preimage_of(A, 12);
    CHECK(qs_test_counter(A, QS_C_WRITE_FAULTS) == wf0 + 1 && st(12) == QS_DIRTY && p12 != NULL
              && (const void *)p12 != A->pre.zero && p12[7] == 1012 && p12[8] == 0,
          "the next store faults and captures a real pre-image");
    CHECK(qs_make_new(A, 29, 1, 64) == 1 && rd(29, 7) == 0 && qs_preimage_of(A, 29) == (uint64_t)(uintptr_t)A->pre.zero,
          "a clean frame made new again: zeros");
    nd = qs_dirty_list(A, 0, dl, 64);
    CHECK(qs_mark_clean_list(A, dl, (uint64_t)nd, 16) == nd && atomic_load(&A->pre.used_bytes) == 0,
          "the freeing clean list: no pre-image bytes left in use");
    CHECK(qs_evict(A, 10, 5, 0) == 5 && st(10) == QS_RESERVED && rd(10, 7) == qs_test_word(10, 7),
          "evicted clean, reloaded from the file");
    qs_arena_close(A);

    /* modes that write pre-images or lock pages refuse; card marking takes them (clean frames are writable) */
    open_store(path);
    CHECK(qs_arena_set_write_detection(A, 9) == 0, "cards");
    CHECK(qs_make_new(A, 5, 2, 64) == 2 && (fl(5) & QS_F_WHOLE) && st(6) == QS_DIRTY, "cards: made new, diffed whole");
    wr(5, 1, 1);
    CHECK(rd(5, 1) == 1, "cards: written");
    qs_arena_close(A);
    open_store(path);
    A->preimage_on_load = 1;
    CHECK(qs_make_new(A, 5, 1, 64) == -ENOTSUP && st(5) == QS_RESERVED, "scanning: refused");
    A->preimage_on_load = 0;
    atomic_store(&A->locking, 1);
    CHECK(qs_make_new(A, 5, 1, 64) == -ENOTSUP, "page locking: refused");
    atomic_store(&A->locking, 0);
    qs_arena_close(A);

    /* at the kernel's limit on mappings the run's mprotect fails: nothing changes and the caller's general path (which
     * collapses islands) takes the page. Islands of alternating protection are made behind the arena's back, then a
     * frame inside the large mapping after them needs a split */
    {
        const uint64_t nf = 140000;
        CHECK(qs_arena_open(nf * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for the mapping limit");
        int src = qs_source_open_file(A, path, 0);
        CHECK(src >= 0 && qs_reserve(A, 0, nf, (uint32_t)src, 0) == (int64_t)nf, "reserve %lu", (unsigned long)nf);
        qs_arena_set_txn(A, 1);
        uint64_t f = 0;
        while (f < nf - 1000 && mprotect((void *)(uintptr_t)(qs_arena_base(A) + f * FS), FS, PROT_WRITE) == 0) f += 2;
        CHECK(errno == ENOMEM && f < nf - 1000, "the mapping limit reached at frame %lu", (unsigned long)f);
        uint64_t res = qs_arena_resident(A), j = nf - 500;
        CHECK(qs_make_new(A, j, 4, 4) == -EAGAIN && st(j) == QS_RESERVED && st(j + 1) == QS_RESERVED
                  && qs_arena_resident(A) == res && qs_test_counter(A, QS_C_NEW_PAGES) == 0,
              "the mprotect refused: nothing changed");
        qs_arena_close(A);
    }

    unlink(path);
    printf("test_newpages: %d checks ok\n", qs_checks);
    return 0;
}
