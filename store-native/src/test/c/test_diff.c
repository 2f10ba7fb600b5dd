/* test_diff.c - qs_page_diff against a byte-by-byte model: the same ranges for random pages of every density
 * (one changed byte to every byte), lengths 0..300 and 8 KiB, offsets 0..7 of the buffers, merge gaps 0..13; an
 * output array too small reports the full count; a stop after a long range (max_gap >= 6) cuts at the word's
 * last changed byte, as a word-by-word model of the stop says for pages whose ranges start and split at every offset
 * of a 64-byte block. (PageDiffNativeTest checks the same function against store-core's Java loop.) */
#include "qs_test.h"

#include <stdint.h>

static uint64_t s = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { return qs_test_rnd(&s); }

/* The models' ranges: the open one is [start, last_end) (start -1: none), the closed ones in out. */
struct model_ranges {
    int32_t *out;
    int64_t count, start, last_end;
};

static void close_open_range(struct model_ranges *m) {
    m->out[2 * m->count] = (int32_t)m->start;
    m->out[2 * m->count + 1] = (int32_t)m->last_end;
    m->count++;
    m->start = -1;
}

/* Changed bytes [first, last] join the open range when first is at most max_gap after its end. */
static void changed(struct model_ranges *m, int64_t first, int64_t last, int32_t max_gap) {
    if (m->start >= 0 && first - m->last_end > max_gap) close_open_range(m);
    if (m->start < 0) m->start = first;
    m->last_end = last + 1;
}

/* The model: changed bytes whose gap of equal bytes is at most max_gap share a range. */
static int64_t model(const uint8_t *b, const uint8_t *a, int64_t n, int32_t max_gap, int32_t *out) {
    struct model_ranges m = {out, 0, -1, -1};
    for (int64_t i = 0; i < n; i++)
        if (b[i] != a[i]) changed(&m, i, i, max_gap);
    if (m.start >= 0) close_open_range(&m);
    return m.count;
}

/* The word rule of a stop (max_gap >= 6): a word's changed bytes join the open range when its first is at most max_gap
 * after the range's end; after each changed word, a range of stop_at bytes or more is closed there and the diff stops.
 * Returns 2 * count + partial, as qs_page_diff does. */
static int64_t model_stop(const uint8_t *b, const uint8_t *a, int64_t n, int32_t max_gap, int64_t stop_at,
                          int32_t *out) {
    struct model_ranges m = {out, 0, -1, -1};
    int64_t words = n & ~(int64_t)7;
    for (int64_t w = 0; w < words; w += 8) {
        int64_t first = -1, last = -1;
        for (int64_t i = w; i < w + 8; i++)
            if (b[i] != a[i]) {
                if (first < 0) first = i;
                last = i;
            }
        if (first < 0) continue;
        changed(&m, first, last, max_gap);
        if (m.last_end - m.start >= stop_at) {
            close_open_range(&m);
            return 2 * m.count + 1;
        }
    }
    for (int64_t i = words; i < n; i++)
        if (b[i] != a[i]) changed(&m, i, i, max_gap);
    if (m.start >= 0) close_open_range(&m);
    return 2 * m.count;
}

static uint8_t before[8192 + 16], after[8192 + 16];
static int32_t got[8192 + 8], want[8192 + 8];

static void one(int64_t n, int off, int32_t gap, int density) {
    for (int64_t i = 0; i < n + 8; i++) before[i] = after[i] = (uint8_t)rnd();
    for (int64_t i = 0; i < n; i++)
        if ((int)(rnd() % 1000) < density) after[off + i] ^= (uint8_t)(1 + rnd() % 255);
    int64_t w = model(before + off, after + off, n, gap, want);
    int64_t r = qs_page_diff(before + off, after + off, n, gap, INT64_MAX, got, 8192 / 2 + 4);
    CHECK((r & 1) == 0, "n %ld gap %d: no stop asked, none reported", (long)n, gap);
    CHECK(r / 2 == w, "n %ld off %d gap %d density %d: %ld ranges, the model %ld", (long)n, off, gap, density,
          (long)(r / 2), (long)w);
    for (int64_t k = 0; k < 2 * w; k++)
        CHECK(got[k] == want[k], "n %ld off %d gap %d density %d: bound %ld is %d, the model %d", (long)n, off, gap,
              density, (long)k, got[k], want[k]);
}

/* Runs of changed bytes separated by gaps of max_gap - 1 .. max_gap + 2 equal bytes, so that ranges start, merge and
 * split at every offset of the 64-byte blocks qs_page_diff reads dense stretches by; checked against both models. */
static void gaps(int off, int32_t gap, int64_t stop_at) {
    for (int i = 0; i < 8192 + 8; i++) before[i] = after[i] = (uint8_t)rnd();
    for (int i = (int)(rnd() % 64); i < 8192;) {
        int run = 1 + (int)(rnd() % 40);
        for (int k = i; k < i + run && k < 8192; k++) after[off + k] ^= (uint8_t)(1 + rnd() % 255);
        i += run + gap - 1 + (int)(rnd() % 4);
    }
    int64_t r = qs_page_diff(before + off, after + off, 8192, gap, stop_at, got, 8192 / 2 + 4);
    int64_t w = stop_at == INT64_MAX ? 2 * model(before + off, after + off, 8192, gap, want)
                                     : model_stop(before + off, after + off, 8192, gap, stop_at, want);
    CHECK(r == w, "gaps near %d, off %d, stop %ld: returned %ld, the model %ld", gap, off, (long)stop_at, (long)r,
          (long)w);
    for (int64_t k = 0; k < (w & ~1ll) && r == w; k++)
        CHECK(got[k] == want[k], "gaps near %d, off %d, stop %ld: bound %ld is %d, the model %d", gap, off,
              (long)stop_at, (long)k, got[k], want[k]);
}

int main(void) {
    static const int densities[] = {0, 1, 5, 30, 200, 600, 1000};
    for (int k = 0; k < 600; k++) gaps(k % 8, k % 14, INT64_MAX);
    static const int64_t stops[] = {8, 60, 64, 100, 256, 1000};
    for (int k = 0; k < 600; k++) gaps(k % 8, 6 + k % 8, stops[k % 6]);
    /* a stop in a dense page: every byte changed but one in every 50, with stop_at past several blocks */
    for (int k = 0; k < 60; k++) {
        for (int i = 0; i < 8192 + 8; i++) before[i] = after[i] = (uint8_t)rnd();
        for (int i = 0; i < 8192; i++)
            if (i % 50) after[i] ^= 0x5a;
        int64_t stop = 64 + 37 * k;
        int64_t r = qs_page_diff(before, after, 8192, 7, stop, got, 16);
        int64_t w = model_stop(before, after, 8192, 7, stop, want);
        CHECK(r == w && got[0] == want[0] && got[1] == want[1], "dense stop %ld: %ld [%d, %d), the model %ld [%d, %d)",
              (long)stop, (long)r, got[0], got[1], (long)w, want[0], want[1]);
    }
    for (int64_t n = 0; n <= 300; n++)
        for (int32_t gap = 0; gap <= 13; gap++)
            one(n, (int)(n % 8), gap, densities[(n + gap) % 7]);
    for (int k = 0; k < 400; k++) one(8192, k % 8, k % 14, densities[k % 7]);

    /* a change in the last 8 bytes of every 64: one SSE2 step finds each */
    memset(before, 0, 8192);
    memset(after, 0, 8192);
    for (int i = 56; i < 8192; i += 64) after[i + 7] = 1;
    got[8] = got[9] = -7; /* nothing is written past the capacity */
    int64_t r = qs_page_diff(before, after, 8192, 12, INT64_MAX, got, 4);
    CHECK(r == 2 * 128, "128 ranges counted past a capacity of 4: %ld", (long)r);
    CHECK(got[8] == -7 && got[9] == -7, "written past the capacity: %d %d", got[8], got[9]);
    CHECK(got[0] == 63 && got[1] == 64 && got[6] == 255 && got[7] == 256, "the first four written: %d %d %d %d",
          got[0], got[1], got[6], got[7]);

    /* stop: bytes 100..1099 changed; with stop_at 256 the range closes at the end of the word where it reaches
     * 256 bytes (start 100, word 352..359: end 360) and the diff is partial */
    memset(after, 0, 8192);
    for (int i = 100; i < 1100; i++) after[i] = 7;
    r = qs_page_diff(before, after, 8192, 12, 256, got, 16);
    CHECK(r == 2 * 1 + 1, "partial with one range: %ld", (long)r);
    CHECK(got[0] == 100 && got[1] == 360, "cut at the word: [%d, %d)", got[0], got[1]);
    /* a range of exactly stop_at bytes at the end of a word stops there: bytes 8..999 changed */
    memset(after, 0, 8192);
    for (int i = 8; i < 1000; i++) after[i] = 7;
    r = qs_page_diff(before, after, 8192, 12, 256, got, 16);
    CHECK(r == 2 * 1 + 1 && got[0] == 8 && got[1] == 264, "stop at 256 bytes: %ld [%d, %d)", (long)r, got[0], got[1]);
    r = qs_page_diff(before, after, 8192, 12, 248, got, 16);
    CHECK(r == 2 * 1 + 1 && got[0] == 8 && got[1] == 256, "stop at 248 bytes: %ld [%d, %d)", (long)r, got[0], got[1]);
    memset(after, 0, 8192);
    for (int i = 100; i < 1100; i++) after[i] = 7;
    r = qs_page_diff(before, after, 8192, 3, 256, got, 16);
    CHECK(r == 2 * 1 && got[0] == 100 && got[1] == 1100, "no stop below a gap of 6: %ld [%d, %d)", (long)r, got[0],
          got[1]);
    r = qs_page_diff(before, before, 8192, 12, 256, got, 16);
    CHECK(r == 0, "equal pages: %ld", (long)r);
    /* the move scan: an insertion of 40 bytes at 1000 into a page of random bytes is found whole, from an anchor at
     * the insertion (src 1000, dst 1040, the rest of the page) */
    for (int i = 0; i < 8192; i++) before[i] = (uint8_t)rnd();
    memcpy(after, before, 1000);
    memcpy(after + 1040, before + 1000, 8192 - 1040);
    for (int i = 1000; i < 1040; i++) after[i] = (uint8_t)rnd();
    int32_t anchors[2] = {1000, 1500};
    int64_t best[3];
    CHECK(qs_move_find(before, after, 8192, 32, anchors, 2, 128, 1024, 256, 8, best) == 1, "the insertion is found");
    CHECK(best[0] == 1000 && best[1] == 1040 && best[2] == 8192 - 1040, "src %ld dst %ld length %ld", (long)best[0],
          (long)best[1], (long)best[2]);
    /* at most max_candidates distances are measured: the informative word at the anchor (2000) appears in after at
     * nine distances, and only the ninth begins a long run; with 8 candidates no move, with 9 the move */
    for (int i = 0; i < 8192; i++) before[i] = after[i] = (uint8_t)rnd();
    for (int c = 1; c <= 9; c++) memcpy(after + 2000 + 10 * c, before + 2000, 8);
    memcpy(after + 2090, before + 2000, 600); /* the ninth: 600 bytes moved by 90 */
    anchors[0] = 2000;
    CHECK(qs_move_find(before, after, 8192, 32, anchors, 1, 128, 1024, 256, 8, best) == 0,
          "8 candidates: none long enough (best length %ld)", (long)best[2]);
    CHECK(qs_move_find(before, after, 8192, 32, anchors, 1, 128, 1024, 256, 9, best) == 1 && best[1] - best[0] == 90,
          "9 candidates: the run moved by 90 (src %ld dst %ld length %ld)", (long)best[0], (long)best[1], (long)best[2]);
    /* no move reads or writes below the floor: 16 bytes inserted at 24, below a floor of 32; the anchor at 24 is not
     * searched from, the middle one finds the shift, and its run stops at the floor */
    for (int i = 0; i < 8192; i++) before[i] = (uint8_t)rnd();
    memcpy(after, before, 24);
    for (int i = 24; i < 40; i++) after[i] = (uint8_t)rnd();
    memcpy(after + 40, before + 24, 8192 - 40);
    anchors[0] = 24;
    anchors[1] = 4000;
    CHECK(qs_move_find(before, after, 8192, 32, anchors, 2, 128, 1024, 256, 8, best) == 1, "the shift is found");
    CHECK(best[0] == 32 && best[1] == 48 && best[2] == 8192 - 48, "from the floor on: src %ld dst %ld length %ld",
          (long)best[0], (long)best[1], (long)best[2]);
    printf("test_diff: %d checks\n", qs_checks);
    return 0;
}
