/*
 * qs_source.c - page sources: where the fault path gets a page's bytes (QuickStore's ESM client
 * read): a file, or a page-server process (qs_socket.c).
 *
 * A source is an ops table (struct qs_source_ops in qs_arena.h) plus its state. read_page runs in the
 * fault path and must be async-signal-safe. Here: the file source (pread on a file descriptor the library
 * opened itself, at base_offset + page_no * page_size), the load of a frame from its source (with a page
 * lock when the arena locks and the source can), and the lock of a cached page (qs_page_lock). The
 * page-server source implements the same table over a connected socket (qs_socket.c). Sources are added by
 * the control plane before frames refer to them and removed only at arena close.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/* [signal-safe] Pread of up to len bytes of consecutive pages (one page, or a read-ahead run); short only at EOF. */
static int64_t file_read_run(struct qs_source *s, uint64_t page_no, void *dst, size_t len) {
    uint8_t *p = dst;
    off_t off = (off_t)(s->base_offset + page_no * (uint64_t)s->page_size);
    size_t done = 0;
    while (done < len) {
        ssize_t r = pread(s->fd, p + done, len - done, off + (off_t)done);
        if (r < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        if (r == 0) break; /* end of the file: the caller installs only complete pages */
        done += (size_t)r;
    }
    return (int64_t)done;
}

/* [signal-safe] pread until the page is complete; EOF before the end is an error (EIO). */
static int file_read_page(struct qs_source *s, uint64_t page_no, void *dst, size_t len) {
    int64_t got = file_read_run(s, page_no, dst, len);
    if (got < 0) return (int)got;
    return (size_t)got == len ? 0 : -EIO; /* page beyond the end of the file */
}

static void file_close(struct qs_source *s) {
    if (s->fd >= 0) close(s->fd);
    s->fd = -1;
}

static const struct qs_source_ops file_ops = {"file", file_read_page, file_close, NULL, NULL, file_read_run};

int qs_source_read(struct qs_arena *a, struct qs_frame *f, void *dst) {
    struct qs_source *s = &a->sources[f->source];
    if (s->ops == NULL) return -EBADF;
    return s->ops->read_page(s, f->page_no, dst, a->frame_size);
}

/* Opens `path` read-only as a page source whose page 0 is at base_offset. Returns the source id
 * (>= 0) or -errno. */
QS_EXPORT int qs_source_open_file(struct qs_arena *a, const char *path, uint64_t base_offset) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    pthread_mutex_lock(&a->ctl_lock);
    int id = -EMFILE;
    for (int k = 0; k < QS_MAX_SOURCES; k++) {
        if (a->sources[k].ops == NULL) {
            a->sources[k].fd = fd;
            a->sources[k].base_offset = base_offset;
            a->sources[k].page_size = a->frame_size;
            atomic_thread_fence(memory_order_release);
            a->sources[k].ops = &file_ops;
            id = k;
            break;
        }
    }
    pthread_mutex_unlock(&a->ctl_lock);
    if (id < 0) close(fd);
    return id;
}

/* Loads frame i from its source (caller holds LOADING): read, count, verify the page checksum when the
 * arena verifies, relocate its pointers when the frame is marked for relocation (qs_xlate.c). Shared by
 * the fault path and qs_prefetch. Returns 0 or a refusal reason (QS_R_IO with *err, QS_R_CHECKSUM).
 * [signal-safe] */
int qs_load_frame(struct qs_arena *a, uint64_t i, int *err) { return qs_load_frame_locked(a, i, 0, err); }

/* [signal-safe] A free load buffer (its index), or -1 when all QS_SCRATCH are in use. */
static int scratch_claim(struct qs_arena *a) {
    uint32_t free = atomic_load_explicit(&a->scratch_free, memory_order_acquire);
    while (free != 0) {
        int k = __builtin_ctz(free);
        if (atomic_compare_exchange_weak_explicit(&a->scratch_free, &free, free & ~(1u << k), memory_order_acquire,
                                                  memory_order_acquire))
            return k;
    }
    return -1;
}

static void scratch_release(struct qs_arena *a, int k) {
    atomic_fetch_or_explicit(&a->scratch_free, 1u << k, memory_order_release);
}

/* [signal-safe] pwrite len bytes into the memfd at off; 0 or -errno. */
int qs_memfd_write(struct qs_arena *a, const uint8_t *p, size_t len, off_t off) {
    size_t done = 0;
    while (done < len) {
        ssize_t r = pwrite(a->memfd, p + done, len - done, off + (off_t)done);
        if (r < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        done += (size_t)r;
    }
    return 0;
}

/* [signal-safe] The load of frame i from the file source s through load buffer k: pread into the buffer, the
 * checksum checked there, then pwrite into the frame's memfd bytes. It takes no page faults on the alias view
 * (a pread into the alias fills two page-table entries per 8 KiB frame; docs/native.md "Loads through a
 * buffer"). Same results as qs_source_read + qs_finish_load for a frame that is neither relocated nor under
 * Texas; a page that fails its checksum is written into the frame too (as there), then refused. */
static int load_through_buffer(struct qs_arena *a, uint64_t i, struct qs_source *s, int k, int *err) {
    struct qs_frame *f = qs_frame_at(a, i);
    uint8_t *buf = a->scratch + ((uint64_t)k << a->frame_shift);
    int rc = file_read_page(s, f->page_no, buf, a->frame_size);
    if (rc < 0) { *err = -rc; return QS_R_IO; }
    qs_count(a, QS_C_BYTES_READ, a->frame_size);
    int bad = atomic_load_explicit(&a->verify, memory_order_relaxed) && !qs_page_verify(buf, a->frame_size);
    rc = qs_memfd_write(a, buf, a->frame_size, (off_t)(i << a->frame_shift));
    if (rc < 0) { *err = -rc; return QS_R_IO; }
    if (bad) { *err = 0; return QS_R_CHECKSUM; }
    atomic_fetch_add_explicit(&f->loads, 1, memory_order_relaxed);
    return 0;
}

/* As qs_load_frame, asking the source for a page lock of `mode` with the page when the arena locks and the
 * source can (a page server under locking); a refused lock is QS_R_LOCK. [signal-safe] */
int qs_load_frame_locked(struct qs_arena *a, uint64_t i, int mode, int *err) {
    struct qs_frame *f = qs_frame_at(a, i);
    uint8_t *dst = qs_alias_addr(a, i);
    struct qs_source *s = &a->sources[f->source];
    int rc;
    if (mode != 0 && atomic_load_explicit(&a->locking, memory_order_acquire) && s->ops != NULL &&
        s->ops->read_page_locked != NULL) {
        rc = s->ops->read_page_locked(s, f->page_no, mode, dst, a->frame_size);
    } else if (s->ops == &file_ops && !(atomic_load_explicit(&f->flags, memory_order_relaxed) & QS_F_RELOCATED) &&
               atomic_load_explicit(&a->texas, memory_order_acquire) == NULL &&
               atomic_load_explicit(&a->allocating, memory_order_acquire) == 0) {
        int k = scratch_claim(a);
        if (k >= 0) {
            rc = load_through_buffer(a, i, s, k, err);
            scratch_release(a, k);
            return rc;
        }
        rc = qs_source_read(a, f, dst);
    } else {
        rc = qs_source_read(a, f, dst);
    }
    if (rc == -EDEADLK || rc == -EBUSY) { *err = -rc; return QS_R_LOCK; }
    if (rc < 0) { *err = -rc; return QS_R_IO; }
    return qs_finish_load(a, i, err);
}

/* The part of a load after the bytes are in the alias (frame i held LOADING): count, verify the page
 * checksum when the arena verifies, relocate, swizzle (Texas). Shared with read-ahead (qs_readahead.c).
 * Returns 0 or QS_R_CHECKSUM. [signal-safe] */
int qs_finish_load(struct qs_arena *a, uint64_t i, int *err) {
    struct qs_frame *f = qs_frame_at(a, i);
    uint8_t *dst = qs_alias_addr(a, i);
    qs_count(a, QS_C_BYTES_READ, a->frame_size);
    if (atomic_load_explicit(&a->verify, memory_order_relaxed) && !qs_page_verify(dst, a->frame_size)) {
        *err = 0;
        return QS_R_CHECKSUM;
    }
    if (atomic_load_explicit(&f->flags, memory_order_relaxed) & QS_F_RELOCATED) qs_xlate_page(a, i);
    if (atomic_load_explicit(&a->texas, memory_order_acquire) != NULL) qs_texas_swizzle_loaded(a, i);
    atomic_fetch_add_explicit(&f->loads, 1, memory_order_relaxed);
    return 0;
}

/* Locks the page of resident frame i (caller holds it BUSY) when the arena locks and its source can: 0 when
 * the cached copy is current (or nothing to lock), 1 when the server's page LSN differs from the cached
 * copy's (page header offset 16: another client committed it since; the caller reloads it), or a refusal
 * reason (QS_R_LOCK, QS_R_IO) with *err. [signal-safe] */
int qs_page_lock(struct qs_arena *a, uint64_t i, int mode, int *err) {
    struct qs_frame *f = qs_frame_at(a, i);
    struct qs_source *s = &a->sources[f->source];
    if (!atomic_load_explicit(&a->locking, memory_order_acquire) || s->ops == NULL || s->ops->lock_page == NULL)
        return 0;
    uint64_t lsn = 0;
    int rc = s->ops->lock_page(s, f->page_no, mode, &lsn);
    if (rc == -EDEADLK || rc == -EBUSY) { *err = -rc; return -QS_R_LOCK; }
    if (rc < 0) { *err = -rc; return -QS_R_IO; }
    uint64_t cached;
    memcpy(&cached, qs_alias_addr(a, i) + 16, 8);
    return cached != lsn;
}
