/*
 * qs_crc32c.c - CRC32C (Castagnoli, reflected polynomial 0x82F63B78), identical to
 * java.util.zip.CRC32C, and the page checksum contract shared with store-core (docs/native.md):
 *
 *   every page starts with a little-endian uint32 at bytes 0..3 = CRC32C of bytes 4..pageSize-1;
 *   a page whose checksum word is 0 and whose other bytes are all zero is "never written" (valid).
 *
 * Uses the SSE4.2 crc32 instruction when the CPU has it (checked at run time with
 * __builtin_cpu_supports; only that one function is compiled for sse4.2), else a slicing-by-8 table.
 * [signal-safe]: pure computation; the dispatch is resolved in a constructor before any fault.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <nmmintrin.h>
#include <string.h>

static uint32_t table[8][256];
static int have_sse42;

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

/* Raw update (no pre/post inversion). */
uint32_t qs_crc32c_update(uint32_t crc, const void *p, size_t n) {
    return have_sse42 ? crc_hw(crc, p, n) : crc_table(crc, p, n);
}

/* For tests: force the table implementation (0) or the default dispatch (1). */
QS_EXPORT uint32_t qs_crc32c_impl(const void *p, uint64_t n, int hw) {
    if (hw && !have_sse42) hw = 0;
    return ~(hw ? crc_hw(~0u, p, n) : crc_table(~0u, p, n));
}
QS_EXPORT int qs_crc32c_has_hw(void) { return have_sse42; }

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
