/*
 * qs_kwp.c - kernel write tracking: page protection whose committed frames stay writable, the kernel
 * recording their stores (a sixth write-detection scheme beside Hosking & Moss's five, "Lightweight write
 * detection and checkpointing for fine-grained persistence", 1995: "pages" - a fault per first write and a
 * write-protect per checkpoint - with the protection kept by the MMU but the fault resolved by the kernel).
 *
 * Mechanism (Linux 6.7+): the application view is registered with a userfaultfd in write-protect mode with
 * UFFD_FEATURE_WP_ASYNC. A store to a write-protected page is then resolved by the kernel itself - no signal,
 * no mprotect, no TLB shootdown - and the page reads as "written" (PAGE_IS_WRITTEN) in PAGEMAP_SCAN of
 * /proc/self/pagemap until a scan with PM_SCAN_WP_MATCHING write-protects it again. The kernel keeps no
 * pre-image, so a frame keeps one: its twin.
 *
 * Frame regime (qs_arena.h): everything is page protection (clean frames PROT_READ, the first store faults
 * and captures a pre-image) until a commit. At commit, qs_kwp_collect (before the dirty list is taken) scans
 * the frames, write-protecting every written page again: that scan is the clean point. The clean list then
 * ends the dirty state without mprotect(READ) (QS_F_OPEN: still writable), Java diffs each page against its
 * pre-image, logs, and applies the record's after-images (and its LSN) to the pre-image slot, and
 * qs_kwp_settle makes the slot the frame's twin (QS_F_TWIN: CLEAN, READ|WRITE, slot = the image as logged).
 * The next transaction's stores to a twin frame take no fault; its commit's collect finds them written and turns
 * those frames DIRTY with the twin as their pre-image. A store after the scan (one racing with commit) is
 * recorded by the kernel and, since the twin holds exactly what was logged, is never lost: the next begin treats
 * it as a store outside a transaction (qs_kwp_collect's RESTORE mode).
 *
 * Invariants: a twin frame's slot holds exactly the bytes last logged for its page (or loaded, if never
 * written); a CLEAN frame is writable only with QS_F_TWIN or QS_F_OPEN; every store to a twin frame since its
 * twin was taken shows in PAGEMAP_SCAN as a written page (present without the uffd-wp bit, or a non-present
 * entry the kernel reports as written); no frame is evicted or dropped while written (qs_kwp_written).
 * A store outside a transaction to a twin frame is not refused by a fault: qs_kwp_collect(..., RESTORE) at the
 * next transaction's begin finds it and puts the twin back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/userfaultfd.h>

#include "qs_arena.h"
#include "qs_export.h"

/* Linux 6.7's UAPI (the build machine's headers may be older) */
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif
struct qs_pm_scan_arg {
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages, category_inverted, category_mask,
        category_anyof_mask, return_mask;
};
struct qs_page_region {
    uint64_t start, end, categories;
};
#define QS_PAGEMAP_SCAN _IOWR('f', 16, struct qs_pm_scan_arg)
#define QS_PM_SCAN_WP_MATCHING (1 << 0)
#define QS_PAGE_IS_WRITTEN (1 << 1)

/* Regions one scan of qs_kwp_collect returns at most: the scan stops when its vector is full and the next call
 * continues, and every call flushes the TLB for what it write-protected (an inter-processor interrupt while
 * another thread of the process runs), so few large calls are cheaper than many small ones (docs/results.md). */
#define QS_KWP_REGIONS 4096
/* qs_kwp_collect's modes */
#define QS_KWP_DIRTY 0   /* commit, abort, eviction: written twin frames become DIRTY, the twin their pre-image */
#define QS_KWP_RESTORE 1 /* a transaction begins: written twin frames get their twin back (a store outside one) */

/* Opens the userfaultfd and registers [app, app + len) for asynchronous write-protection. Nothing is write-protected
 * here: UFFDIO_WRITEPROTECT over a 64 GiB arena installs a marker in every page-table entry of shared memory
 * (128 MiB of page tables, 160 ms, measured). A page the application populated carries no uffd-wp bit, so the
 * scan reports it written and its first commit's collect write-protects it; only twins need the protection.
 * Returns the descriptor or -errno. */
static int open_uffd(void *app, uint64_t len) {
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (fd < 0) return -errno;
    struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_WP_ASYNC};
    struct uffdio_register reg = {.range = {(uintptr_t)app, len}, .mode = UFFDIO_REGISTER_MODE_WP};
    if (ioctl(fd, UFFDIO_API, &api) != 0 || ioctl(fd, UFFDIO_REGISTER, &reg) != 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}

/* Whether this kernel and process can track writes this way: 0, or -errno (-ENOSYS: no userfaultfd, -EPERM:
 * not allowed, e.g. by a seccomp profile; -EINVAL: a kernel before 6.7). Maps and unmaps a small probe. */
QS_EXPORT int qs_kwp_probe(void) {
    long ps = sysconf(_SC_PAGESIZE);
    void *m = mmap(NULL, (size_t)ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return -errno;
    int fd = open_uffd(m, (uint64_t)ps);
    int rc = fd < 0 ? fd : 0;
    if (fd >= 0) close(fd);
    if (rc == 0) {
        int pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
        if (pm < 0) rc = -errno;
        else close(pm);
    }
    munmap(m, (size_t)ps);
    return rc;
}

/* Selects kernel write tracking before any frame is resident (called by qs_arena_set_write_detection). */
int qs_kwp_enable(struct qs_arena *a) {
    if (a->cards || a->preimage_on_load || a->kwp || a->minor_uffd >= 0) return -EBUSY; /* one uffd per range */
    if (atomic_load(&a->resident) != 0 || a->mode != QS_MODE_STORE) return -EBUSY;
    void *regions = mmap(NULL, QS_KWP_REGIONS * sizeof(struct qs_page_region), PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (regions == MAP_FAILED) return -errno;
    int pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    int fd = pm < 0 ? -errno : open_uffd(a->app, a->size);
    if (fd < 0) {
        if (pm >= 0) close(pm);
        munmap(regions, QS_KWP_REGIONS * sizeof(struct qs_page_region));
        return fd;
    }
    a->kwp_regions = regions;
    a->kwp_regions_bytes = QS_KWP_REGIONS * sizeof(struct qs_page_region);
    a->os_page = (uint32_t)sysconf(_SC_PAGESIZE);
    a->uffd = fd;
    a->pagemap = pm;
    a->kwp = 1;
    return 0;
}

/* One PAGEMAP_SCAN of [lo, hi) (byte offsets of the view) for written pages; wp = write-protect them again.
 * Fills v[0..n) and returns n, or -errno; *walked receives the offset the walk reached (hi when it finished). */
static int64_t scan(struct qs_arena *a, uint64_t lo, uint64_t hi, int wp, struct qs_page_region *v, uint64_t n,
                    uint64_t *walked) {
    struct qs_pm_scan_arg arg = {
        .size = sizeof arg,
        /* no PM_SCAN_CHECK_WPASYNC: a scratch page mapped over a refused frame is a VMA of its own, not registered;
         * the scan skips it (with WP_MATCHING) or reports its present pages written (without: a twin is kept) */
        .flags = wp ? QS_PM_SCAN_WP_MATCHING : 0,
        .start = (uintptr_t)a->app + lo,
        .end = (uintptr_t)a->app + hi,
        .vec = (uintptr_t)v,
        .vec_len = n,
        .category_mask = QS_PAGE_IS_WRITTEN,
        .return_mask = QS_PAGE_IS_WRITTEN,
    };
    long r = ioctl(a->pagemap, QS_PAGEMAP_SCAN, &arg);
    if (r < 0) return -errno;
    *walked = arg.walk_end - (uintptr_t)a->app;
    return r;
}

int qs_kwp_written(struct qs_arena *a, uint64_t i) {
    if (!a->kwp) return 0;
    struct qs_page_region v[1];
    uint64_t walked;
    uint64_t lo = i << a->frame_shift;
    int64_t n = scan(a, lo, lo + a->frame_size, 0, v, 1, &walked);
    return n != 0; /* an error counts as written: the frame is kept */
}

/* Frame i, whose OS pages `bits` the scan found written: a twin becomes DIRTY with the twin as pre-image and
 * QS_F_KMASK (commit diffs only those pages), or (restore) gets its twin copied back; a DIRTY frame still under
 * QS_F_KMASK (an eviction's collect took it earlier in the transaction) adds the pages. Returns 1 if a twin was
 * taken. */
static int take_written(struct qs_arena *a, uint64_t i, uint64_t bits, int mode, uint64_t *out, uint64_t max,
                        uint64_t *n) {
    struct qs_frame *f = qs_frame_at(a, i);
    uint32_t fl = atomic_load(&f->flags);
    if (!(fl & (QS_F_TWIN | QS_F_KMASK))) return 0; /* written frames that are not twins: their state records it */
    uint32_t was = qs_frame_lock(a, f);
    fl = atomic_load(&f->flags);
    if (was == QS_DIRTY && (fl & QS_F_KMASK) && mode == QS_KWP_DIRTY) {
        f->kwp_mask |= bits;
        qs_frame_unlock(f, was);
        return 0;
    }
    if (was != QS_CLEAN || !(fl & QS_F_TWIN)) { qs_frame_unlock(f, was); return 0; }
    if (mode == QS_KWP_RESTORE) {
        memcpy(qs_alias_addr(a, i), qs_preimage_addr(a, f->preimage_slot), a->frame_size);
        qs_frame_unlock(f, QS_CLEAN);
    } else {
        f->kwp_mask = bits;
        atomic_fetch_or(&f->flags, QS_F_KMASK);
        atomic_fetch_and(&f->flags, ~QS_F_TWIN);
        qs_frame_unlock(f, QS_DIRTY);
        qs_dirty_note(a, i);
    }
    if (*n < max && out) out[*n] = i;
    (*n)++;
    return 1;
}

/* Scans frames [0, hwm) for pages written since the last scan and write-protects them again (the clean point
 * of a commit). mode QS_KWP_DIRTY (0): every written twin frame becomes DIRTY, its twin its pre-image (commit,
 * abort and eviction then see it as a written frame); QS_KWP_RESTORE (1): every written twin frame gets its twin
 * back (stores outside a transaction are undone). Written frames that are not twins (DIRTY already, or clean
 * frames the store itself filled) are only protected again. The first `max` frames taken are written to
 * out (may be NULL). Returns the number of twin frames taken, -EINVAL when tracking is off, or -errno. */
QS_EXPORT int64_t qs_kwp_collect(struct qs_arena *a, int mode, uint64_t *out, uint64_t max) {
    if (!a->kwp || (mode != QS_KWP_DIRTY && mode != QS_KWP_RESTORE)) return -EINVAL;
    /* a commit's clean point covers every frame (a frame made DIRTY by a fault becomes a twin at its settle, so its
     * pages must be write-protected again here); a begin only the twins (no twin yet: no scan at all) */
    uint64_t lo = 0, end = atomic_load(&a->hwm) << a->frame_shift, n = 0;
    if (mode == QS_KWP_RESTORE) {
        lo = atomic_load(&a->twin_lo) << a->frame_shift;
        end = atomic_load(&a->twin_hi) << a->frame_shift;
    }
    struct qs_page_region *v = a->kwp_regions; /* collects run under the store latch: one vector per arena */
    while (lo < end) {
        uint64_t walked;
        int64_t r = scan(a, lo, end, 1, v, QS_KWP_REGIONS, &walked);
        if (r < 0) return r;
        /* the written OS pages of one frame may come in several regions: gather them, then take the frame */
        uint64_t cur = UINT64_MAX, bits = 0;
        for (int64_t k = 0; k < r; k++) {
            uint64_t s = v[k].start - (uintptr_t)a->app, e = v[k].end - (uintptr_t)a->app;
            for (uint64_t p = s; p < e; p += a->os_page) {
                uint64_t i = p >> a->frame_shift;
                if (i != cur) {
                    if (cur != UINT64_MAX) take_written(a, cur, bits, mode, out, max, &n);
                    cur = i;
                    bits = 0;
                }
                bits |= (uint64_t)1 << ((p & (a->frame_size - 1)) / a->os_page);
            }
        }
        if (cur != UINT64_MAX) take_written(a, cur, bits, mode, out, max, &n);
        if (walked <= lo) return -EIO; /* the kernel made no progress: never loop */
        lo = walked;
    }
    return (int64_t)n;
}

/* Ends a commit's detached pre-images under kernel tracking (after qs_mark_clean_list_detach): for each listed
 * frame k, if keep[k] and slots[k] != 0 and the frame is CLEAN and still open, the slot - which the caller has
 * filled with the page as logged - becomes the frame's twin; otherwise an open frame is write-protected (page
 * protection's clean state) and the slot released. Returns the frames given a twin, or -EINVAL (nothing changed)
 * for an entry outside the arena or a slot that is not one. */
/* The OS pages of DIRTY frame i that the kernel saw written since its twin (bit k = page k), or -1 when the
 * frame must be diffed whole (not taken from a twin, or the store wrote it through the alias too). */
QS_EXPORT int64_t qs_kwp_mask(struct qs_arena *a, uint64_t i) {
    if (i >= a->nframes) return -1;
    struct qs_frame *f = qs_frame_at(a, i);
    if (atomic_load_explicit(&f->state, memory_order_acquire) != QS_DIRTY || !(atomic_load(&f->flags) & QS_F_KMASK))
        return -1;
    return (int64_t)f->kwp_mask;
}

/* The OS page size: the granularity of qs_kwp_mask. */
QS_EXPORT int32_t qs_kwp_page_bytes(void) { return (int32_t)sysconf(_SC_PAGESIZE); }

QS_EXPORT int64_t qs_kwp_settle(struct qs_arena *a, const uint64_t *frames, const uint64_t *slots,
                                const uint8_t *keep, uint64_t n) {
    uint64_t limit = (uint64_t)atomic_load(&a->pre.nchunks) * QS_PRE_CHUNK_SLOTS;
    for (uint64_t k = 0; k < n; k++)
        if (frames[k] >= a->nframes || slots[k] > limit) return -EINVAL;
    int64_t twins = 0;
    for (uint64_t k = 0; k < n; k++) {
        struct qs_frame *f = qs_frame_at(a, frames[k]);
        uint32_t was = qs_frame_lock(a, f);
        uint32_t fl = atomic_load(&f->flags);
        int attach = 0;
        atomic_fetch_and(&f->flags, ~QS_F_OPEN); /* a frame made DIRTY again meanwhile is no longer open either */
        if (was == QS_CLEAN && (fl & QS_F_OPEN)) {
            if (keep[k] && slots[k] != 0 && f->preimage_slot == 0 && !a->kwp_broken) {
                attach = 1;
            } else if (!(fl & QS_F_PROTNONE)) {
                /* no twin: back to page protection (a failed protect leaves it writable without a twin, which
                 * a store could change unseen: refuse by protecting it from all access instead) */
                if (qs_protect_frame(a, frames[k], PROT_READ) != 0
                    && mprotect(qs_app_addr(a, frames[k]), a->frame_size, PROT_NONE) == 0)
                    atomic_fetch_or(&f->flags, QS_F_PROTNONE);
            }
        }
        if (attach) {
            f->preimage_slot = (uint32_t)slots[k];
            atomic_fetch_or(&f->flags, QS_F_TWIN);
            uint64_t lo = atomic_load(&a->twin_lo), hi = atomic_load(&a->twin_hi);
            if (hi == 0 || frames[k] < lo) atomic_store(&a->twin_lo, frames[k]); /* settle runs under the store latch */
            if (frames[k] + 1 > hi) atomic_store(&a->twin_hi, frames[k] + 1);
            twins++;
        } else if (slots[k] != 0) {
            qs_preimage_release(a, (uint32_t)slots[k]);
        }
        qs_frame_unlock(f, was);
    }
    return twins;
}

int qs_kwp_stays(struct qs_arena *a, uint64_t i) {
    struct qs_frame *f = qs_frame_at(a, i);
    if (!(atomic_load(&f->flags) & QS_F_PROTNONE)) {
        if (mprotect(qs_app_addr(a, i), a->frame_size, PROT_NONE) != 0) return 1; /* the VMA limit: keep it */
        atomic_fetch_or(&f->flags, QS_F_PROTNONE);
    }
    return qs_kwp_written(a, i);
}

void qs_kwp_reregister(struct qs_arena *a, uint64_t i) {
    struct uffdio_register reg = {.range = {(uintptr_t)qs_app_addr(a, i), a->frame_size}, .mode = UFFDIO_REGISTER_MODE_WP};
    struct uffdio_writeprotect wp = {.range = {(uintptr_t)qs_app_addr(a, i), a->frame_size},
                                     .mode = UFFDIO_WRITEPROTECT_MODE_WP};
    if (ioctl(a->uffd, UFFDIO_REGISTER, &reg) != 0 || ioctl(a->uffd, UFFDIO_WRITEPROTECT, &wp) != 0)
        a->kwp_broken = 1; /* commits write-protect again (page protection): never an untracked writable frame */
}
