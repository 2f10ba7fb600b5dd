/* test_kwp.c - kernel write tracking (qs_kwp.c) in a plain C process: real faults, a real userfaultfd, real
 * PAGEMAP_SCAN. Page protection until a commit's settle gives a frame its twin; then stores take no fault, the
 * collect finds them and turns the frame DIRTY with the twin as its pre-image; a stray store is put back; a written
 * twin is never evicted, an unwritten one is and its slot is freed; settle without a twin write-protects. Skipped
 * (exit 0 with a message) where the kernel or the process cannot use userfaultfd write-protection. */
#define QS_TEST_NO_MINOR /* kernel write tracking registers the view with its own userfaultfd */
#include "qs_test.h"
#include <errno.h>

#define FS 8192u
#define NPAGES 64u

static struct qs_arena *A;

static uint64_t rd(uint64_t frame, uint64_t k) { return ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k]; }
static void wr(uint64_t frame, uint64_t k, uint64_t v) { ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k] = v; }
static uint32_t st(uint64_t frame) { return qs_frame_state(A, frame) & 0xff; }
static uint32_t fl(uint64_t frame) { return qs_frame_state(A, frame) >> 8; }
static uint64_t wfaults(void) { return qs_test_counter(A, QS_C_WRITE_FAULTS); }
static uint64_t pre_word(uint64_t frame, uint64_t k) { return ((uint64_t *)qs_preimage_of(A, frame))[k]; }

/* A commit's clean point and settle for the listed frames, as TransactionManager does it: collect, detach, bring
 * each detached pre-image to the page as logged (here: a copy of the page), settle keeping them as twins when
 * keep != 0. Returns the frames given a twin. */
static int64_t commit(const uint64_t *frames, uint64_t n, int keep) {
    CHECK(qs_kwp_collect(A, 0, NULL, 0) >= 0, "collect");
    uint64_t slots[16], addrs[16];
    uint8_t keeps[16];
    CHECK(n <= 16, "at most 16 frames");
    CHECK(qs_mark_clean_list_detach(A, frames, n, 16, slots, addrs) >= 0, "detach");
    for (uint64_t k = 0; k < n; k++) {
        CHECK(slots[k] != 0, "frame %lu had a pre-image", (unsigned long)frames[k]);
        CHECK(fl(frames[k]) & QS_F_OPEN, "frame %lu open after the clean point", (unsigned long)frames[k]);
        memcpy((void *)addrs[k], (const void *)(qs_arena_alias(A) + frames[k] * FS), FS);
        keeps[k] = (uint8_t)keep;
    }
    return qs_kwp_settle(A, frames, slots, keeps, n);
}

int main(void) {
    int probe = qs_kwp_probe();
    if (probe != 0) {
        printf("[native] test_kwp: skipped: userfaultfd write-protection unavailable here (%s)\n", strerror(-probe));
        return 0;
    }
    const char *path = qs_test_file(FS, NPAGES);
    CHECK(qs_arena_open(256ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open");
    CHECK(qs_signal_install() == 0, "install");
    CHECK(qs_arena_set_write_detection(A, 0x200) == 0, "select kernel tracking");
    CHECK(qs_arena_set_write_detection(A, 0x200) == -EBUSY, "twice: EBUSY");
    CHECK(qs_arena_set_write_detection(A, 9) == -EBUSY, "cards after it: EBUSY");
    int src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0, "source");
    CHECK(qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve");
    qs_arena_set_txn(A, 1);
    CHECK(qs_kwp_collect(A, 2, NULL, 0) == -EINVAL, "bad mode");

    /* page protection before the first commit: the first store faults and captures */
    CHECK(rd(3, 5) == qs_test_word(3, 5) && rd(4, 5) == qs_test_word(4, 5), "read");
    uint64_t w0 = wfaults();
    wr(3, 5, 111);
    wr(4, 5, 222);
    CHECK(wfaults() == w0 + 2, "two write faults before any twin");
    CHECK(st(3) == QS_DIRTY && st(4) == QS_DIRTY, "dirty");
    CHECK(qs_kwp_collect(A, 0, NULL, 0) == 0, "no twin yet: collect takes nothing");
    uint64_t both[2] = {3, 4};
    CHECK(commit(both, 2, 1) == 2, "both get twins");
    CHECK(st(3) == QS_CLEAN && (fl(3) & QS_F_TWIN) && !(fl(3) & QS_F_OPEN), "3 is a twin");
    CHECK(pre_word(3, 5) == 111, "the twin holds the page as logged");

    /* a twin frame: stores take no fault, the collect finds exactly the written one */
    w0 = wfaults();
    wr(3, 6, 333);
    wr(3, 7, 334);
    CHECK(wfaults() == w0, "no write fault on a twin frame");
    CHECK(st(3) == QS_CLEAN, "still CLEAN until the collect");
    CHECK(rd(4, 6) == qs_test_word(4, 6), "4 read only");
    uint64_t taken[4] = {0};
    CHECK(qs_kwp_collect(A, 0, taken, 4) == 1 && taken[0] == 3, "the collect takes frame 3 only");
    CHECK(st(3) == QS_DIRTY && !(fl(3) & QS_F_TWIN), "3 is DIRTY");
    CHECK(pre_word(3, 6) == qs_test_word(3, 6) && pre_word(3, 5) == 111, "its pre-image is the twin");
    CHECK(st(4) == QS_CLEAN && (fl(4) & QS_F_TWIN), "4 still a twin");
    if (qs_kwp_page_bytes() == 4096) { /* the mask: which OS pages of the frame the kernel saw written */
        CHECK(qs_kwp_mask(A, 3) == 1, "the first OS page of frame 3 was written: mask %ld", (long)qs_kwp_mask(A, 3));
        wr(3, 700, 7); /* byte 5600: the second OS page, after an earlier collect (as an eviction's) */
        CHECK(qs_kwp_collect(A, 0, NULL, 0) == 0 && qs_kwp_mask(A, 3) == 3, "a later collect adds the page");
        CHECK(qs_mark_dirty(A, 3) == 0 && qs_kwp_mask(A, 3) == -1, "a store through the alias: diffed whole");
        CHECK(qs_kwp_mask(A, 4) == -1, "a twin is not dirty: no mask");
    }
    CHECK(qs_kwp_collect(A, 0, NULL, 0) == 0, "the collect re-armed: nothing written since");
    uint64_t one[1] = {3};
    CHECK(commit(one, 1, 1) == 1, "3 a twin again");
    CHECK(pre_word(3, 6) == 333, "twin refreshed");
    /* a store between the collect and the settle is found by the next collect */
    CHECK(qs_kwp_collect(A, 0, NULL, 0) == 0, "nothing written");
    wr(3, 8, 444);
    CHECK(qs_kwp_collect(A, 0, NULL, 0) == 1 && st(3) == QS_DIRTY, "found");
    CHECK(commit(one, 1, 1) == 1, "twin again");

    /* a store outside a transaction to a twin: RESTORE puts the twin back and names the frame */
    wr(4, 9, 999);
    CHECK(rd(4, 9) == 999, "the stray store landed (no fault)");
    CHECK(qs_kwp_collect(A, 1, taken, 4) == 1 && taken[0] == 4, "restore names frame 4");
    CHECK(rd(4, 9) == qs_test_word(4, 9) && rd(4, 5) == 222, "the twin is back");
    CHECK(st(4) == QS_CLEAN && (fl(4) & QS_F_TWIN), "still a twin");
    CHECK(qs_kwp_collect(A, 0, NULL, 0) == 0, "the restore was through the alias: not a store");

    /* eviction: a written twin stays, an unwritten one goes and frees its slot */
    wr(4, 10, 1010);
    CHECK(qs_evict(A, 4, 1, 0) == 0, "a written twin is not evicted");
    CHECK(st(4) == QS_CLEAN && (fl(4) & QS_F_TWIN) && (fl(4) & QS_F_PROTNONE), "kept, access disabled");
    CHECK(rd(4, 10) == 1010, "its store is there (the access comes back)");
    CHECK(qs_kwp_collect(A, 0, NULL, 0) == 1 && st(4) == QS_DIRTY, "and the collect still finds it");
    uint64_t four[1] = {4};
    CHECK(commit(four, 1, 1) == 1, "4 a twin again");
    uint64_t used0 = qs_test_counter(A, QS_C_PREIMAGE_BYTES);
    (void)used0;
    CHECK(qs_evict(A, 4, 1, 0) == 1 && st(4) == QS_RESERVED && !(fl(4) & QS_F_TWIN), "an unwritten twin is evicted");
    CHECK(qs_preimage_of(A, 4) == 0, "its slot is gone");
    CHECK(rd(4, 10) == qs_test_word(4, 10), "reloaded from the file (the test's file was never written)");
    w0 = wfaults();
    wr(4, 11, 1111);
    CHECK(wfaults() == w0 + 1 && st(4) == QS_DIRTY, "reloaded: page protection again");

    /* settle without keeping: the frame is write-protected (page protection's clean state) */
    CHECK(commit(four, 1, 0) == 0, "no twin");
    CHECK(st(4) == QS_CLEAN && !(fl(4) & (QS_F_TWIN | QS_F_OPEN)), "plain CLEAN");
    w0 = wfaults();
    wr(4, 12, 1212);
    CHECK(wfaults() == w0 + 1, "a store faults again");

    /* the clock never takes a written twin; reprotection (PROT_NONE) and back keeps the twin writable */
    CHECK(qs_reprotect(A, 3, 1) >= 0, "reprotect 3");
    w0 = wfaults();
    wr(3, 13, 1313);
    CHECK(wfaults() == w0 && st(3) == QS_CLEAN, "a reprotected twin opens writable: a reference fault, no write fault");
    CHECK(qs_kwp_collect(A, 0, NULL, 0) == 1 && st(3) == QS_DIRTY, "and its store is found");

    /* settle refuses a bad entry without changing anything */
    uint64_t bad[1] = {1u << 30}, s0[1] = {0};
    uint8_t k1[1] = {1};
    CHECK(qs_kwp_settle(A, bad, s0, k1, 1) == -EINVAL, "frame outside the arena");

    /* every slot is accounted for: only the twins and the dirty frames' pre-images are in use */
    uint64_t twins_held = 0;
    for (uint64_t i = 0; i < NPAGES; i++)
        if ((st(i) == QS_CLEAN && (fl(i) & QS_F_TWIN)) || st(i) == QS_DIRTY) twins_held++;
    CHECK(atomic_load(&A->pre.used_bytes) == twins_held * FS, "pre-image bytes %lu for %lu frames",
          (unsigned long)atomic_load(&A->pre.used_bytes), (unsigned long)twins_held);
    qs_arena_close(A);
    unlink(path);
    printf("[native] test_kwp: %d checks\n", qs_checks);
    return 0;
}
