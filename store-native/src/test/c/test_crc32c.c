/* test_crc32c.c - CRC32C: known vectors; the three implementations (three-stream SSE4.2 + PCLMUL, one
 * stream SSE4.2, table) agree on every length and alignment up to 1,100 bytes, on the lengths around
 * the three-stream round sizes, and on 20,000 random lengths (up to 70,000 bytes) and alignments; the
 * page contract (checksum header, all-zero page is valid). */
#include "qs_test.h"

int main(void) {
    CHECK(qs_crc32c("123456789", 9) == 0xE3069283u, "check value %08x", qs_crc32c("123456789", 9));
    CHECK(qs_crc32c("", 0) == 0, "empty");
    uint8_t z[32] = {0};
    CHECK(qs_crc32c(z, 32) == 0x8A9136AAu, "32 zero bytes (RFC 3720 vector)");
    uint8_t ff[32];
    memset(ff, 0xff, 32);
    CHECK(qs_crc32c(ff, 32) == 0x62A8AB43u, "32 0xff bytes (RFC 3720 vector)");
    uint8_t buf[1100];
    uint64_t s = 88172645463325252ull;
    for (size_t k = 0; k < sizeof buf; k++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; buf[k] = (uint8_t)s; }
    for (size_t off = 0; off < 9; off++)
        for (size_t n = 0; n + off <= sizeof buf; n++) {
            uint32_t t = qs_crc32c_impl(buf + off, n, 0);
            CHECK(qs_crc32c_impl(buf + off, n, 1) == t, "default vs table off %zu n %zu", off, n);
            CHECK(qs_crc32c_impl(buf + off, n, 2) == t, "one-stream hw vs table off %zu n %zu", off, n);
        }
    /* lengths around the round sizes of the three-stream version (3 * 336 and 3 * 2728 bytes) and
     * page sizes, then random lengths and alignments */
    static uint8_t big[70016];
    for (size_t k = 0; k < sizeof big; k++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; big[k] = (uint8_t)s; }
    static const size_t edges[] = {1008, 2016, 4092, 4096, 8184, 8188, 8192, 16380, 16384, 65532, 65536};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
        for (size_t d = 0; d < 17; d++)
            for (size_t off = 0; off < 8; off += 3) {
                size_t n = edges[e] + d - 8;
                uint32_t t = qs_crc32c_impl(big + off, n, 0);
                CHECK(qs_crc32c_impl(big + off, n, 1) == t, "default vs table off %zu n %zu", off, n);
                CHECK(qs_crc32c_impl(big + off, n, 2) == t, "one-stream hw vs table off %zu n %zu", off, n);
            }
    for (int k = 0; k < 20000; k++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        size_t off = s % 64, n = (s >> 8) % (sizeof big - 64);
        if (k % 2) n %= 9000;
        uint32_t t = qs_crc32c_impl(big + off, n, 0);
        CHECK(qs_crc32c_impl(big + off, n, 1) == t, "default vs table off %zu n %zu", off, n);
        CHECK(qs_crc32c_impl(big + off, n, 2) == t, "one-stream hw vs table off %zu n %zu", off, n);
    }
    /* the update form continues a register across calls (the fault path verifies in one call, but
     * qs_crc32c_update is the building block) */
    CHECK(~qs_crc32c_update(qs_crc32c_update(~0u, big + 3, 9000), big + 9003, 20000) == qs_crc32c_impl(big + 3, 29000, 0),
          "split update");
    uint8_t page[8192];
    memset(page, 0, sizeof page);
    CHECK(qs_page_check(page, sizeof page) == 1, "all-zero page is valid (never written)");
    page[5000] = 1;
    CHECK(qs_page_check(page, sizeof page) == 0, "zero checksum with data is invalid");
    uint32_t c = qs_crc32c(page + 4, sizeof page - 4);
    memcpy(page, &c, 4);
    CHECK(qs_page_check(page, sizeof page) == 1, "valid page");
    page[8191] ^= 0x80;
    CHECK(qs_page_check(page, sizeof page) == 0, "one flipped bit");
    static const char *const impl[] = {"table only (no sse4.2)", "sse4.2, one stream (no pclmul)", "sse4.2 + pclmul, three streams"};
    printf("test_crc32c: %d checks passed (%s)\n", qs_checks, impl[qs_crc32c_has_hw()]);
    return 0;
}
