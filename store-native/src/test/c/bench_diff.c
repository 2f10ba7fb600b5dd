/* bench_diff.c - qs_page_diff's cost per 8 KiB page (not a test; docs/results.md "A dense page diffed a block at a
 * time"): a new page against zeros (what a commit logs for a page the transaction allocated, NEW_PAGE) and a page
 * with a few changed words against its pre-image (an update), with the merge gap of commit's REDO and NEW_PAGE
 * records (7). The new page holds object-like words: small ints, user-space addresses, ASCII text, a null word now
 * and then, a zero tail of free space and a slot directory at its end. Prints the median of seven rounds of
 * thread CPU time per page. */
#include "qs_test.h"

#include <stdint.h>
#include <time.h>

#define PAGE 8192
#ifndef REPS
#define REPS 1
#endif
#ifndef PAGES
#define PAGES 512
#endif

static uint64_t s = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { return qs_test_rnd(&s); }

static uint8_t pages[PAGES][PAGE], pre[PAGES][PAGE], zero[PAGE];
static int32_t out[PAGE];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void object_page(uint8_t *p) {
    int used = PAGE * 85 / 100;
    for (int i = 0; i + 8 <= used; i += 8) {
        uint64_t v, r = rnd() % 100;
        if (r < 5) v = 0;                                                   /* a null reference or zero field */
        else if (r < 35) v = 0x00007f0000000000ull | (rnd() & 0xffffffff8ull); /* an address */
        else if (r < 70) v = (rnd() % 10000) | (rnd() % 1000) << 32;        /* two small ints */
        else v = 0x0061006200630064ull + (rnd() & 0x000f000f000f000full);     /* UTF-16 text */
        memcpy(p + i, &v, 8);
    }
    for (int i = PAGE - 400; i < PAGE; i += 2) p[i] = (uint8_t)(1 + rnd() % 250); /* the slot directory */
}

static int cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double run(int update) {
    double t[7];
    int64_t ranges = 0;
    for (int r = 0; r < 7; r++) {
        double t0 = now();
        for (int rep = 0; rep < REPS; rep++)
            for (int k = 0; k < PAGES; k++)
                ranges += qs_page_diff(update ? pre[k] : zero, pages[k], PAGE, 7, INT64_MAX, out, PAGE / 2) / 2;
        t[r] = (now() - t0) / PAGES / REPS;
    }
    qsort(t, 7, sizeof t[0], cmp);
    printf("  (%ld ranges a page)\n", (long)(ranges / 7 / PAGES / REPS));
    return t[3];
}

int main(void) {
    for (int k = 0; k < PAGES; k++) {
        object_page(pages[k]);
        memcpy(pre[k], pages[k], PAGE);
        for (int w = 0; w < 6; w++) pre[k][(rnd() % (PAGE / 8)) * 8] ^= 1; /* six changed words */
    }
    printf("new page against zeros: %.0f ns a page\n", run(0));
    printf("update of six words:    %.0f ns a page\n", run(1));
    return 0;
}
