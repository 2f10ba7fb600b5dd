/* test_minor.c - cold loads mapped by userfaultfd minor faults (qs_minor.c) with real faults: a SIGBUS at a frame
 * never loaded loads it and maps its pages, so reading every OS page of a loaded frame takes no minor fault and the
 * application view gains no mapping (no island per loaded frame), where loads by mprotect take a minor fault per frame
 * and split the view; the values read are the file's; after an eviction (mprotect NONE, memory punched out) and after
 * the clock's reprotection of every frame a frame loads again with its values; a store to a frame loaded cold, and to
 * a frame never loaded, makes it DIRTY with its pre-image; a page the store installs is read without a signal; with
 * card marking selected first a loaded frame is writable without a fault or a split; a read of an unreserved frame is
 * refused (zeros, a refusal record) and the frame works again once reserved; kernel write tracking and a second
 * selection are refused (EBUSY), and so is a selection after a frame became resident. A first load (a fault, a run
 * read ahead, a prefetch, an install) leaves the view's protection as the selection made it (no mprotect:
 * QS_C_UNTOUCHED_LOADS); a reload after an eviction, the clock's reprotection or a release sets it; a view made
 * inaccessible behind the store's back is repaired by one spurious fault. Skipped (exit 0 with a message)
 * where the kernel or the process refuses userfaultfd minor faults on shared memory. build.sh runs every other test
 * again with minor faults on (QS_TEST_MINOR=1); this one selects them itself. */
#define QS_TEST_NO_MINOR /* the test selects minor faults itself, and compares with an arena without them */
#include "qs_test.h"
#include <errno.h>
#include <sys/resource.h>

#define FS 8192u
#define NPAGES 64u

static struct qs_arena *A;
static uint64_t rd(uint64_t frame, uint64_t k) { return ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k]; }
static void wr(uint64_t frame, uint64_t k, uint64_t v) {
    ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k] = v;
}
static uint32_t st(uint64_t frame) { return qs_frame_state(A, frame) & 0xff; }
static uint32_t fl(uint64_t frame) { return qs_frame_state(A, frame) >> 8; }

static long minflt(void) {
    struct rusage u;
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
}

/* test_minor_hook: the frame evicted before the minor fault maps it, loaded again (by the store's prefetch) after
 * the map failed */
static int hook_calls;
static void evict_then_reload(struct qs_arena *a, uint64_t i, int phase) {
    hook_calls++;
    int err = 0;
    if (phase == 0) CHECK(qs_evict(a, i, 1, 0) == 1, "hook: evicted");
    else CHECK(qs_prefetch(a, i, &err) == 0 && (qs_frame_state(a, i) & 0xff) == QS_CLEAN, "hook: loaded again");
}

/* mappings of the process (lines of /proc/self/maps) */
static int mappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL, "maps");
    int n = 0;
    for (int c; (c = fgetc(f)) != EOF;) n += c == '\n';
    fclose(f);
    return n;
}

/* every other frame of [0, NPAGES) read in full (both OS pages, the last word of the frame too), values checked;
 * returns the minor faults and the change in mappings it took */
static void read_every_other(long *faults, int *maps) {
    int m0 = mappings();
    long f0 = minflt();
    for (uint64_t i = 0; i < NPAGES; i += 2) {
        CHECK(rd(i, 1) == qs_test_word(i, 1), "frame %lu word 1", (unsigned long)i);
        CHECK(rd(i, 600) == qs_test_word(i, 600), "frame %lu word 600 (second OS page)", (unsigned long)i);
        CHECK(rd(i, FS / 8 - 1) == qs_test_word(i, FS / 8 - 1), "frame %lu last word", (unsigned long)i);
    }
    *faults = minflt() - f0;
    *maps = mappings() - m0;
}

/* an arena over the file at path with frames 0..NPAGES-1 reserved for its pages and a transaction open */
static int open_arena(const char *path, int minor) {
    CHECK(qs_arena_open(4ull * NPAGES * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open");
    CHECK(qs_signal_install() == 0, "install");
    int rc = minor ? qs_arena_set_minor_faults(A) : 0;
    if (rc != 0) return rc;
    int src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0, "source");
    CHECK(qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == (int64_t)NPAGES, "reserve");
    qs_arena_set_txn(A, 1);
    return 0;
}

int main(void) {
    const char *path = qs_test_file(FS, NPAGES);

    /* loads by mprotect, as the contrast: a minor fault per frame, a mapping split off per island */
    CHECK(open_arena(path, 0) == 0, "open without minor faults");
    CHECK(qs_arena_minor_faults(A) == 0, "off by default");
    long plain_faults;
    int plain_maps;
    read_every_other(&plain_faults, &plain_maps);
    CHECK(plain_faults >= (long)NPAGES / 2, "mprotect loads: a minor fault per frame (%ld)", plain_faults);
    CHECK(plain_maps >= (int)NPAGES / 2, "mprotect loads: an island per loaded frame (%d mappings more)", plain_maps);
    CHECK(qs_test_counter(A, QS_C_UNTOUCHED_LOADS) == 0, "mprotect loads: every load sets the protection");
    qs_arena_close(A);

    int rc = open_arena(path, 1);
    if (rc != 0) {
        printf("test_minor: skipped, userfaultfd minor faults refused here (%s)\n", strerror(-rc));
        qs_arena_close(A);
        unlink(path);
        return 0;
    }
    CHECK(qs_arena_minor_faults(A) == 1, "on");
    CHECK(qs_arena_set_minor_faults(A) == -EBUSY, "selected twice");
    CHECK(qs_arena_set_write_detection(A, QS_WD_KERNEL) == -EBUSY, "kernel write tracking: one userfaultfd per range");

    /* cold loads: values, no minor fault, no new mapping */
    long faults;
    int maps;
    uint64_t spurious = qs_test_counter(A, QS_C_SPURIOUS);
    read_every_other(&faults, &maps);
    CHECK(qs_test_counter(A, QS_C_SPURIOUS) == spurious, "one signal per load: the load mapped the frame's pages");
    CHECK(faults <= 2, "minor-fault loads: the pages mapped by the load (%ld minor faults, %ld by mprotect)", faults,
          plain_faults);
    CHECK(maps == 0, "minor-fault loads: no island (%d mappings more, %d by mprotect)", maps, plain_maps);
    CHECK(qs_test_counter(A, QS_C_READ_FAULTS) == NPAGES / 2, "one read fault per frame");
    CHECK(qs_test_counter(A, QS_C_UNTOUCHED_LOADS) == NPAGES / 2, "every first load left the view as it was");
    CHECK(st(0) == QS_CLEAN && st(1) == QS_RESERVED, "frame 0 loaded, frame 1 not");

    /* the store's own prefetch of a frame never loaded: no protection change either */
    int perr = 0;
    CHECK(st(17) == QS_RESERVED && qs_prefetch(A, 17, &perr) == 0 && st(17) == QS_CLEAN, "prefetched");
    CHECK(qs_test_counter(A, QS_C_UNTOUCHED_LOADS) == NPAGES / 2 + 1 && rd(17, 17) == qs_test_word(17, 17),
          "a prefetch left the view as it was");

    /* evictions and the clocks' reference bits without mprotect (qs_zaps): the clock's victim and a qs_evict keep
     * their views (the punch unmaps their pages) and load again untouched; the whole arena's reprotection zaps the
     * resident frames' page-table entries (ZAPPED, not PROT_NONE) and leaves the views of frames not resident alone;
     * a zapped frame's next read is a minor fault counted as its reference, its next store one write fault; none of it
     * adds a mapping. A release still makes the view PROT_NONE, and the frame's reload sets the protection. Had a load
     * taken a changed view as untouched, its read would fault again (a spurious fault that repairs the view). */
    uint64_t untouched = qs_test_counter(A, QS_C_UNTOUCHED_LOADS);
    spurious = qs_test_counter(A, QS_C_SPURIOUS);
    int m1 = mappings();
    CHECK(qs_arena_set_policy(A, 2) == 0, "classic clock");
    int64_t v = qs_clock_evict(A);
    CHECK(v >= 0 && st((uint64_t)v) == QS_RESERVED && !(fl((uint64_t)v) & QS_F_VIEW_TOUCHED),
          "the clock evicted frame %ld, its view kept", (long)v);
    uint64_t vp = qs_frame_page(A, (uint64_t)v);
    CHECK(rd((uint64_t)v, 3) == qs_test_word(vp, 3), "the clock's victim loaded again");
    CHECK(qs_arena_set_policy(A, 0) == 0, "no clock");
    CHECK(qs_evict(A, 0, 4, 0) == 2 && st(0) == QS_RESERVED && st(2) == QS_RESERVED, "evicted");
    CHECK(rd(0, 5) == qs_test_word(0, 5) && rd(2, 700) == qs_test_word(2, 700), "loaded again after eviction");
    CHECK(qs_test_counter(A, QS_C_UNTOUCHED_LOADS) == untouched + 3, "three reloads without mprotect (%lu)",
          (unsigned long)(qs_test_counter(A, QS_C_UNTOUCHED_LOADS) - untouched));
    CHECK(mappings() == m1, "evictions and reloads add no mapping (%d more)", mappings() - m1);
    int src0 = qs_source_open_file(A, path, 0);
    CHECK(st(13) == QS_RESERVED && qs_release(A, 13, 1) == 1 && st(13) == QS_FREE, "a cold frame released");
    CHECK(qs_reserve(A, 13, 1, (uint32_t)src0, 13) == 1 && rd(13, 13) == qs_test_word(13, 13), "reserved, loaded");
    CHECK(qs_test_counter(A, QS_C_UNTOUCHED_LOADS) == untouched + 3, "a reload after a release sets the protection");
    uint64_t refs = qs_test_counter(A, QS_C_REF_FAULTS);
    int m2 = mappings();
    CHECK(qs_reprotect_all(A) >= 1 && (fl(4) & QS_F_ZAPPED) && !(fl(4) & QS_F_PROTNONE) && !(fl(4) & QS_F_REF),
          "reprotection zaps a resident frame");
    CHECK(!(fl(19) & QS_F_VIEW_TOUCHED), "and leaves the view of a frame not resident as it was");
    CHECK(rd(4, 9) == qs_test_word(4, 9) && (fl(4) & QS_F_REF) && !(fl(4) & QS_F_ZAPPED)
              && qs_test_counter(A, QS_C_REF_FAULTS) == refs + 1,
          "a zapped frame's read: a reference fault");
    CHECK(rd(19, 9) == qs_test_word(19, 9) && qs_test_counter(A, QS_C_UNTOUCHED_LOADS) == untouched + 4,
          "a cold load after the reprotection without mprotect");
    CHECK(mappings() == m2, "the reprotection, a reference and a load add no mapping (%d more)", mappings() - m2);
    uint64_t wf = qs_test_counter(A, QS_C_WRITE_FAULTS);
    CHECK(st(8) == QS_CLEAN && (fl(8) & QS_F_ZAPPED), "frame 8 zapped");
    wr(8, 4, 88);
    CHECK(rd(8, 4) == 88 && st(8) == QS_DIRTY && qs_test_counter(A, QS_C_WRITE_FAULTS) == wf + 1
              && qs_test_counter(A, QS_C_REF_FAULTS) == refs + 1 && !(fl(8) & QS_F_ZAPPED),
          "a store to a zapped frame: one write fault, which maps its pages");
    CHECK(qs_test_counter(A, QS_C_SPURIOUS) == spurious, "no load left its view inaccessible, no second signal");

    /* a minor fault whose state is stale by the time it maps: the frame evicted before the map (which then fails) and
     * loaded again before the fault claims it. Claimed, the frame maps; it is not refused as an I/O error (which
     * read zeros from the scratch page under test_clock's concurrent readers) */
    CHECK(qs_reprotect_all(A) >= 1 && (fl(22) & QS_F_ZAPPED) && st(22) == QS_CLEAN, "frame 22 zapped");
    uint64_t refusals = qs_test_counter(A, QS_C_REFUSALS);
    A->test_minor_hook = evict_then_reload;
    CHECK(rd(22, 21) == qs_test_word(22, 21) && st(22) == QS_CLEAN, "read through an eviction and a reload");
    A->test_minor_hook = NULL;
    CHECK(hook_calls == 2 && qs_test_counter(A, QS_C_REFUSALS) == refusals, "the map failed once, nothing refused");
    CHECK(qs_refusal_take(A, (uint64_t[7]){0}) == 0, "no refusal record");

    /* a view left inaccessible behind the store's back while the frame is CLEAN and readable by its flags: the read's
     * SIGSEGV sets the protection (a spurious fault) instead of restarting into the same fault for ever */
    spurious = qs_test_counter(A, QS_C_SPURIOUS);
    CHECK(st(19) == QS_CLEAN && mprotect((void *)(qs_arena_base(A) + 19 * FS), FS, PROT_NONE) == 0,
          "frame 19 made NONE");
    CHECK(rd(19, 14) == qs_test_word(19, 14) && qs_test_counter(A, QS_C_SPURIOUS) == spurious + 1,
          "the view repaired by one spurious fault");


    /* stores: to a frame loaded cold, to a frame never loaded */
    wr(6, 3, 77);
    CHECK(st(6) == QS_DIRTY && rd(6, 3) == 77 && rd(6, 4) == qs_test_word(6, 4), "a store to a loaded frame");
    wr(7, 800, 78);
    CHECK(st(7) == QS_DIRTY && rd(7, 800) == 78 && rd(7, 801) == qs_test_word(7, 801), "a store to a cold frame");
    CHECK(qs_mark_clean(A, 6) == 1 && qs_mark_clean(A, 7) == 1 && st(6) == QS_CLEAN, "cleaned");
    CHECK(rd(6, 3) == 77 && rd(7, 800) == 78, "stores kept");

    /* a refusal: an unreserved frame reads zeros; reserved, it loads */
    uint64_t out[7];
    CHECK(rd(NPAGES + 3, 2) == 0 && st(NPAGES + 3) == QS_REFUSED, "unreserved: refused");
    CHECK(qs_refusal_take(A, out) == 1 && out[0] == QS_R_NOT_RESERVED && out[4] == NPAGES + 3, "refusal record");
    CHECK(qs_reset_refused(A, NPAGES + 3, 1) == 1, "reset");
    int src = qs_source_open_file(A, path, 0);
    CHECK(qs_reserve(A, NPAGES + 3, 1, (uint32_t)src, 9) == 1, "reserved for page 9");
    CHECK(rd(NPAGES + 3, 10) == qs_test_word(9, 10), "the repaired frame loads");
    /* the repair mapped the frame's range anew and registered it again: evicted by a punch alone, its next read is a
     * missing fault that loads it (an unregistered range would map a new zero page instead) */
    CHECK(qs_evict(A, NPAGES + 3, 1, 0) == 1 && !(fl(NPAGES + 3) & QS_F_VIEW_TOUCHED), "evicted, its view kept");
    CHECK(rd(NPAGES + 3, 11) == qs_test_word(9, 11), "loaded again, not zeros: the range registered again");

    /* the store's own load (qs_install): mapped at once, so the application's first read takes no signal */
    uint8_t *img = malloc(FS);
    qs_test_fill_page(img, FS, 11);
    untouched = qs_test_counter(A, QS_C_UNTOUCHED_LOADS);
    /* a frame past the ones the whole arena's reprotection touched, reserved for page 11 */
    CHECK(qs_reserve(A, NPAGES + 5, 1, (uint32_t)src, 11) == 1, "reserved for page 11");
    CHECK(st(NPAGES + 5) == QS_RESERVED && qs_install(A, NPAGES + 5, img) == 1 && st(NPAGES + 5) == QS_CLEAN,
          "installed");
    CHECK(qs_test_counter(A, QS_C_UNTOUCHED_LOADS) == untouched + 1, "an install left the view as it was");
    free(img);
    uint64_t sp = qs_test_counter(A, QS_C_SPURIOUS), rf = qs_test_counter(A, QS_C_READ_FAULTS);
    CHECK(rd(NPAGES + 5, 12) == qs_test_word(11, 12), "installed page read");
    CHECK(qs_test_counter(A, QS_C_SPURIOUS) == sp && qs_test_counter(A, QS_C_READ_FAULTS) == rf,
          "no signal for an installed page");

    /* no transaction: a cold frame is refused, a resident one reads */
    qs_arena_set_txn(A, 0);
    CHECK(rd(9, 1) == 0 && st(9) == QS_REFUSED && qs_refusal_take(A, out) == 1 && out[0] == QS_R_NO_TXN,
          "no transaction: refused");
    CHECK(rd(4, 9) == qs_test_word(4, 9), "no transaction: resident frames read");
    qs_arena_close(A);

    /* card marking selected first: the view is read-write from the start, a cold load maps the frame writable (no
     * split), and a store to the loaded clean frame takes no fault (the card barrier is the store's, in Java) */
    CHECK(qs_arena_open(4ull * NPAGES * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open for cards");
    CHECK(qs_arena_set_write_detection(A, 9) == 0 && qs_arena_set_minor_faults(A) == 0, "cards, then minor faults");
    src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0 && qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == (int64_t)NPAGES, "reserve for cards");
    qs_arena_set_txn(A, 1);
    int m0 = mappings();
    CHECK(rd(5, 5) == qs_test_word(5, 5) && rd(9, 9) == qs_test_word(9, 9) && st(5) == QS_CLEAN, "cards: loaded");
    wr(5, 6, 99);
    CHECK(rd(5, 6) == 99 && st(5) == QS_CLEAN && qs_test_counter(A, QS_C_WRITE_FAULTS) == 0,
          "cards: a store, no fault");
    CHECK(mappings() == m0, "cards: no island (%d mappings more)", mappings() - m0);
    /* read-ahead: a run of frames never loaded leaves the view as it was too (one count per frame of the run) */
    CHECK(qs_arena_set_readahead(A, 4) == 0, "read-ahead 4");
    untouched = qs_test_counter(A, QS_C_UNTOUCHED_LOADS);
    CHECK(rd(20, 1) == qs_test_word(20, 1) && rd(21, 1) == qs_test_word(21, 1) && rd(24, 2) == qs_test_word(24, 2),
          "cards: a stream read");
    CHECK(qs_test_counter(A, QS_C_READAHEAD) == 3 && qs_test_counter(A, QS_C_UNTOUCHED_LOADS) == untouched + 5,
          "a run of four read ahead, untouched (%lu read ahead, %lu untouched)",
          (unsigned long)qs_test_counter(A, QS_C_READAHEAD),
          (unsigned long)(qs_test_counter(A, QS_C_UNTOUCHED_LOADS) - untouched));
    qs_arena_close(A);

    /* selected after a frame became resident: refused, nothing changes */
    CHECK(open_arena(path, 0) == 0, "open");
    CHECK(rd(3, 3) == qs_test_word(3, 3), "a resident frame");
    CHECK(qs_arena_set_minor_faults(A) == -EBUSY && qs_arena_minor_faults(A) == 0, "too late");
    qs_arena_close(A);

    unlink(path);
    printf("test_minor: %d checks passed (minor faults %ld vs %ld by mprotect; mappings +%d vs +%d)\n", qs_checks,
           faults, plain_faults, maps, plain_maps);
    return 0;
}
