/*
 * qs_diff.c - the commit's byte crunching: the changed byte ranges of a page against its pre-image, the diff a commit
 * logs (White and DeWitt 1994, section 3.6: a page's copy in the recovery buffer is compared with the page, and the
 * changed regions are logged), and the move search's scan for bytes an insertion or deletion shifted inside the page
 * (store-core's MoveSearch.findMove: its Java loop is the reference; qs_move_find below). In C so that a commit's cost
 * per page is the memory it compares from a process's first commit on (docs/results.md, "The commit's diff and move
 * search in C": the Java loops paid a segment check per word, and the JIT deoptimized them and ran them in C1 code
 * during the warm-up).
 *
 * Diff contract (store-core's PageDiff.diff, which calls qs_page_diff and documents it; its Java loop is the
 * reference implementation, and PageDiffNativeTest checks the two agree):
 *   - ranges are [start, end) byte offsets, ascending; every range starts and ends on a changed byte;
 *   - changed bytes separated by at most max_gap equal bytes are in one range (QuickStore's merge rule);
 *   - words are the 8-byte words at offsets 0, 8, 16, ... of the buffers; the bytes after the last whole
 *     word are compared one by one;
 *   - stop_at (max_gap >= 6 only): after a changed word, when the open range spans stop_at bytes or more, it
 *     is closed at that word's last changed byte and the diff stops ("partial"); PageDiff's move search
 *     takes such a diff over;
 *   - out receives up to cap (start, end) pairs of int32; the return value is 2 * count + partial, where
 *     count is the number of ranges found even when it exceeds cap (the caller grows out and calls again).
 * Move scan contract (MoveSearch.findMove documents the search; qs_move_find is its scan from the anchors the Java
 * side chooses, with its constants passed in): best receives (src, dst, length) of the longest run, extended
 * backwards down to floor; the return value is 1 when the run is at least min_move bytes.
 * [signal-safe]: pure computation over the caller's memory; never called from the fault path.
 */
#include "qs_api.h"
#include "qs_export.h"

#include <emmintrin.h>
#include <string.h>

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The offset of the first byte in [i, n) where a and b differ, or n: 64 bytes per SSE2 step while they last. */
static int64_t next_difference(const uint8_t *b, const uint8_t *a, int64_t i, int64_t n) {
    for (; i + 64 <= n; i += 64) {
        __m128i e0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + i)), _mm_loadu_si128((const __m128i *)(a + i)));
        __m128i e1 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + i + 16)),
                                    _mm_loadu_si128((const __m128i *)(a + i + 16)));
        __m128i e2 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + i + 32)),
                                    _mm_loadu_si128((const __m128i *)(a + i + 32)));
        __m128i e3 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + i + 48)),
                                    _mm_loadu_si128((const __m128i *)(a + i + 48)));
        __m128i all = _mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3));
        if (_mm_movemask_epi8(all) != 0xffff) {
            uint64_t ne = (uint64_t)(~_mm_movemask_epi8(e0) & 0xffff) | (uint64_t)(~_mm_movemask_epi8(e1) & 0xffff) << 16
                          | (uint64_t)(~_mm_movemask_epi8(e2) & 0xffff) << 32
                          | (uint64_t)(~_mm_movemask_epi8(e3) & 0xffff) << 48;
            return i + __builtin_ctzll(ne);
        }
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t x = load64(b + i) ^ load64(a + i);
        if (x) return i + (__builtin_ctzll(x) >> 3);
    }
    for (; i < n; i++)
        if (b[i] != a[i]) return i;
    return n;
}

/* equal words compared one by one before SSE2 looks for the next difference (PageDiff.SKIP_AFTER_EQUAL_WORDS) */
#define SKIP_AFTER_EQUAL_WORDS 4
#define LOW7 0x7f7f7f7f7f7f7f7full
#define HIGH 0x8080808080808080ull

struct out {
    int32_t *p;
    int64_t cap, count;
};

static inline void emit(struct out *o, int64_t start, int64_t end) {
    if (o->count < o->cap) {
        o->p[2 * o->count] = (int32_t)start;
        o->p[2 * o->count + 1] = (int32_t)end;
    }
    o->count++;
}

/* Bit k set iff byte k of the 64 at b and a differs. */
static inline uint64_t changed_mask64(const uint8_t *b, const uint8_t *a) {
    __m128i e0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)b), _mm_loadu_si128((const __m128i *)a));
    __m128i e1 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + 16)), _mm_loadu_si128((const __m128i *)(a + 16)));
    __m128i e2 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + 32)), _mm_loadu_si128((const __m128i *)(a + 32)));
    __m128i e3 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + 48)), _mm_loadu_si128((const __m128i *)(a + 48)));
    if (_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3))) == 0xffff) return 0;
    return ~((uint64_t)(_mm_movemask_epi8(e0) & 0xffff) | (uint64_t)(_mm_movemask_epi8(e1) & 0xffff) << 16
             | (uint64_t)(_mm_movemask_epi8(e2) & 0xffff) << 32 | (uint64_t)(_mm_movemask_epi8(e3) & 0xffff) << 48);
}

/* Bit k set iff bits k .. k + len - 1 of z are all set (bits past 63 count as clear); 1 <= len <= 64. */
static inline uint64_t runs_of(uint64_t z, int len) {
    uint64_t r = z;
    int k = 1;
    while (2 * k <= len) {
        r &= r >> k;
        k *= 2;
    }
    if (k < len) r &= r >> (len - k);
    return r;
}

/* Every bit k + j of each set bit k, 0 <= j < len (within the word); 1 <= len <= 64. */
static inline uint64_t smear(uint64_t x, int len) {
    uint64_t r = x;
    int k = 1;
    while (2 * k <= len) {
        r |= r << k;
        k *= 2;
    }
    if (k < len) r |= r << (len - k);
    return r;
}

/*
 * The 64 bytes at offset i by the byte-wise rule (docs/results.md, "A dense page diffed a block at a time"): one
 * mask of their changed bytes; the runs of more than max_gap equal bytes between two changed bytes split it into
 * ranges, the first of which joins the open range when the gap from last_end to it is at most max_gap. Per block
 * this is a few mask operations plus one step per range that starts in it, where the word loop paid a
 * data-dependent branch per word (3.7 us for a new page against zeros in bench_diff.c). The caller leaves a block
 * to the word loop when a range could reach stop_at in it (the stop is defined by words).
 */
static inline __attribute__((always_inline)) void diff_block(uint64_t m, int64_t i, int32_t max_gap, int64_t *start,
                                                             int64_t *last_end, struct out *o) {
    int lo = __builtin_ctzll(m), hi = 63 - __builtin_clzll(m);
    uint64_t inside = (~0ull << lo) & (hi == 63 ? ~0ull : (2ull << hi) - 1);
    uint64_t gaps = max_gap < 63 ? runs_of(~m & inside, max_gap + 1) : 0;
    if (gaps == 0) { /* one range's part: a dense block the open range goes on through, or a sparse change */
        if (*start >= 0 && i + lo - *last_end > max_gap) {
            emit(o, *start, *last_end);
            *start = -1;
        }
        if (*start < 0) *start = i + lo;
        *last_end = i + hi + 1;
        return;
    }
    uint64_t keep = inside & ~smear(gaps, max_gap + 1);
    while (keep) { /* each run of keep is one range's part in this block; runs are separated by long gaps */
        int p = __builtin_ctzll(keep);
        uint64_t t = ~(keep >> p);
        int len = t == 0 ? 64 - p : __builtin_ctzll(t);
        if (*start >= 0 && i + p - *last_end > max_gap) {
            emit(o, *start, *last_end);
            *start = -1;
        }
        if (*start < 0) *start = i + p;
        *last_end = i + p + len;
        keep = p + len >= 64 ? 0 : keep & (~0ull << (p + len));
    }
}

QS_EXPORT int64_t qs_page_diff(const void *before, const void *after, int64_t n, int32_t max_gap, int64_t stop_at,
                               int32_t *out, int32_t cap) {
    const uint8_t *b = before, *a = after;
    struct out o = {out, cap < 0 ? 0 : cap, 0};
    int64_t start = -1, last_end = -1; /* the open range [start, last_end) ends on a changed byte */
    int64_t words = n & ~(int64_t)7;   /* bytes in whole words; the rest is the byte-wise tail */
    int64_t i = 0;
    int equal_words = 0;
    int64_t words_until = 0; /* the word loop's part: blocks below this offset go word by word */
    while (i < words) {
        if (i >= words_until && i + 64 <= words) {
            if (max_gap < 6 || (start >= 0 ? i + 64 - start : 64) < stop_at) {
                uint64_t m = changed_mask64(b + i, a + i);
                if (m == 0) { /* a sparse page: SSE2 finds the next difference without the block's bookkeeping */
                    int64_t d = next_difference(b, a, i + 64, words);
                    if (d >= words) break;
                    i = d & ~(int64_t)7;
                    continue;
                } else if (max_gap == 7) { /* commit's gap (PageDiff.mergeGap(1)): the mask steps as constants */
                    diff_block(m, i, 7, &start, &last_end, &o);
                } else {
                    diff_block(m, i, max_gap, &start, &last_end, &o);
                }
                i += 64;
                continue;
            }
            words_until = i + 64; /* a range may reach stop_at in this block: the word loop decides where */
            equal_words = 0;
        }
        uint64_t x = load64(b + i) ^ load64(a + i);
        if (x == 0) {
            i += 8;
            /* a dense page goes word by word; after a few equal words, SSE2 finds the next difference */
            if (++equal_words >= SKIP_AFTER_EQUAL_WORDS && i < words) {
                int64_t d = next_difference(b, a, i, words);
                if (d >= words) break;
                i = d & ~(int64_t)7; /* the word holding the difference (offsets stay multiples of 8) */
                equal_words = 0;
            }
            continue;
        }
        equal_words = 0;
        int64_t first = i + (__builtin_ctzll(x) >> 3);
        if (max_gap >= 6) {
            /* gaps inside one word are at most 6 bytes: all of its changed bytes merge */
            if (!(start >= 0 && first - last_end <= max_gap)) {
                if (start >= 0) emit(&o, start, last_end);
                start = first;
            }
            last_end = i + ((63 - __builtin_clzll(x)) >> 3) + 1;
            if (last_end - start >= stop_at) {
                emit(&o, start, last_end);
                return 2 * o.count + 1;
            }
        } else {
            /* the high bit of each byte of nz is set iff that byte differs */
            uint64_t nz = (((x & LOW7) + LOW7) | x) & HIGH;
            for (; nz; nz &= nz - 1) {
                int64_t pos = i + (__builtin_ctzll(nz) >> 3);
                if (start < 0) {
                    start = pos;
                } else if (pos - last_end > max_gap) {
                    emit(&o, start, last_end);
                    start = pos;
                }
                last_end = pos + 1;
            }
        }
        i += 8;
    }
    for (i = words; i < n; i++) { /* tail shorter than a word */
        if (b[i] != a[i]) {
            if (start >= 0 && i - last_end > max_gap) {
                emit(&o, start, last_end);
                start = -1;
            }
            if (start < 0) start = i;
            last_end = i + 1;
        }
    }
    if (start >= 0) emit(&o, start, last_end);
    return 2 * o.count;
}

/* ---- the move search's candidate scan (store-core's MoveSearch.findMove; its Java loop is the reference) ---- */

/* The first position from a (within 512 bytes) whose eight bytes are not one byte repeated, or a. */
static int64_t informative(const uint8_t *s, int64_t a, int64_t n) {
    for (int64_t p = a; p + 8 <= n && p < a + 512; p += 8) {
        uint64_t v = load64(s + p);
        if (v != (v & 0xff) * 0x0101010101010101ull) return p;
    }
    return a;
}

/* Length of the run where b[bi ...] equals a[ai ...], at most max. */
static int64_t run_length(const uint8_t *a, int64_t ai, const uint8_t *b, int64_t bi, int64_t max) {
    return next_difference(a + ai, b + bi, 0, max);
}

/* The run of fwd bytes where after[d ...] equals before[s ...], extended backwards while bytes agree (not below
 * floor); kept in best (src, dst, length) if longer. */
static void consider(const uint8_t *before, int64_t s, const uint8_t *after, int64_t d, int32_t floor, int64_t fwd,
                     int64_t *best) {
    int64_t lim = (s < d ? s : d) - floor;
    int64_t back = 0;
    while (back + 64 <= lim && memcmp(before + s - back - 64, after + d - back - 64, 64) == 0) back += 64;
    while (back + 8 <= lim && load64(before + s - back - 8) == load64(after + d - back - 8)) back += 8;
    while (back < lim && before[s - back - 1] == after[d - back - 1]) back++;
    if (back + fwd > best[2]) {
        best[0] = s - back;
        best[1] = d - back;
        best[2] = back + fwd;
    }
}

QS_EXPORT int32_t qs_move_find(const void *before_p, const void *after_p, int64_t n, int32_t floor,
                               const int32_t *anchors, int32_t count, int32_t near_shift, int32_t max_shift,
                               int32_t min_move, int32_t max_candidates, int64_t *best) {
    const uint8_t *before = before_p, *after = after_p;
    int64_t word_at[4];
    uint64_t word[4];
    int searches = 2 * (count < 0 ? 0 : count > 2 ? 2 : count);
    best[0] = best[1] = best[2] = 0;
    /* per anchor and direction, the informative word the search compares (found once for both passes) */
    for (int t = 0; t < searches; t++) {
        const uint8_t *fixed = (t & 1) == 0 ? before : after;
        int64_t a = informative(fixed, anchors[t >> 1], n);
        uint64_t v = a < floor || a + 8 > n ? 0 : load64(fixed + a);
        word_at[t] = v == (v & 0xff) * 0x0101010101010101ull ? -1 : a;
        word[t] = v;
    }
    /* near distances first, all of them only when those found nothing */
    for (int64_t reach = near_shift; best[2] < min_move && reach <= max_shift; reach *= max_shift / near_shift) {
        for (int t = 0; t < searches; t++) {
            /* insertion (t even): after[a + k ...] == before[a ...]; deletion: after[a ...] == before[a + k ...] */
            int insertion = (t & 1) == 0;
            const uint8_t *fixed = insertion ? before : after;
            const uint8_t *sliding = insertion ? after : before;
            int64_t a = word_at[t];
            if (a < 0) continue;
            uint64_t v = word[t];
            int64_t last = reach < n - 8 - a ? reach : n - 8 - a;
            int64_t from = reach == near_shift ? 0 : near_shift;
            if (from >= last) continue;
            /* w = sliding[a + 1 + w]: distances from + 1 .. last read w in [from, last + 7) */
            const uint8_t *w = sliding + a + 1;
            int64_t lo = a + 1 + from, hi = a + 1 + last + 7;
            if (next_difference(sliding + lo, sliding + lo + 1, 0, hi - 1 - lo) == hi - 1 - lo)
                continue; /* one byte repeated (free space): no distance shows the informative word */
            uint64_t first = (v & 0xff) * 0x0101010101010101ull;
            int candidates = 0;
            int64_t best_k = 0, best_run = 0;
            int done = 0;
            for (int64_t j = from; j < last && !done; j += 8) {
                /* distances j + 1 .. j + 8 at once: the bytes equal to the anchor's first byte, then the whole eight
                 * bytes at those distances only */
                uint64_t x = load64(w + j) ^ first;
                uint64_t eq = ~(((x & LOW7) + LOW7) | x) & HIGH;
                for (; eq; eq &= eq - 1) {
                    int64_t k = j + (__builtin_ctzll(eq) >> 3) + 1;
                    if (k > last) {
                        done = 1;
                        break;
                    }
                    if (load64(w + k - 1) != v) continue;
                    int64_t len = run_length(fixed, a, sliding, a + k, n - a - k);
                    if (len > best_run) {
                        best_run = len;
                        best_k = k;
                    }
                    if (len == n - a - k || ++candidates == max_candidates) {
                        done = 1; /* to the page's end: a larger distance gives a shorter run */
                        break;
                    }
                }
            }
            /* backwards once, for the longest run of this anchor and direction, unless it is the move an earlier
             * anchor found (the middle anchor inside the run the start anchor measured: same shift, same end) */
            int64_t src = insertion ? a : a + best_k;
            if (best_run >= 8
                && !(best[2] > 0 && best[1] - best[0] == (insertion ? best_k : -best_k)
                     && best[0] + best[2] == src + best_run)) {
                if (insertion)
                    consider(before, a, after, a + best_k, floor, best_run, best);
                else
                    consider(before, a + best_k, after, a, floor, best_run, best);
            }
        }
    }
    return best[2] >= min_move;
}
