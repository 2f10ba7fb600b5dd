/* test_xlate.c - pointer translation: range tables (lookup, sorting, rejection of bad tables) and
 * relocation of a page's pointers at fault time through its pointer map. */
#include "qs_test.h"
#include <sys/mman.h>

#define FS 8192u

int main(void) {
    struct qs_arena *a;
    CHECK(qs_arena_open(64ull * FS, FS, 0, QS_MODE_STORE, &a) == 0, "open");
    /* unsorted input, sorted by the library */
    uint64_t lo[3] = {0x3000, 0x1000, 0x8000}, hi[3] = {0x4000, 0x2000, 0x9000};
    int64_t d[3] = {-0x1000, 0x10000, 0x100};
    int t = qs_xlate_table_add(a, lo, hi, d, 3);
    CHECK(t == 0, "table id %d", t);
    CHECK(qs_xlate_lookup(a, t, 0) == 0, "null stays null");
    CHECK(qs_xlate_lookup(a, t, 0x1000) == 0x11000, "lo inclusive");
    CHECK(qs_xlate_lookup(a, t, 0x1fff) == 0x11fff, "inside");
    CHECK(qs_xlate_lookup(a, t, 0x2000) == 0x2000, "hi exclusive");
    CHECK(qs_xlate_lookup(a, t, 0x3abc) == 0x2abc, "negative delta");
    CHECK(qs_xlate_lookup(a, t, 0x8fff) == 0x90ff, "last range");
    CHECK(qs_xlate_lookup(a, t, 0x9000) == 0x9000, "past the end");
    CHECK(qs_xlate_lookup(a, t, 0x7fff) == 0x7fff, "gap");
    uint64_t olo[2] = {0x1000, 0x1800}, ohi[2] = {0x2000, 0x2800};
    int64_t od[2] = {1, 1};
    CHECK(qs_xlate_table_add(a, olo, ohi, od, 2) == -22, "overlap rejected");
    uint64_t elo[1] = {5}, ehi[1] = {5};
    CHECK(qs_xlate_table_add(a, elo, ehi, od, 1) == -22, "empty range rejected");
    /* a big table: 1000 ranges, every lookup hits its own range */
    uint64_t blo[1000], bhi[1000];
    int64_t bd[1000];
    for (int k = 0; k < 1000; k++) { blo[k] = (uint64_t)(999 - k) * 0x10000; bhi[k] = blo[k] + 0x8000; bd[k] = (int64_t)(999 - k); }
    int tb = qs_xlate_table_add(a, blo, bhi, bd, 1000);
    CHECK(tb == 1, "big table");
    for (uint64_t k = 0; k < 1000; k++) {
        CHECK(qs_xlate_lookup(a, tb, k * 0x10000 + 0x7fff) == k * 0x10000 + 0x7fff + k, "big hit %lu", (unsigned long)k);
        CHECK(qs_xlate_lookup(a, tb, k * 0x10000 + 0x8000) == k * 0x10000 + 0x8000, "big miss %lu", (unsigned long)k);
    }

    /* fault-time relocation: page 0 holds pointers at words 1, 2, 100, 1023 and a non-pointer at 3 */
    uint8_t page[FS];
    memset(page, 0, FS);
    uint64_t w[FS / 8];
    memset(w, 0, sizeof w);
    w[1] = 0x1010; w[2] = 0x3ff8; w[3] = 0x1010; w[100] = 0; w[1023] = 0x8000;
    memcpy(page, w, FS);
    uint32_t c = qs_crc32c(page + 4, FS - 4);
    memcpy(page, &c, 4);
    char path[64];
    snprintf(path, sizeof path, "/tmp/qs-xtest-%d", (int)getpid());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    CHECK(pwrite(fd, page, FS, 0) == FS, "write page");
    close(fd);
    int src = qs_source_open_file(a, path, 0);
    CHECK(src >= 0, "source");
    CHECK(qs_reserve(a, 5, 1, (uint32_t)src, 0) == 1, "reserve");
    uint8_t bitmap[FS / 64];
    memset(bitmap, 0, sizeof bitmap);
    int ptrs[4] = {1, 2, 100, 1023};
    for (int k = 0; k < 4; k++) bitmap[ptrs[k] / 8] |= (uint8_t)(1u << (ptrs[k] % 8));
    CHECK(qs_frame_set_relocation(a, 5, bitmap, t) == 0, "set relocation");
    CHECK(qs_frame_set_relocation(a, 5, bitmap, 7) == -22, "unknown table");
    CHECK(qs_signal_install() == 0, "install");
    qs_arena_set_txn(a, 1);
    volatile uint64_t *v = (volatile uint64_t *)(qs_arena_base(a) + 5 * FS);
    CHECK(v[1] == 0x11010, "w1 %lx", (unsigned long)v[1]);
    CHECK(v[2] == 0x2ff8, "w2 %lx", (unsigned long)v[2]);
    CHECK(v[3] == 0x1010, "not a pointer: unchanged");
    CHECK(v[100] == 0, "null pointer unchanged");
    CHECK(v[1023] == 0x8100, "last word");
    /* a resident frame takes a new map (ABI 6): it applies to the next load, the bytes stay */
    uint8_t map3[FS / 64];
    memset(map3, 0, sizeof map3);
    map3[0] = 1u << 3;
    CHECK(qs_frame_set_relocation(a, 5, map3, t) == 0, "resident frame accepts a new map");
    CHECK(v[1] == 0x11010 && v[3] == 0x1010, "resident bytes unchanged");
    CHECK(qs_evict(a, 5, 1, 0) == 1, "evict");
    CHECK(v[1] == 0x1010 && v[3] == 0x11010, "reload uses the new map: w1 %lx w3 %lx", (unsigned long)v[1], (unsigned long)v[3]);
    CHECK(*(volatile uint64_t *)qs_arena_pending_addr(a) == 0, "no refusal");
    qs_arena_close(a);
    qs_signal_uninstall();
    unlink(path);
    printf("test_xlate: %d checks passed\n", qs_checks);
    return 0;
}
