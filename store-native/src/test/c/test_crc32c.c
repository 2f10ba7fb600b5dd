/* test_crc32c.c - CRC32C: known vectors, hardware and table implementations agree on every length
 * and alignment, and the page contract (checksum header, all-zero page is valid). */
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
        for (size_t n = 0; n + off <= sizeof buf; n += 37)
            CHECK(qs_crc32c_impl(buf + off, n, 1) == qs_crc32c_impl(buf + off, n, 0), "hw vs table off %zu n %zu", off, n);
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
    printf("test_crc32c: %d checks passed (sse4.2 %s)\n", qs_checks, qs_crc32c_has_hw() ? "used" : "absent: table only");
    return 0;
}
