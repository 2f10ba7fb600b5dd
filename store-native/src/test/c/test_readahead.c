/* test_readahead.c - clustered read-ahead in the fault path (qs_readahead.c) with real SIGSEGVs: a read fault
 * that continues a stream (the frame before it is resident with the page before) installs exactly the run it
 * read (the faulting frame and the following reserved frames of the following pages), a fault without a
 * resident predecessor reads its page alone, never beyond the end of the file, the pool bound, a frame that is not RESERVED or a frame of another
 * page; a neighbour with a bad checksum stays RESERVED and is refused on its own fault as before; a write fault
 * makes only its own frame DIRTY; off (0 or 1) it loads one frame per fault. Every rule is checked twice: with runs
 * read through the arena's run buffer (the default) and with runs read into the alias view (the path a run takes
 * when the buffer is held, a frame is relocated or Texas is on); through the buffer, a run's fault takes no minor
 * fault on the alias view. */
#include "qs_test.h"
#include <errno.h>
#include <sys/mman.h>
#include <pthread.h>
#include <sys/resource.h>

#define FS 8192u
#define NPAGES 100u /* pages in the file; frames 100..127 are reserved for pages beyond its end */

static struct qs_arena *A;
static uint64_t rd(uint64_t frame, uint64_t k) { return ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k]; }
static void wr(uint64_t frame, uint64_t k, uint64_t v) { ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k] = v; }
static uint32_t st(uint64_t frame) { return qs_frame_state(A, frame) & 0xff; }
static uint64_t ctr(int c) { return qs_test_counter(A, c); }

/* frames [lo, hi) have state s */
static int states(uint64_t lo, uint64_t hi, uint32_t s) {
    for (uint64_t i = lo; i < hi; i++) if (st(i) != s) return 0;
    return 1;
}

static long minflt(void) {
    struct rusage u;
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
}

/* the rules on a fresh arena over the file at path; alias: runs read into the alias view */
static void rules(const char *path, int alias) {
    CHECK(qs_arena_open(256ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open");
    int src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0, "source");
    CHECK(qs_reserve(A, 0, 128, (uint32_t)src, 0) == 128, "reserve 0..127 = pages 0..127");
    CHECK(qs_arena_set_readahead(A, 65) == -EINVAL && qs_arena_set_readahead(A, 64) == 0, "bounds");
    qs_test_readahead_alias(A, (uint32_t)alias);
    qs_arena_set_txn(A, 1);

    /* off: one frame per fault */
    CHECK(qs_arena_set_readahead(A, 1) == 0, "off");
    CHECK(rd(90, 3) == qs_test_word(90, 3) && st(90) == QS_CLEAN && st(91) == QS_RESERVED, "off: one frame");
    CHECK(ctr(QS_C_READAHEAD) == 0, "off: no read-ahead");

    /* a jump (no resident predecessor) reads its page alone; the next fault continues the stream: a run of 8,
     * frames 1..8 CLEAN with their pages, one fault, 7 frames read ahead */
    CHECK(qs_arena_set_readahead(A, 8) == 0, "on");
    CHECK(rd(0, 1) == qs_test_word(0, 1) && st(1) == QS_RESERVED && ctr(QS_C_READAHEAD) == 0, "frame 0 alone");
    CHECK(rd(20, 1) == qs_test_word(20, 1) && st(21) == QS_RESERVED && ctr(QS_C_READAHEAD) == 0, "frame 20 alone");
    uint64_t rf = ctr(QS_C_READ_FAULTS), by = ctr(QS_C_BYTES_READ);
    long mf = minflt();
    CHECK(rd(1, 1) == qs_test_word(1, 1), "frame 1");
    mf = minflt() - mf;
    printf("test_readahead: a run of 8 read %s took %ld minor faults\n",
           alias ? "into the alias" : "through the buffer", mf);
    /* through the buffer: the application view's first touch of frame 1 (fault-around may map more), none on the
     * alias; into the alias the pread itself faults on every page of the run (16 on 4 KiB pages) */
    if (!alias) CHECK(mf <= 2, "a run through the buffer takes no minor fault on the alias (%ld)", mf);
    CHECK(states(1, 9, QS_CLEAN) && st(9) == QS_RESERVED, "run 1..8 installed, 9 not");
    CHECK(ctr(QS_C_READ_FAULTS) == rf + 1 && ctr(QS_C_READAHEAD) == 7 && ctr(QS_C_BYTES_READ) == by + 8 * FS,
          "one fault, seven frames ahead, eight pages read");
    for (uint64_t i = 2; i < 9; i++)
        for (uint64_t k = 1; k < FS / 8; k += 97) CHECK(rd(i, k) == qs_test_word(i, k), "frame %lu word %lu", (unsigned long)i, (unsigned long)k);
    CHECK(ctr(QS_C_READ_FAULTS) == rf + 1, "the read-ahead frames are readable without a fault");
    CHECK(qs_arena_resident(A) == 11, "resident counts every installed frame (90, 0, 20 and 1..8)");

    /* the end of the file: frames 96..99 hold pages 96..99, 100..103 lie beyond it */
    CHECK(rd(95, 2) == qs_test_word(95, 2) && st(96) == QS_RESERVED, "95 alone");
    CHECK(rd(96, 2) == qs_test_word(96, 2) && states(96, 100, QS_CLEAN) && states(100, 128, QS_RESERVED),
          "never beyond the end of the file");
    uint64_t out[8];
    CHECK(rd(100, 1) == 0 && qs_refusal_take(A, out) == 1 && out[0] == QS_R_IO && out[4] == 100, "beyond EOF: refused IO as before");

    /* a bad checksum in the run: 32..34 installed, 35.. RESERVED; 35 refused on its own fault (CHECKSUM) */
    CHECK(rd(31, 5) == qs_test_word(31, 5), "31 alone");
    CHECK(rd(32, 5) == qs_test_word(32, 5) && states(32, 35, QS_CLEAN) && states(35, 40, QS_RESERVED), "stops before the bad page");
    CHECK(qs_refusal_take(A, out) == 0, "no refusal for a neighbour");
    CHECK(rd(35, 100) == 0 && qs_refusal_take(A, out) == 1 && out[0] == QS_R_CHECKSUM && out[4] == 35, "bad page refused on its own fault");
    CHECK(states(36, 44, QS_RESERVED), "its fault read nothing ahead either");
    CHECK(rd(36, 5) == qs_test_word(36, 5) && st(37) == QS_RESERVED, "after it (refused, not resident): alone");
    CHECK(rd(37, 5) == qs_test_word(37, 5) && states(37, 45, QS_CLEAN) && st(45) == QS_RESERVED, "then a new run");

    /* a frame that is not RESERVED ends the run: 50 resident (loaded alone), fault on 47 loads 47..49 */
    CHECK(qs_arena_set_readahead(A, 0) == 0, "off for the setup");
    CHECK(rd(50, 1) == qs_test_word(50, 1) && st(51) == QS_RESERVED, "50 alone");
    CHECK(qs_arena_set_readahead(A, 8) == 0, "on");
    CHECK(rd(46, 1) == qs_test_word(46, 1) && st(47) == QS_RESERVED, "46 alone");
    CHECK(rd(47, 1) == qs_test_word(47, 1) && states(47, 51, QS_CLEAN) && st(51) == QS_RESERVED, "stops at a resident frame");
    CHECK(rd(50, 7) == qs_test_word(50, 7), "50 untouched");

    /* a frame of another page ends the run: frame 62 re-reserved for page 10 */
    CHECK(qs_release(A, 62, 1) == 1 && qs_reserve(A, 62, 1, (uint32_t)src, 10) == 1, "62 -> page 10");
    CHECK(rd(59, 1) == qs_test_word(59, 1), "59 alone");
    CHECK(rd(60, 1) == qs_test_word(60, 1) && states(60, 62, QS_CLEAN) && st(62) == QS_RESERVED, "stops at another page");
    CHECK(rd(62, 3) == qs_test_word(10, 3) && st(63) == QS_RESERVED, "62 holds page 10 and reads alone (61 holds page 61)");

    /* the pool bound: with room for 3 more frames a fault loads 3 frames and evicts nothing */
    CHECK(rd(69, 1) == qs_test_word(69, 1), "69 alone");
    uint64_t ev = ctr(QS_C_EVICTIONS);
    qs_arena_set_budgets(A, qs_arena_resident(A) + 3, 0);
    CHECK(rd(70, 1) == qs_test_word(70, 1) && states(70, 73, QS_CLEAN) && st(73) == QS_RESERVED, "stops at the pool bound");
    CHECK(ctr(QS_C_EVICTIONS) == ev && ctr(QS_C_OVERCOMMITS) == 0, "read-ahead neither evicts nor overcommits");
    qs_arena_set_budgets(A, 0, 0);

    /* a write fault on a RESERVED frame: it becomes DIRTY, the frames read ahead CLEAN */
    CHECK(rd(79, 1) == qs_test_word(79, 1), "79 alone");
    uint64_t wf = ctr(QS_C_WRITE_FAULTS);
    wr(80, 4, 4242);
    CHECK(st(80) == QS_DIRTY && states(81, 88, QS_CLEAN) && st(88) == QS_RESERVED && ctr(QS_C_WRITE_FAULTS) == wf + 1,
          "write fault: own frame dirty, run clean");
    CHECK(rd(80, 4) == 4242 && rd(80, 5) == qs_test_word(80, 5) && rd(81, 4) == qs_test_word(81, 4), "bytes");
    uint64_t pre[1];
    CHECK(qs_dirty_list(A, 0, pre, 1) == 1 && pre[0] == 80, "only frame 80 dirty");

    /* evicting a read-ahead frame and faulting it again reads it as before */
    CHECK(qs_evict(A, 83, 1, 0) == 1 && st(83) == QS_RESERVED, "evict 83");
    CHECK(rd(83, 9) == qs_test_word(83, 9) && st(83) == QS_CLEAN, "83 again (84 is resident: a run of one)");

    qs_arena_close(A);
}

/* concurrent streams: four threads read their own quarter of the file in page order at once, so a run may find the
 * run buffer held by another and read into the alias; every word of every page is what the file holds (each thread
 * counts the words it found wrong; the main thread checks the counts: CHECK is not for other threads) */
struct quarter { uint64_t lo, hi, bad; };
static void *read_quarter(void *arg) {
    struct quarter *q = arg;
    for (uint64_t i = q->lo; i < q->hi; i++)
        for (uint64_t k = 1; k < FS / 8; k += 61) q->bad += rd(i, k) != qs_test_word(i, k);
    return NULL;
}

static void concurrent(const char *path) {
    for (int round = 0; round < 20; round++) {
        CHECK(qs_arena_open(256ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open");
        int src = qs_source_open_file(A, path, 0);
        CHECK(src >= 0 && qs_reserve(A, 0, 32, (uint32_t)src, 0) == 32, "reserve 0..31");
        CHECK(qs_arena_set_readahead(A, 8) == 0, "on");
        qs_arena_set_txn(A, 1);
        pthread_t t[4];
        struct quarter q[4];
        for (int k = 0; k < 4; k++) {
            q[k] = (struct quarter){(uint64_t)k * 8, (uint64_t)k * 8 + 8, 0};
            CHECK(pthread_create(&t[k], NULL, read_quarter, &q[k]) == 0, "thread");
        }
        for (int k = 0; k < 4; k++) {
            CHECK(pthread_join(t[k], NULL) == 0, "join");
            CHECK(q[k].bad == 0, "round %d: %lu wrong words in frames %lu..%lu", round, (unsigned long)q[k].bad,
                  (unsigned long)q[k].lo, (unsigned long)q[k].hi - 1);
        }
        CHECK(states(0, 32, QS_CLEAN) && qs_arena_resident(A) == 32, "every frame loaded once");
        CHECK(ctr(QS_C_BYTES_READ) == 32 * FS, "every page read once (%lu bytes)",
              (unsigned long)ctr(QS_C_BYTES_READ));
        qs_arena_close(A);
    }
}

int main(void) {
    const char *path = qs_test_file(FS, NPAGES);
    /* page 35: a bad checksum (one byte changed after sealing) */
    int fd = open(path, O_RDWR);
    uint8_t b = 0x5a;
    CHECK(pwrite(fd, &b, 1, 35 * (off_t)FS + 100) == 1, "corrupt page 35");
    close(fd);
    CHECK(qs_signal_install() == 0, "install");
    rules(path, 0);
    rules(path, 1);
    concurrent(path);
    unlink(path);
    printf("test_readahead: %d checks ok\n", qs_checks);
    return 0;
}
