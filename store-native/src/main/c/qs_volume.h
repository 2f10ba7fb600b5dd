/*
 * qs_volume.h - the volume header (page 0 of volume.qs, format version 2 or 3) as the native side reads
 * it: the one C definition of the layout that store-core's VolumeHeader writes (see
 * docs/formats.md; test vector in test_volume.c and VolumeHeaderTest). All integers little-endian.
 *
 *   offset size field
 *        0    4 checksum            CRC32C of bytes 4..pageSize-1 (the page checksum contract)
 *        4    1 page type           1 = volume header
 *        5    1 page format version 1
 *        8    8 page id             0
 *       16    8 page LSN
 *       32    8 magic               "QSVOLUME"
 *       40    4 formatVersion       2, or 3 when the references are not addresses (pointerFormat 1 or 2)
 *       44    4 pageSize            power of two, 4096..65536
 *       48   16 creationId          UUID, most significant 8 bytes first (each as a LE 64-bit word)
 *       64    8 preferredArenaBase  virtual address the arena is mapped at (0 = anywhere)
 *       72    8 pageCount
 *       80    8 createdMillis
 *       88    4 extentPages         power of two
 *       92    4 pointerFormat       0 virtual addresses (v2), 1 Texas persistent pointers, 2 OIDs (v3)
 *       96    8 rootsMetaPage
 *      104    8 indexesMetaPage
 *
 * Header-only and allocation-free; usable from the control plane (not needed in the fault path).
 */
#ifndef QS_VOLUME_H
#define QS_VOLUME_H
#include <stdint.h>
#include <string.h>

#define QS_VOLUME_FORMAT_VERSION 2
/* version 3: the same layout; references are not addresses (pointer_format 1 = Texas, 2 = OIDs) */
#define QS_VOLUME_POINTER_FORMAT_VERSION 3
#define QS_VOLUME_HEADER_BYTES 128

struct qs_volume_header {
    uint32_t checksum;
    uint8_t page_type, page_version;
    uint64_t page_id, page_lsn;
    uint32_t format_version;
    uint32_t page_size;
    uint64_t creation_id_msb, creation_id_lsb;
    uint64_t preferred_arena_base;
    uint64_t page_count;
    uint64_t created_millis;
    uint32_t extent_pages;
    uint32_t pointer_format; /* 0 virtual addresses (v2), 1 Texas persistent pointers, 2 OIDs (v3) */
    uint64_t roots_meta_page;
    uint64_t indexes_meta_page;
};

enum qs_volume_error {
    QS_VOL_OK = 0,
    QS_VOL_SHORT = 1,     /* fewer than QS_VOLUME_HEADER_BYTES (or pageSize) bytes           */
    QS_VOL_MAGIC = 2,     /* not "QSVOLUME" at 32                                            */
    QS_VOL_VERSION = 3,   /* formatVersion not 2 or 3, or pointerFormat not what it implies  */
    QS_VOL_PAGE_SIZE = 4, /* pageSize not a power of two in 4096..65536                      */
    QS_VOL_CHECKSUM = 5,  /* CRC32C of bytes 4..pageSize-1 != bytes 0..3                     */
};

static inline uint32_t qs_le32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t qs_le64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Decodes page 0 (n bytes available). crc = CRC32C function (qs_crc32c), or NULL to skip the check.
 * Returns QS_VOL_OK or the first failing check; *h is filled as far as the bytes allow. */
static inline int qs_volume_decode(const uint8_t *page, uint64_t n, struct qs_volume_header *h,
                                   uint32_t (*crc)(const void *, uint64_t)) {
    memset(h, 0, sizeof *h);
    if (n < QS_VOLUME_HEADER_BYTES) return QS_VOL_SHORT;
    h->checksum = qs_le32(page + 0);
    h->page_type = page[4];
    h->page_version = page[5];
    h->page_id = qs_le64(page + 8);
    h->page_lsn = qs_le64(page + 16);
    h->format_version = qs_le32(page + 40);
    h->page_size = qs_le32(page + 44);
    h->creation_id_msb = qs_le64(page + 48);
    h->creation_id_lsb = qs_le64(page + 56);
    h->preferred_arena_base = qs_le64(page + 64);
    h->page_count = qs_le64(page + 72);
    h->created_millis = qs_le64(page + 80);
    h->extent_pages = qs_le32(page + 88);
    h->pointer_format = qs_le32(page + 92);
    h->roots_meta_page = qs_le64(page + 96);
    h->indexes_meta_page = qs_le64(page + 104);
    if (memcmp(page + 32, "QSVOLUME", 8) != 0) return QS_VOL_MAGIC;
    if (h->format_version == QS_VOLUME_FORMAT_VERSION ? h->pointer_format != 0
        : h->format_version != QS_VOLUME_POINTER_FORMAT_VERSION || (h->pointer_format != 1 && h->pointer_format != 2))
        return QS_VOL_VERSION;
    if (h->page_size < 4096 || h->page_size > 65536 || (h->page_size & (h->page_size - 1)) != 0) return QS_VOL_PAGE_SIZE;
    if (crc != NULL) {
        if (n < h->page_size) return QS_VOL_SHORT;
        if (crc(page + 4, h->page_size - 4) != h->checksum) return QS_VOL_CHECKSUM;
    }
    return QS_VOL_OK;
}
#endif
