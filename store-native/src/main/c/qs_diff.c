/*
 * qs_diff.c - the changed byte ranges of a page against its pre-image: the diff a commit logs (White and
 * DeWitt 1994, section 3.6: "the diff of the page against its copy"), in C so that a commit's cost per page is
 * the memory it compares from the first commit of a process on (docs/results.md, "The commit's diff in C": the
 * Java loop deoptimized and ran in C1 code for seconds, and paid a segment check per word).
 *
 * Contract (store-core's PageDiff.diff, which calls this and documents it; its Java loop is the reference
 * implementation, and PageDiffNativeTest checks the two agree):
 *   - ranges are [start, end) byte offsets, ascending; every range starts and ends on a changed byte;
 *   - changed bytes separated by at most max_gap equal bytes are in one range (QuickStore's merge rule);
 *   - words are the 8-byte words at offsets 0, 8, 16, ... of the buffers; the bytes after the last whole
 *     word are compared one by one;
 *   - stop_at (max_gap >= 6 only): after a changed word, when the open range spans stop_at bytes or more, it
 *     is closed at that word's last changed byte and the diff stops ("partial"); PageDiff's move search
 *     takes such a diff over;
 *   - out receives up to cap (start, end) pairs of int32; the return value is 2 * count + partial, where
 *     count is the number of ranges found even when it exceeds cap (the caller grows out and calls again).
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

QS_EXPORT int64_t qs_page_diff(const void *before, const void *after, int64_t n, int32_t max_gap, int64_t stop_at,
                               int32_t *out, int32_t cap) {
    const uint8_t *b = before, *a = after;
    struct out o = {out, cap < 0 ? 0 : cap, 0};
    int64_t start = -1, last_end = -1; /* the open range [start, last_end) ends on a changed byte */
    int64_t words = n & ~(int64_t)7;   /* bytes in whole words; the rest is the byte-wise tail */
    int64_t i = 0;
    while (i < words) {
        int64_t d = next_difference(b, a, i, words);
        if (d >= words) break;
        i = d & ~(int64_t)7; /* the word holding the difference (offsets stay multiples of 8) */
        uint64_t x = load64(b + i) ^ load64(a + i);
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
