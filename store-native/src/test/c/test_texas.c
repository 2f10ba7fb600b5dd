/* test_texas.c - Texas mode (Kakkad & Wilson 1999, section 3): persistent pointers (page id + offset) in
 * slotted pages are swizzled to virtual addresses by the fault path, frames are reserved one step ahead for
 * every page a loaded page refers to, unswizzling restores the disk image exactly, and concurrent
 * reservations of the same pages agree on one frame each. Real SIGSEGVs on real mprotect'ed memory. */
#include "qs_test.h"
#include <errno.h>
#include <pthread.h>

#define FS 8192u
#define NPAGES 8u
#define FIRST 10u

static uint64_t pp(uint64_t page, uint64_t off) { return (0x9ull << 60) | (page * FS) | off; }

/* a slotted page whose words `ptr[k]` hold persistent pointers `val[k]` (marked in its pointer map) and
 * word 60 a tagged value that is not a pointer (not marked) */
static void slotted(uint8_t *buf, uint64_t page, const int *ptr, const uint64_t *val, int n) {
    memset(buf, 0, FS);
    buf[4] = 3; /* SLOTTED */
    buf[5] = 1;
    memcpy(buf + 8, &page, 8);
    for (int k = 0; k < n; k++) {
        memcpy(buf + 8 * ptr[k], &val[k], 8);
        buf[32 + ptr[k] / 8] |= (uint8_t)(1u << (ptr[k] % 8));
    }
    uint64_t fake = pp(7, 8);
    memcpy(buf + 8 * 60, &fake, 8);
    uint32_t c = qs_crc32c(buf + 4, FS - 4);
    memcpy(buf, &c, 4);
}

static struct qs_arena *A;
static int64_t seen[4][NPAGES];
static void *reserver(void *arg) {
    int id = (int)(intptr_t)arg;
    for (uint64_t p = 0; p < NPAGES; p++) seen[id][(p * 3 + (uint64_t)id) % NPAGES] = qs_texas_frame(A, (p * 3 + (uint64_t)id) % NPAGES, 1);
    return NULL;
}

static uint64_t txc(int k) {
    uint64_t out[16];
    CHECK(qs_texas_counters(A, out, 16) == 9, "counter count");
    return out[k];
}

int main(void) {
    uint8_t pages[NPAGES][FS];
    int p0ptr[4] = {40, 41, 42, 43};
    uint64_t p0val[4] = {pp(3, 64), pp(5, 128), pp(3, 72), 0};
    slotted(pages[0], 0, p0ptr, p0val, 4);
    int p3ptr[1] = {40};
    uint64_t p3val[1] = {pp(0, 320)};
    slotted(pages[3], 3, p3ptr, p3val, 1);
    for (uint64_t p = 1; p < NPAGES; p++)
        if (p != 3) slotted(pages[p], p, p3ptr, (uint64_t[]){pp(p, 8)}, 1);
    memset(pages[6], 0, FS); /* a never-written page: not slotted, nothing to swizzle */
    char path[64];
    snprintf(path, sizeof path, "/tmp/qs-texas-%d", (int)getpid());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    CHECK(pwrite(fd, pages, sizeof pages, 0) == (ssize_t)sizeof pages, "write pages");
    close(fd);

    CHECK(qs_arena_open(64ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open");
    CHECK(qs_texas_frame(A, 0, 1) == -EINVAL, "not in texas mode yet");
    int src = qs_source_open_file(A, path, 0);
    CHECK(src >= 0, "source");
    CHECK(qs_texas_enable(A, 9, NPAGES, FIRST) == -EBADF, "unknown source");
    CHECK(qs_texas_enable(A, (uint32_t)src, NPAGES, FIRST) == 0, "enable");
    CHECK(qs_texas_enable(A, (uint32_t)src, NPAGES, FIRST) == -EEXIST, "enable twice");
    CHECK(qs_texas_frame(A, 0, 0) == -ENOENT, "no frame yet");
    CHECK(qs_texas_frame(A, NPAGES, 1) == -ERANGE, "beyond the table");
    CHECK(qs_texas_frame(A, 0, 1) == FIRST, "the root page gets the first frame");
    CHECK(qs_texas_frame(A, 0, 1) == FIRST, "and keeps it");
    CHECK((qs_frame_state(A, FIRST) & 0xff) == QS_RESERVED && qs_frame_page(A, FIRST) == 0, "reserved for page 0");

    CHECK(qs_signal_install() == 0, "install");
    qs_arena_set_txn(A, 1);
    uint64_t base = qs_arena_base(A);
    volatile uint64_t *v0 = (volatile uint64_t *)(base + FIRST * FS);
    /* the fault: page 0 read, its pointers swizzled, frames reserved for pages 3 and 5 (one step ahead) */
    uint64_t w40 = v0[40];
    int64_t f3 = qs_texas_frame(A, 3, 0), f5 = qs_texas_frame(A, 5, 0);
    CHECK(f3 == FIRST + 1 && f5 == FIRST + 2, "frames in reference order: %ld %ld", (long)f3, (long)f5);
    CHECK(w40 == base + (uint64_t)f3 * FS + 64, "word 40 swizzled: %lx", (unsigned long)w40);
    CHECK(v0[41] == base + (uint64_t)f5 * FS + 128, "word 41 swizzled");
    CHECK(v0[42] == base + (uint64_t)f3 * FS + 72, "word 42: same page, same frame");
    CHECK(v0[43] == 0, "null stays null");
    CHECK(v0[60] == pp(7, 8), "a tagged word outside the pointer map is not touched");
    CHECK(qs_texas_frame(A, 7, 0) == -ENOENT, "and reserves nothing");
    CHECK((qs_frame_state(A, (uint64_t)f3) & 0xff) == QS_RESERVED, "reserved, not loaded (address space only)");
    CHECK(qs_arena_resident(A) == 1, "one page resident");
    CHECK(txc(0) == 3 && txc(1) == 2, "3 frames reserved, 2 at fault time");
    CHECK(txc(2) == 1 && txc(3) == 1 && txc(4) == 3, "1 page swizzled, 3 words");
    /* following a swizzled pointer faults page 3 in; its pointer back to page 0 finds frame FIRST */
    volatile uint64_t *v3 = (volatile uint64_t *)(base + (uint64_t)f3 * FS);
    CHECK(v3[40] == base + FIRST * FS + 320, "back pointer %lx", (unsigned long)v3[40]);
    CHECK(*(volatile uint64_t *)(w40 - 64 + 8) == 3, "page id through the swizzled pointer");
    CHECK(txc(0) == 3, "no new frame for an already reserved page");

    /* unswizzling gives the disk image back, byte for byte */
    uint8_t img[FS];
    memcpy(img, (const void *)(qs_arena_alias(A) + FIRST * FS), FS);
    CHECK(memcmp(img, pages[0], FS) != 0, "resident image differs from disk");
    CHECK(qs_texas_unswizzle(A, img, FS) == 3, "3 words unswizzled");
    CHECK(memcmp(img, pages[0], FS) == 0, "unswizzled == disk image");
    CHECK(qs_texas_swizzle(A, img, FS) == 3, "swizzle a copy (the store's own read)");
    CHECK(memcmp(img, (const void *)(qs_arena_alias(A) + FIRST * FS), FS) == 0, "same as the fault path");
    CHECK(qs_texas_to_disk(A, base + FIRST * FS + 16) == pp(0, 16), "one word to disk");
    CHECK(qs_texas_to_runtime(A, pp(0, 16)) == base + FIRST * FS + 16, "and back");
    CHECK(qs_texas_to_disk(A, base + 40 * FS) == base + 40 * FS, "an address in a free frame is not a pointer");
    CHECK(qs_texas_to_runtime(A, 12345) == 12345, "an untagged value is not a pointer");

    /* evict + reload swizzles again to the same frames */
    CHECK(qs_evict(A, FIRST, 1, 0) == 1, "evict page 0");
    CHECK(v0[41] == base + (uint64_t)f5 * FS + 128, "reload swizzles to the same frame");
    CHECK(txc(0) == 3, "still 3 frames");

    /* concurrent reservations of the remaining pages: one frame per page, every thread sees it */
    pthread_t th[4];
    for (int k = 0; k < 4; k++) pthread_create(&th[k], NULL, reserver, (void *)(intptr_t)k);
    for (int k = 0; k < 4; k++) pthread_join(th[k], NULL);
    for (uint64_t p = 0; p < NPAGES; p++) {
        for (int k = 1; k < 4; k++) CHECK(seen[k][p] == seen[0][p] && seen[0][p] >= FIRST, "page %lu agreed", (unsigned long)p);
        CHECK(qs_frame_page(A, (uint64_t)seen[0][p]) == p, "frame of page %lu names it", (unsigned long)p);
    }
    uint64_t out[16];
    qs_texas_counters(A, out, 16);
    CHECK(out[0] == NPAGES, "one reservation per page: %lu", (unsigned long)out[0]);
    CHECK(out[8] == FIRST + NPAGES + out[6], "frames taken = reservations + lost races");
    CHECK(*(volatile uint64_t *)qs_arena_pending_addr(A) == 0, "no refusal");
    qs_arena_close(A);

    /* out of frames: the word stays persistent and is counted */
    CHECK(qs_arena_open(4ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "small arena");
    src = qs_source_open_file(A, path, 0);
    CHECK(qs_texas_enable(A, (uint32_t)src, NPAGES, 3) == 0, "enable at the last frame");
    CHECK(qs_texas_frame(A, 0, 1) == 3, "last frame");
    qs_arena_set_txn(A, 1);
    volatile uint64_t *s0 = (volatile uint64_t *)(qs_arena_base(A) + 3 * FS);
    CHECK(s0[40] == pp(3, 64), "unresolved: left persistent");
    CHECK(txc(7) == 3, "3 unresolved words");
    qs_arena_close(A);
    qs_signal_uninstall();
    unlink(path);
    printf("test_texas: %d checks passed\n", qs_checks);
    return 0;
}
