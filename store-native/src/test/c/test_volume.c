/* test_volume.c - header agreement: qs_volume.h decodes the fixed VolumeHeader v2 test vector that
 * store-core's VolumeHeaderTest.goldenImageForTheNativeSideIsStable encodes (same bytes, asserted on
 * the Java side too), and rejects damaged copies of it. */
#include "qs_test.h"
#include "qs_volume.h"

/* bytes 0..127 of the encoded 8192-byte page; bytes 128..8191 are zero */
static const uint8_t vector_prefix[128] = {
    0xda,0xa9,0xdd,0xd4,0x01,0x01,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,
    0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,
    0x51,0x53,0x56,0x4f,0x4c,0x55,0x4d,0x45,0x02,0x00,0x00,0x00,0x00,0x20,0x00,0x00,
    0x08,0x07,0x06,0x05,0x04,0x03,0x02,0x01,0x18,0x17,0x16,0x15,0x14,0x13,0x12,0x11,
    0x00,0x00,0x00,0x00,0x00,0x5a,0x00,0x00,0x10,0x00,0x00,0x00,0x00,0x00,0x00,0x00,
    0xe8,0x03,0x00,0x00,0x00,0x00,0x00,0x00,0x10,0x00,0x00,0x00,0x00,0x00,0x00,0x00,
    0x03,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x04,0x00,0x00,0x00,0x00,0x00,0x00,0x00,
    0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,
};

static uint32_t crc_fn(const void *p, uint64_t n) { return qs_crc32c(p, n); }

int main(void) {
    static uint8_t page[8192];
    memcpy(page, vector_prefix, sizeof vector_prefix);
    struct qs_volume_header h;
    CHECK(qs_volume_decode(page, sizeof page, &h, crc_fn) == QS_VOL_OK, "decode of the test vector");
    CHECK(h.checksum == 0xd4dda9dau, "checksum %08x", h.checksum);
    CHECK(h.page_type == 1 && h.page_version == 1 && h.page_id == 0 && h.page_lsn == 0, "page header");
    CHECK(h.format_version == 2, "version %u", h.format_version);
    CHECK(h.page_size == 8192, "page size %u", h.page_size);
    CHECK(h.creation_id_msb == 0x0102030405060708ull && h.creation_id_lsb == 0x1112131415161718ull, "creation id");
    CHECK(h.preferred_arena_base == 0x5a0000000000ull, "arena base %llx", (unsigned long long)h.preferred_arena_base);
    CHECK(h.page_count == 16 && h.created_millis == 1000 && h.extent_pages == 16, "counts");
    CHECK(h.roots_meta_page == 3 && h.indexes_meta_page == 4, "catalog pages");
    /* the checksum rule is the fault path's too */
    CHECK(qs_page_check(page, sizeof page) == 1, "exported page check accepts it");
    CHECK(qs_page_verify(page, sizeof page), "the fault path accepts the header page");

    uint8_t bad[8192];
    memcpy(bad, page, sizeof bad); bad[72] ^= 1;
    CHECK(qs_volume_decode(bad, sizeof bad, &h, crc_fn) == QS_VOL_CHECKSUM, "pageCount flip detected");
    CHECK(!qs_page_verify(bad, sizeof bad), "fault path rejects it too");
    memcpy(bad, page, sizeof bad); bad[33] = 'X';
    CHECK(qs_volume_decode(bad, sizeof bad, &h, NULL) == QS_VOL_MAGIC, "magic");
    memcpy(bad, page, sizeof bad); bad[40] = 4;
    CHECK(qs_volume_decode(bad, sizeof bad, &h, NULL) == QS_VOL_VERSION, "version");
    memcpy(bad, page, sizeof bad); bad[40] = 3;
    CHECK(qs_volume_decode(bad, sizeof bad, &h, NULL) == QS_VOL_VERSION, "version 3 without a pointer format");
    bad[92] = 1;
    CHECK(qs_volume_decode(bad, sizeof bad, &h, NULL) == QS_VOL_OK && h.pointer_format == 1, "version 3, Texas");
    memcpy(bad, page, sizeof bad); bad[92] = 2;
    CHECK(qs_volume_decode(bad, sizeof bad, &h, NULL) == QS_VOL_VERSION, "version 2 with OIDs");
    memcpy(bad, page, sizeof bad); bad[45] = 0x21;
    CHECK(qs_volume_decode(bad, sizeof bad, &h, NULL) == QS_VOL_PAGE_SIZE, "page size");
    CHECK(qs_volume_decode(page, 100, &h, NULL) == QS_VOL_SHORT, "short");
    printf("test_volume: %d checks passed\n", qs_checks);
    return 0;
}
