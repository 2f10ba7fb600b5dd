/*
 * qs_minor.c - cold loads mapped by userfaultfd minor faults instead of mprotect (docs/native.md "Cold loads by
 * minor faults"; docs/results.md "A cold read fault through userfaultfd's minor faults").
 *
 * QuickStore's load (White and DeWitt 1994, section 3.1) makes a frame accessible with mprotect once its page is
 * in memory. On Linux each such mprotect in the middle of the application view splits the view's mapping (an
 * island per run of loaded frames, the vm.max_map_count limit of design notes section 4), and the page-table entries
 * come afterwards, by a minor fault per OS page when the restarted access touches them.
 *
 * With minor faults on, the application view has the clean protection from the start (PROT_READ; read-write under card
 * marking when that was selected first) and is registered with a userfaultfd for missing and minor faults
 * (UFFD_FEATURE_MINOR_SHMEM, Linux 5.14) with UFFD_FEATURE_SIGBUS: an access to a frame whose pages are not mapped in
 * the view - every frame never loaded, since nothing else maps them there - raises SIGBUS in the faulting thread (no
 * resolver thread: the handler in qs_signal.c / qs_fault.c runs as for SIGSEGV). The load fills the memfd as before
 * (through the alias or pwrite: the page is then in the memfd's page cache) and UFFDIO_CONTINUE maps the frame's pages
 * into the view, with the view's protection: no split mapping, no minor fault after it. The load still calls mprotect
 * with the clean protection (qs_fault.c) unless the frame's view is untouched (qs_view_untouched): the clock may have
 * reprotected or evicted the frame between the access and the handler, and on a range that has it already the call
 * changes nothing. Fault-around is off for such a mapping (the kernel maps nothing a fault did not ask for).
 *
 * Invariant (why a frame never loaded cannot be read as zeros): in a registered range a frame's pages are mapped
 * only by UFFDIO_CONTINUE after its load, or by the kernel's ordinary fault on a frame that was resident and made
 * readable again; a frame leaves residency with its memory punched out, which unmaps its pages from the view, either
 * keeping the clean protection (qs_zaps: its next access is a missing fault, SIGBUS) or by mprotect(PROT_NONE)
 * (SIGSEGV from then on, as without minor faults). The clocks disable a resident frame's access by zapping its
 * page-table entries (qs_disable_run) under the same condition. Frames remapped by mmap(MAP_FIXED) (a refusal's
 * scratch page, Texas) are new, unregistered mappings and behave as without minor faults; a repair's new mapping is
 * registered again (qs_minor_reregister).
 *
 * Conditions (qs_arena_set_minor_faults refuses otherwise): a store arena, no frame resident yet, not kernel write
 * tracking (one userfaultfd per range: qs_kwp.c registers the same view). The caller also makes sure that our
 * handler runs first (qs_signal_mode() == 1; Java's FrameLoading.selectMinorFaults checks it, since qs_signal.c
 * calls into the fault path and this file must not call back): chained behind HotSpot (libjsig), a SIGBUS at an
 * access of compiled code that HotSpot marks as an unsafe access would be taken by HotSpot as a truncated file.
 *
 * qs_minor_map is ASYNC-SIGNAL-SAFE (one ioctl); qs_arena_set_minor_faults is control plane (ctl_lock).
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

/* Turns minor faults on for arena a (see the file comment). Returns 0, -EBUSY (a frame is resident, kernel write
 * tracking is on, or minor faults are on already), -ENOTSUP (not a store arena), or the kernel's -errno: ENOSYS (no
 * userfaultfd), EPERM (forbidden, e.g. by seccomp), EINVAL (a kernel without minor faults on shared memory). On an
 * error nothing changed: the arena loads by mprotect. */
QS_EXPORT int qs_arena_set_minor_faults(struct qs_arena *a) {
    if (a->mode != QS_MODE_STORE) return -ENOTSUP;
    pthread_mutex_lock(&a->ctl_lock);
    int rc = 0;
    if (a->minor_uffd >= 0 || a->kwp || atomic_load(&a->resident) != 0) {
        rc = -EBUSY;
        goto out;
    }
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (fd < 0) {
        rc = -errno;
        goto out;
    }
    struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_SIGBUS | UFFD_FEATURE_MINOR_SHMEM};
    struct uffdio_register reg = {.range = {.start = (uint64_t)a->app, .len = a->size},
                                  .mode = UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_MINOR};
    if (ioctl(fd, UFFDIO_API, &api) != 0 || ioctl(fd, UFFDIO_REGISTER, &reg) != 0) {
        rc = -errno;
        close(fd);
        goto out;
    }
    /* registered first, accessible second: no frame is resident, so no page of the view is mapped yet; the clean
     * protection (read-write under card marking, selected before), so that a load changes no protection */
    if (mprotect(a->app, a->size, a->clean_prot) != 0) {
        rc = -errno;
        close(fd); /* closing unregisters */
        goto out;
    }
    a->os_page = (uint32_t)sysconf(_SC_PAGESIZE);
    a->minor_uffd = fd;
out:
    pthread_mutex_unlock(&a->ctl_lock);
    return rc;
}

/* Registers frame i's range again, for missing and minor faults, after qs_restore_view mapped the memfd anew over a
 * refused frame's scratch page: the new mapping is not registered, and a punched page would be mapped anew (zeros)
 * by the kernel's ordinary fault instead of raising SIGBUS. On failure the arena stops zapping and evicting without
 * mprotect (minor_unregistered, qs_zaps); its loads still work (CONTINUE gives ENOENT there, the ordinary fault maps
 * a loaded page). Nothing when minor faults are off. [signal-safe] */
void qs_minor_reregister(struct qs_arena *a, uint64_t i) {
    if (a->minor_uffd < 0) return;
    struct uffdio_register reg = {.range = {.start = (uint64_t)qs_app_addr(a, i), .len = a->frame_size},
                                  .mode = UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_MINOR};
    if (ioctl(a->minor_uffd, UFFDIO_REGISTER, &reg) != 0) atomic_store(&a->minor_unregistered, 1);
}

/* 1 if minor faults are on (qs_arena_set_minor_faults succeeded), else 0. */
QS_EXPORT int qs_arena_minor_faults(struct qs_arena *a) { return a->minor_uffd >= 0; }

/* Maps frames [i, i+n) of the view from the memfd's page cache (their pages must be there: loaded), with the view's
 * protection. Nothing when minor faults are off, or where the range is not in the registered mapping (a frame remapped
 * by mmap, see the file comment: the kernel's ordinary fault maps its pages). An OS page mapped already is stepped
 * over (EEXIST: another thread's restarted access, or a frame that was resident and faulted in the ordinary way):
 * UFFDIO_CONTINUE stops at the first such page, so the rest of the range is asked for again after it. Returns 0 or
 * errno. [signal-safe] */
int qs_minor_map(struct qs_arena *a, uint64_t i, uint64_t n) {
    if (a->minor_uffd < 0) return 0;
    uint64_t start = (uint64_t)qs_app_addr(a, i), end = start + (n << a->frame_shift);
    while (start < end) {
        struct uffdio_continue c = {.range = {.start = start, .len = end - start}};
        if (ioctl(a->minor_uffd, UFFDIO_CONTINUE, &c) == 0) return 0;
        if (errno == EAGAIN && c.mapped > 0) start += (uint64_t)c.mapped; /* stopped short: ask for the rest */
        else if (errno == EAGAIN) return 0; /* the mm is changing: what stays unmapped faults again, is mapped then */
        else if (errno == EEXIST) start += a->os_page;                    /* mapped already: step over it */
        else if (errno == ENOENT) return 0; /* not (wholly) in the registered view: the ordinary fault maps it */
        else return errno;
    }
    return 0;
}
