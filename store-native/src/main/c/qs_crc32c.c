/*
 * qs_crc32c.c - CRC32C (Castagnoli, reflected polynomial 0x82F63B78), identical to
 * java.util.zip.CRC32C, and the page checksum contract shared with store-core (docs/native.md):
 *
 *   every page starts with a little-endian uint32 at bytes 0..3 = CRC32C of bytes 4..pageSize-1;
 *   a page whose checksum word is 0 and whose other bytes are all zero is "never written" (valid).
 *
 * Three implementations, chosen at run time (__builtin_cpu_supports; only the functions that use
 * them are compiled for sse4.2 / pclmul):
 *  - crc_hw3: SSE4.2 crc32q on three independent streams, then combined with one carry-less
 *    multiply per stream (needs sse4.2 and pclmul). crc32q has a latency of 3 cycles and a
 *    throughput of 1 per cycle, so one stream uses a third of the unit; three streams fill it;
 *  - crc_hw: SSE4.2 crc32q on one stream (sse4.2 without pclmul, and the tails of crc_hw3);
 *  - crc_table: slicing-by-8 table, everywhere else.
 * All three produce the same register value (tests/test_crc32c.c checks them against each other on
 * random lengths and alignments, and Crc32cTest against java.util.zip.CRC32C).
 * [signal-safe]: pure computation; the dispatch and the shift constants are set up in a constructor
 * before any fault.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <nmmintrin.h>
#include <wmmintrin.h>
#include <string.h>

#define POLY 0x82F63B78u /* CRC32C, reflected */

static uint32_t table[8][256];
static int have_sse42, have_clmul;

/* ---- shifting a CRC register over zero bytes: multiplication mod P (reflected; x^0 = 1 << 31) --- */
static uint32_t multmodp(uint32_t a, uint32_t b) {
    uint32_t m = 1u << 31, p = 0;
    for (;;) {
        if (a & m) {
            p ^= b;
            if ((a & (m - 1)) == 0) break;
        }
        m >>= 1;
        b = b & 1 ? (b >> 1) ^ POLY : b >> 1;
    }
    return p;
}
/* x^n mod P */
static uint32_t xnmodp(uint64_t n) {
    uint32_t r = 1u << 31, sq = 1u << 30; /* r = x^0, sq = x^(2^k) starting at x^1 */
    while (n) {
        if (n & 1) r = multmodp(sq, r);
        sq = multmodp(sq, sq);
        n >>= 1;
    }
    return r;
}

/* Stream lengths of crc_hw3 (bytes, multiples of 8): a round covers 3 * BLK bytes. LONG fits an 8 KiB
 * page minus its 4-byte header in one round (3 * 2728 = 8184); SHORT takes the rest of larger or
 * smaller buffers. */
#define BLK_LONG 2728u
#define BLK_SHORT 336u
static uint32_t k_long, k_short; /* x^(8*BLK - 33) mod P: see shift_clmul */

__attribute__((constructor)) static void crc_init(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++)
        for (int t = 1; t < 8; t++) table[t][n] = (table[t - 1][n] >> 8) ^ table[0][table[t - 1][n] & 0xff];
    __builtin_cpu_init();
    have_sse42 = __builtin_cpu_supports("sse4.2");
    have_clmul = have_sse42 && __builtin_cpu_supports("pclmul");
    k_long = xnmodp(8ull * BLK_LONG - 33);
    k_short = xnmodp(8ull * BLK_SHORT - 33);
}

static uint32_t crc_table(uint32_t crc, const uint8_t *p, size_t n) {
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        v ^= crc;
        crc = table[7][v & 0xff] ^ table[6][(v >> 8) & 0xff] ^ table[5][(v >> 16) & 0xff] ^
              table[4][(v >> 24) & 0xff] ^ table[3][(v >> 32) & 0xff] ^ table[2][(v >> 40) & 0xff] ^
              table[1][(v >> 48) & 0xff] ^ table[0][v >> 56];
        p += 8;
        n -= 8;
    }
    while (n--) crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
    return crc;
}

__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t crc, const uint8_t *p, size_t n) {
    uint64_t c = crc;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
        p += 8;
        n -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (n--) c32 = _mm_crc32_u8(c32, *p++);
    return c32;
}

/* Register c advanced over BLK zero bytes, i.e. c * x^(8*BLK) mod P, given k = x^(8*BLK-33) mod P.
 * The carry-less product of two reflected 32-bit values, read as a reflected 64-bit value, is
 * c * k * x; crc32q of it with a zero register multiplies by x^32 and reduces mod P. */
__attribute__((target("sse4.2,pclmul"))) static inline uint32_t shift_clmul(uint32_t c, uint32_t k) {
    __m128i prod = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)c), _mm_cvtsi32_si128((int)k), 0);
    return (uint32_t)_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(prod));
}

/* One round: three streams of blk bytes each, combined: crc(A|B|C) = shift(shift(a)^b)^c. */
__attribute__((target("sse4.2,pclmul"))) static inline uint32_t round3(uint32_t crc, const uint8_t *p, size_t blk,
                                                                      uint32_t k) {
    uint64_t c0 = crc, c1 = 0, c2 = 0;
    const uint8_t *end = p + blk;
    while (p < end) {
        uint64_t v0, v1, v2;
        memcpy(&v0, p, 8);
        memcpy(&v1, p + blk, 8);
        memcpy(&v2, p + 2 * blk, 8);
        c0 = _mm_crc32_u64(c0, v0);
        c1 = _mm_crc32_u64(c1, v1);
        c2 = _mm_crc32_u64(c2, v2);
        p += 8;
    }
    return shift_clmul(shift_clmul((uint32_t)c0, k) ^ (uint32_t)c1, k) ^ (uint32_t)c2;
}

__attribute__((target("sse4.2,pclmul"))) static uint32_t crc_hw3(uint32_t crc, const uint8_t *p, size_t n) {
    while (n >= 3 * BLK_LONG) {
        crc = round3(crc, p, BLK_LONG, k_long);
        p += 3 * BLK_LONG;
        n -= 3 * BLK_LONG;
    }
    while (n >= 3 * BLK_SHORT) {
        crc = round3(crc, p, BLK_SHORT, k_short);
        p += 3 * BLK_SHORT;
        n -= 3 * BLK_SHORT;
    }
    return crc_hw(crc, p, n);
}

/* Raw update (no pre/post inversion). */
uint32_t qs_crc32c_update(uint32_t crc, const void *p, size_t n) {
    if (have_clmul) return crc_hw3(crc, p, n);
    return have_sse42 ? crc_hw(crc, p, n) : crc_table(crc, p, n);
}

/* For tests and benchmarks: 0 = the table implementation, 1 = the default dispatch, 2 = SSE4.2 on one
 * stream. An implementation the CPU lacks falls back to the next simpler one. */
QS_EXPORT uint32_t qs_crc32c_impl(const void *p, uint64_t n, int impl) {
    if (impl == 1) return ~qs_crc32c_update(~0u, p, n);
    if (impl == 2 && have_sse42) return ~crc_hw(~0u, p, n);
    return ~crc_table(~0u, p, n);
}
/* 0 = table only, 1 = SSE4.2 (one stream), 2 = SSE4.2 + PCLMUL (three streams). */
QS_EXPORT int qs_crc32c_has_hw(void) { return have_clmul ? 2 : have_sse42; }

/* CRC32C of p[0..n), as java.util.zip.CRC32C computes it. */
QS_EXPORT uint32_t qs_crc32c(const void *p, uint64_t n) { return ~qs_crc32c_update(~0u, p, n); }

/* The page contract; returns 1 if valid. */
int qs_page_verify(const uint8_t *page, size_t n) {
    uint32_t stored = (uint32_t)page[0] | (uint32_t)page[1] << 8 | (uint32_t)page[2] << 16 | (uint32_t)page[3] << 24;
    if (stored == 0) {
        /* never written: all zero */
        static const uint8_t zero[64];
        for (size_t off = 4; off < n; off += 64) {
            size_t len = n - off < 64 ? n - off : 64;
            if (memcmp(page + off, zero, len) != 0) goto compute;
        }
        return 1;
    }
compute:
    return qs_crc32c(page + 4, n - 4) == stored;
}

QS_EXPORT int qs_page_check(const void *page, uint64_t n) { return qs_page_verify(page, n); }
