/*
 * qs_arena.h - shared structures of the QuickStore/J native data plane.
 *
 * Design (after White & DeWitt, "QuickStore", SIGMOD 1994, section 3.1 virtual frames vs buffer
 * frames, 3.3 page descriptors, 3.4 pointer swizzling via relocation maps, 3.5 simplified clock that
 * reprotects the whole space; Kakkad & Wilson, "Texas" 1999, swizzling at page-fault time and
 * reserving frames one step ahead):
 *
 *  - An arena is a large virtual range (the *application view*) divided into frames of frame_size
 *    bytes (a power of two >= the OS page). It is a MAP_SHARED mapping of one memfd, PROT_NONE by
 *    default. The same memfd is mapped a second time read-write (the *alias view*): the store fills,
 *    diffs and writes back pages through the alias, so a frame becomes accessible only after its
 *    bytes are complete (design-notes section 4).
 *  - Each frame has a descriptor (struct qs_frame) readable by C without Java. Its `state` word is
 *    the only synchronisation between a faulting thread and the control plane (Java downcalls):
 *    transient states (LOADING, BUSY) are entered and left inside one native call or one signal
 *    handler invocation, never across a return to Java (design-notes section 2, rule 2).
 *  - The SIGSEGV handler (qs_fault.c) is async-signal-safe: raw syscalls, memcpy, C11 atomics,
 *    futex waits on transient states only. It never calls or waits for Java.
 */
#ifndef QS_ARENA_H
#define QS_ARENA_H

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <pthread.h>

/* ---- frame states (the futex word struct qs_frame.state) ---------------------------------- */
enum qs_state {
    QS_FREE = 0,     /* no page assigned; PROT_NONE. A fault is refused (NOT_RESERVED / RELEASED). */
    QS_RESERVED = 1, /* page assigned, bytes not resident; PROT_NONE (or, under minor faults, the clean protection
                      * with nothing mapped: QS_F_VIEW_TOUCHED clear). A fault loads it.                    */
    QS_LOADING = 2,  /* transient: one thread (fault handler or qs_prefetch) is filling the frame.  */
    QS_CLEAN = 3,    /* resident, PROT_READ (or PROT_NONE if QS_F_PROTNONE; unmapped if QS_F_ZAPPED).     */
    QS_DIRTY = 4,    /* resident, pre-image captured, PROT_READ|WRITE (or NONE / unmapped, as CLEAN).      */
    QS_BUSY = 5,     /* transient: a protection/eviction/upgrade change is in progress.             */
    QS_REFUSED = 6,  /* a fault was refused: a scratch page is mapped over the frame.              */
};

/* A thread that waits for a transient state sets this bit in the state word first, so the owner
 * calls FUTEX_WAKE only when someone waits (an unconditional wake costs a syscall, ~0.2 us, on every
 * unlock). Only a transient state (LOADING, BUSY) ever carries it: qs_frame_unlock replaces the whole
 * word. Compare states through qs_state(). */
#define QS_WAITERS 0x80000000u
static inline uint32_t qs_state(uint32_t word) { return word & ~QS_WAITERS; }

/* ---- frame flags (struct qs_frame.flags) ---------------------------------------------------- */
#define QS_F_PROTNONE   0x1u  /* resident but reprotected to PROT_NONE by reprotectAll/collapse */
#define QS_F_REF        0x2u  /* faulted in / referenced since the last whole-arena reprotection */
#define QS_F_RELOCATED  0x4u  /* pointer map + translation table apply when the page is loaded  */
#define QS_F_RELEASED   0x8u  /* frame was released (a fault reports RELEASED, not NOT_RESERVED) */
#define QS_F_SCRATCH_COW 0x10u /* REFUSED frame carries a private copy-on-write copy, not zeros  */
#define QS_F_WHOLE      0x80u /* card marking: dirtied by qs_mark_dirty or a write fault, not the barrier: diff it whole */
#define QS_F_VIEW_RO    0x100u /* DIRTY through the alias only (qs_mark_dirty_alias): the application view is still
                                  * PROT_READ; the application's first store faults and opens it (qs_fault.c) */
/* kernel write tracking (qs_kwp.c): */
#define QS_F_TWIN       0x200u /* CLEAN, READ|WRITE, and preimage_slot holds the page as last committed (its twin):
                                  * a store is recorded by the kernel (uffd-wp), not by a fault */
#define QS_F_OPEN       0x400u /* CLEAN and still READ|WRITE after a commit's clean point, until qs_kwp_settle gives
                                  * it its twin or write-protects it */
#define QS_F_KMASK      0x800u /* DIRTY from a twin, every store since through the application view: kwp_mask lists
                                  * the OS pages of the frame the kernel saw written (commit diffs only those) */
/* The frame's range of the application view may differ from the clean protection with nothing mapped: the frame was
 * resident or REFUSED (set by qs_frame_unlock), or made PROT_NONE while not resident (qs_reprotect_range, drop_run).
 * Cleared only by an eviction that leaves the view with the clean protection and punches the frame's memory (qs_zaps:
 * view_drop in qs_clock.c, drop_run). Under minor faults a RESERVED frame without it has the view as the selection
 * left it: the clean protection, registered, none of its pages mapped; its load then needs no mprotect
 * (qs_view_untouched). */
#define QS_F_VIEW_TOUCHED 0x1000u
/* CLEAN (or DIRTY since), its access disabled by a clock under minor faults by zapping its page-table entries in the
 * view (MADV_DONTNEED) instead of PROT_NONE (qs_zaps; a clock leaves DIRTY frames alone there): the view keeps its
 * protection, the next access takes a minor fault (SIGBUS) that maps the pages again and is the frame's reference
 * (qs_fault.c). Cleared by that reference and when the frame leaves residency. */
#define QS_F_ZAPPED     0x2000u
/* a clock's "access disabled": the frame's next access through the view faults and sets QS_F_REF */
#define QS_F_DISABLED   (QS_F_PROTNONE | QS_F_ZAPPED)
/* Holds set by Java (qs_frame_hold, ABI 6): the fault path's clock never evicts a held frame. */
#define QS_F_PINNED     0x20u /* fixed by the running store operation (its alias slice is in use)  */
#define QS_F_WAL        0x40u /* disk-dirty: committed changes only in the log; Java writes it back */
#define QS_F_HOLDS      (QS_F_PINNED | QS_F_WAL)

/* ---- refusal reasons (also RefusalReason in Java; keep in sync) ------------------------------ */
enum qs_reason {
    QS_R_NONE = 0,
    QS_R_CHECKSUM = 1,     /* CRC32C of the page did not match its header                  */
    QS_R_IO = 2,           /* the page source failed (errno recorded) or returned short    */
    QS_R_NOT_RESERVED = 3, /* the frame was never reserved for a page                      */
    QS_R_RELEASED = 4,     /* the frame was released                                       */
    QS_R_NO_TXN = 5,       /* the arena is not in a transaction                            */
    QS_R_VMA_LIMIT = 6,    /* mprotect/mmap failed with ENOMEM: vm.max_map_count reached   */
    QS_R_LOST = 7,         /* synthesized: refusal records overflowed the ring             */
    QS_R_PREIMAGE = 8,     /* no pre-image slot could be mapped                             */
    QS_R_LOCK = 9,         /* the page server refused the page lock (deadlock, lock wait)  */
};

/* One page descriptor (QuickStore section 3.3), 64 bytes. Fields other than state/flags/counters
 * are written only by the owner of a transient state (or by a control-plane call that holds the
 * frame BUSY) and published by the release store that leaves the transient state. */
struct qs_frame {
    _Atomic uint32_t state;     /* enum qs_state; futex word                                     */
    _Atomic uint32_t flags;     /* QS_F_*                                                         */
    uint64_t page_no;           /* page number within its source                                  */
    uint16_t source;            /* index into arena->sources                                      */
    uint16_t xlate_table;       /* translation table id (valid with QS_F_RELOCATED)               */
    uint32_t preimage_slot;     /* 0 = none, QS_PRE_ZERO, else slot index + 1 (qs_preimage.c)     */
    uint32_t prior_state;       /* state before a refusal (to restore on reset)                   */
    uint32_t reason;            /* last refusal reason                                            */
    _Atomic uint32_t faults;    /* faults taken on this frame                                     */
    _Atomic uint32_t loads;     /* times the page was read from its source into this frame        */
    uint64_t kwp_mask;          /* with QS_F_KMASK: bit k = OS page k of the frame written (qs_kwp.c)   */
    uint64_t reserved_[2];
};
_Static_assert(sizeof(struct qs_frame) == 64, "frame descriptor is one cache line");

/* ---- page sources (qs_source.c) ------------------------------------------------------------- */
struct qs_source;
/* Operations of a page source. read_page must be async-signal-safe (it runs in the fault path):
 * fill dst[0..len) with the bytes of page page_no or return -errno (negative). A socket source to a
 * page-server process implements the same table with send/recv on a connected socket. */
struct qs_source_ops {
    const char *name;
    int (*read_page)(struct qs_source *s, uint64_t page_no, void *dst, size_t len);
    void (*close)(struct qs_source *s);
    /* page locking (a page server under ESM-style locking; NULL for sources without locks): read the page
     * under a lock of `mode` (QS_LOCK_S, QS_LOCK_X), or only lock it and learn its current LSN (*lsn).
     * -EDEADLK or -EBUSY: the server refused the lock (deadlock, lock wait timeout); the connection stays
     * usable. [signal-safe] */
    int (*read_page_locked)(struct qs_source *s, uint64_t page_no, int mode, void *dst, size_t len);
    int (*lock_page)(struct qs_source *s, uint64_t page_no, int mode, uint64_t *lsn);
    /* read-ahead (qs_readahead.c; NULL for sources that serve one page per request): read up to `len`
     * bytes of consecutive pages starting at page_no with one request; returns the bytes read (short at
     * the end of the source) or -errno. [signal-safe] */
    int64_t (*read_run)(struct qs_source *s, uint64_t page_no, void *dst, size_t len);
};
#define QS_LOCK_S 1
#define QS_LOCK_X 2
struct qs_source {
    const struct qs_source_ops *ops; /* NULL = slot unused */
    int fd;
    uint64_t base_offset;            /* byte offset of page 0 in the file */
    uint32_t page_size;
    /* socket sources (qs_socket.c) */
    uint32_t timeout_ms;             /* deadline of one page request, lock wait included */
    _Atomic uint32_t lock;           /* 0 free, 1 held, 2 held with waiters; taken and released in one read */
    _Atomic uint32_t broken;         /* set after a timeout or a protocol error: every later read fails */
    _Atomic uint64_t next_id;        /* request ids on this connection */
};
#define QS_MAX_SOURCES 64

/* ---- pointer translation (qs_xlate.c) ------------------------------------------------------- */
struct qs_xrange { uint64_t lo, hi; int64_t delta; }; /* [lo, hi) -> value + delta */
struct qs_xtable { uint32_t n; uint32_t pad; struct qs_xrange r[]; }; /* sorted by lo, disjoint */
#define QS_MAX_XTABLES 1024

/* ---- counters (qs_counters.c); order = FaultCounters record components in Java ------------ */
enum qs_counter {
    QS_C_READ_FAULTS, QS_C_WRITE_FAULTS, QS_C_REF_FAULTS, QS_C_SPURIOUS, QS_C_WAITS,
    QS_C_BYTES_READ, QS_C_EVICTIONS, QS_C_FAULT_EVICTIONS, QS_C_OVERCOMMITS, QS_C_PREIMAGE_BYTES,
    QS_C_REFUSALS, QS_C_HANDLER_NS, QS_C_VMA_COLLAPSES, QS_C_FORWARDED,
    /* replacement (qs_clock.c, ABI 6) */
    QS_C_CLOCK_VICTIMS,     /* frames the clock chose and evicted (fault path or qs_clock_evict)     */
    QS_C_REPROTECT_ALLS,    /* whole-arena reprotections of the simplified clock                      */
    QS_C_CLOCK_REPROTECTED, /* resident frames whose access the clock disabled (reference bit clear)  */
    QS_C_CLOCK_RUNS,        /* mprotect calls of the classic hand (one per run of cleared frames)     */
    QS_C_CLOCK_FAILS,       /* sweeps that found no evictable frame (all dirty, held or transient)    */
    QS_C_READAHEAD,         /* frames installed by read-ahead next to a faulting frame (qs_readahead.c) */
    QS_C_WRITEAHEAD,        /* frames made writable by write-ahead (qs_fault.c) or announced (qs_frames.c) */
    QS_C_UNTOUCHED_LOADS,   /* loads that left the view's protection as it was (qs_view_untouched, ABI 19)   */
    QS_C_NEW_PAGES,         /* frames made DIRTY against the zero pre-image for new pages (qs_make_new, ABI 20) */
    QS_C_COUNT
};

/* ---- refusal records: a ring written by the handler, drained by Java (qs_refusal.c) ---------- */
struct qs_refusal {
    _Atomic uint64_t seq;  /* index+1 once complete; 0 = being written */
    _Atomic uint32_t taken;
    uint32_t reason;
    int32_t tid;
    int32_t err;           /* errno for IO / VMA_LIMIT */
    uint64_t addr, frame, page;
};
#define QS_REFUSAL_RING 256

/* ---- preimage space (qs_preimage.c) --------------------------------------------------------- */
#define QS_PRE_CHUNK_SLOTS 64
#define QS_PRE_MAX_CHUNKS 4096
/* The pre-image of a page the running transaction allocated (qs_make_new, ABI 20): the arena's one page of zeros,
 * mapped read-only, shared by every such frame - no slot, no copy, no pre-image bytes in use. Releasing it does
 * nothing; a write to it faults (nothing may write a pre-image of a new page: kernel write tracking, whose twins are
 * written, never gets one). Never on the free stack, above every real slot (QS_PRE_MAX_CHUNKS * QS_PRE_CHUNK_SLOTS). */
#define QS_PRE_ZERO UINT32_MAX
/* the most frames one qs_make_new makes new (qs_frames.c) */
#define QS_MAKE_NEW_MAX 64
struct qs_preimages {
    void *_Atomic chunk[QS_PRE_MAX_CHUNKS]; /* each QS_PRE_CHUNK_SLOTS * frame_size bytes, mmap'ed */
    _Atomic uint32_t nchunks;
    _Atomic uint64_t free_head;             /* Treiber stack: (tag << 32) | (slot + 1), 0 = empty */
    _Atomic uint32_t *next;                 /* next[slot] = slot' + 1, 0 = end; mmap'ed            */
    _Atomic uint64_t used_bytes;
    void *zero;                             /* frame_size bytes of zeros, PROT_READ: QS_PRE_ZERO's image   */
};

/* arena mode: QS_MODE_STORE is the data plane; QS_MODE_BARE is a benchmark baseline whose fault
 * handler only does mprotect (read) or an 8 KiB copy + mprotect (write). */
/* replacement policy (qs_clock.c) */
#define QS_POLICY_FALLBACK 0   /* bounded scan for an unreferenced clean frame (pre-ABI-6 behaviour)   */
#define QS_POLICY_SIMPLIFIED 1 /* QuickStore's clock: first disabled frame, else reprotect everything  */
#define QS_POLICY_CLASSIC 2    /* second chance; a bit is cleared by reprotecting the frame            */

#define QS_MODE_STORE 0
#define QS_MODE_BARE 1

#define QS_VMA_RESERVE 32
#define QS_SCRATCH 16 /* buffers of loads by pwrite (struct qs_arena.scratch); at most 32 */
#define QS_READAHEAD_MAX 64 /* the longest read-ahead run, in frames (struct qs_arena.ra_buf holds one run) */

struct qs_arena {
    /* geometry */
    uint8_t *app;               /* application view (per-frame protection)             */
    uint8_t *alias;             /* alias view (always read-write)                       */
    uint64_t size;              /* bytes                                                */
    uint64_t nframes;
    uint32_t frame_size;
    uint32_t frame_shift;
    int memfd;
    /* loads through a buffer (qs_source.c, qs_load_frame_locked): a file page is read into one of QS_SCRATCH
     * frame-sized buffers, checked there, and written into the memfd with pwrite, so the load takes no minor
     * faults on the alias view; a load that finds no buffer free reads into the alias as before */
    uint8_t *scratch;
    _Atomic uint32_t scratch_free; /* bit k set: buffer k is free */
    _Atomic uint32_t allocating;   /* qs_allocate calls in fallocate (they hold the inode lock pwrite takes) */
    int at_preferred;           /* 1 if placed at the requested base address             */
    int mode;
    _Atomic int verify;         /* verify CRC32C on load                                 */
    _Atomic int in_txn;         /* faults outside a transaction are refused              */
    _Atomic int locking;        /* page locks from the fault path (sources with lock_page) */
    _Atomic uint64_t max_resident; /* soft budget of resident frames (0 = unlimited)     */
    _Atomic uint64_t preimage_budget; /* soft budget of pre-image bytes (0 = unlimited)   */
    /* write detection (qs_cards.c; Hosking & Moss 1993): PROT_READ for page protection, PROT_READ|
     * PROT_WRITE for card marking, where an accessible clean frame is writable and the application's
     * write barrier marks cards (one byte per 2^card_shift bytes of the arena) instead of faulting. */
    int clean_prot;
    uint32_t card_shift;        /* 0 = page protection (no card table)                  */
    uint8_t *cards;             /* (size >> card_shift) bytes, mmap'ed NORESERVE         */
    /* scanning (Hosking & Moss's "scan" scheme, qs_cards.c): a frame loaded by a fault in a transaction
     * gets its pre-image at load time (it becomes DIRTY), so commit can diff every resident page */
    int preimage_on_load;
    /* kernel write tracking (qs_kwp.c; Linux 6.7+): page protection whose committed frames stay writable with
     * a twin, the kernel recording their stores (userfaultfd write-protect, asynchronous); commit asks
     * PAGEMAP_SCAN which were written. 0 = off; uffd and pagemap are open file descriptors while on. */
    int kwp;
    int uffd;
    int pagemap;
    /* cold loads by minor faults (qs_minor.c): a userfaultfd registered for missing and minor faults over the
     * application view, which is PROT_READ from the start; -1 = off (loads make frames accessible by mprotect) */
    int minor_uffd;
    /* a refused frame's range could not be registered again after its repair (qs_minor_reregister): the arena no
     * longer zaps or evicts without mprotect (qs_zaps), since an unregistered range would map a punched page anew */
    _Atomic int minor_unregistered;
    void *kwp_regions;        /* qs_kwp_collect's scan vector (mmap'ed)                  */
    size_t kwp_regions_bytes; /* its size, for qs_arena_close                            */
    uint32_t os_page;  /* the OS page size: the kernel's write-tracking granularity (qs_kwp_mask), minor maps' step */
    int kwp_broken; /* a frame's range could not be registered again: no more twins (page protection) */
    /* frames [twin_lo, twin_hi) hold every frame ever given a twin (twin_hi 0: none yet); a begin's scan covers only
     * them (every other frame written since the last commit is DIRTY, which its state records) */
    _Atomic uint64_t twin_lo, twin_hi;
    /* read-ahead (qs_readahead.c): a read fault on a RESERVED frame also loads up to readahead - 1 following
     * RESERVED frames holding the following pages of the same file source, with one read and one mprotect;
     * 0 or 1 = off */
    _Atomic uint32_t readahead;
    /* read-ahead through a buffer (qs_readahead.c): a run is read into ra_buf (QS_READAHEAD_MAX frames), checked
     * there and written into the memfd with one pwrite, as a single load goes through `scratch`, so a run takes
     * no minor faults on the alias view. Mapped (populated) by the first qs_arena_set_readahead that turns
     * read-ahead on, from the control plane; NULL before, or if that mapping failed (runs then read into the
     * alias). One run at a time holds it (ra_busy 0 -> 1); a run that finds it held reads into the alias. */
    uint8_t *_Atomic ra_buf;
    _Atomic uint32_t ra_busy;
    _Atomic uint32_t test_ra_alias; /* tests: read-ahead runs read into the alias view, never through ra_buf */
    /* tests only (test_minor.c; NULL otherwise): called by a minor fault on a resident frame before its pages are
     * mapped (phase 0) and after that map failed (phase 1), so that a test can evict and reload the frame there */
    void (*test_minor_hook)(struct qs_arena *a, uint64_t i, int phase);
    /* write-ahead (qs_fault.c): a write fault on a CLEAN frame one of whose two predecessors is DIRTY also makes up to
     * `writeahead` following CLEAN, readable frames writable (a pre-image each, one mprotect for the run);
     * 0 = off (the arena's default; the embedded store sets it, never a page-server client) */
    _Atomic uint32_t writeahead;
#define QS_WRITEAHEAD_MAX 64
    /* write faults taken since the transaction began (qs_arena_set_txn resets it): from QS_WRITEAHEAD_HEAVY on,
     * a transaction counts as write-heavy and write-ahead no longer waits for a stream (qs_fault.c) */
    _Atomic uint64_t txn_write_faults;
#define QS_WRITEAHEAD_HEAVY 32

    struct qs_frame *frames;    /* nframes descriptors, mmap'ed                          */
    uint8_t *ptrmaps;           /* nframes * (frame_size / 64) bytes of pointer bitmaps  */
    _Atomic uint64_t hwm;       /* 1 + highest frame ever reserved                       */
    /* Dirty summary (qs_dirty_list): bit g % 64 of word g / 64 is set when a frame of group g (frames
     * [64g, 64g+64)) becomes DIRTY, after its state is published; qs_dirty_list clears a group's bit before
     * it scans the group and sets it again if the group still holds a dirty frame, so a DIRTY frame's bit is
     * never clear while no scan is looking at it. A commit's list costs hwm / 4096 words plus 64 states per
     * dirty group instead of every state up to hwm. */
    _Atomic uint64_t *dirty_groups;
    /* Frames REFUSED or about to become REFUSED: incremented before a frame's state becomes REFUSED,
     * decremented after a repair ends it (a transition that forgets it only costs a scan); 0 lets
     * qs_repair_refused return without scanning. */
    _Atomic uint64_t refused_frames;
    _Atomic uint64_t resident;  /* frames holding bytes (LOADING..DIRTY)                  */
    _Atomic uint64_t hand;      /* clock hand shared by the fault path and Java (qs_clock.c) */
    _Atomic int policy;         /* QS_POLICY_*: replacement run when a load exceeds max_resident */
    _Atomic uint64_t victimless; /* loads that overcommit without a sweep after one found no victim;
                                  * reset when Java makes frames evictable (qs_clock.c) */

    /* refusal state: `pending` is the word Java checks at API boundaries */
    _Atomic uint64_t pending;
    _Atomic uint64_t ref_head;
    struct qs_refusal refusals[QS_REFUSAL_RING];
    _Atomic uint64_t pressure;  /* bumped when the fault path overcommits a budget        */

    _Atomic uint64_t counters[QS_C_COUNT];

    struct qs_source sources[QS_MAX_SOURCES];
    struct qs_xtable *_Atomic xtables[QS_MAX_XTABLES];
    _Atomic uint32_t nxtables;
    struct qs_preimages pre;
    pthread_mutex_t ctl_lock;   /* control-plane only (sources, tables, refusal draining); never in the handler */

    /* VMA reserve (design-notes 2a): single-page mappings that the refusal path unmaps when mapping its
     * scratch page fails with ENOMEM (vm.max_map_count), so that a refusal never needs a mapping the
     * kernel cannot give. Refilled by the control plane (qs_repair_refused, qs_reset_refused). */
    void *_Atomic vma_reserve[QS_VMA_RESERVE];
    uint32_t vma_reserve_bytes;
    _Atomic uint32_t test_fail_scratch; /* tests: the next n scratch mappings fail with ENOMEM */

    /* Texas mode (qs_texas.c; Kakkad & Wilson 1999): NULL unless qs_texas_enable was called */
    struct qs_texas *_Atomic texas;
};

/* ---- internal functions (hidden) -------------------------------------------------------------- */
static inline struct qs_frame *qs_frame_at(struct qs_arena *a, uint64_t i) { return &a->frames[i]; }
static inline uint8_t *qs_app_addr(struct qs_arena *a, uint64_t i) { return a->app + (i << a->frame_shift); }
static inline uint8_t *qs_alias_addr(struct qs_arena *a, uint64_t i) { return a->alias + (i << a->frame_shift); }
/* [signal-safe] frame i was published DIRTY (see dirty_groups) */
static inline void qs_dirty_note(struct qs_arena *a, uint64_t i) {
    uint64_t g = i >> 6;
    atomic_fetch_or(&a->dirty_groups[g >> 6], (uint64_t)1 << (g & 63));
}
static inline uint64_t qs_dirty_words(uint64_t nframes) { return (((nframes + 63) >> 6) + 63) >> 6; }
static inline void qs_count(struct qs_arena *a, enum qs_counter c, uint64_t n) {
    atomic_fetch_add_explicit(&a->counters[c], n, memory_order_relaxed);
}

/* futex helpers (async-signal-safe) */
void qs_futex_wait(_Atomic uint32_t *w, uint32_t expected);
void qs_futex_wake(_Atomic uint32_t *w);
/* wait until the frame leaves the transient state word `seen` (sets QS_WAITERS first) */
void qs_frame_wait(struct qs_frame *f, uint32_t seen);
int qs_gettid(void);

/* frame locking: wait until the frame is in a stable state, then CAS it to BUSY; returns the
 * stable state it was in. Used by control-plane calls (may wait: they run in native code). */
uint32_t qs_frame_lock(struct qs_arena *a, struct qs_frame *f);
void qs_frame_unlock(struct qs_frame *f, uint32_t new_state);

/* [signal-safe] unmaps up to n pages of the VMA reserve; returns how many */
uint32_t qs_vma_reserve_release(struct qs_arena *a, uint32_t n);
/* control plane: maps the missing pages of the VMA reserve; returns how many are in place */
int qs_vma_reserve_refill(struct qs_arena *a);

/* loading, shared by the fault path and qs_prefetch; caller holds LOADING. Returns 0 or a reason. */
int qs_load_frame(struct qs_arena *a, uint64_t i, int *err); /* qs_source.c */
int qs_load_frame_locked(struct qs_arena *a, uint64_t i, int mode, int *err); /* mode 0: no lock */
int qs_finish_load(struct qs_arena *a, uint64_t i, int *err); /* qs_source.c: verify, relocate after a read */
/* qs_readahead.c: claims and loads the frames after RESERVED frame i (held LOADING) with the faulting frame
 * itself in one read; returns the frames loaded (>= 1, i first) or 0 when read-ahead does not apply, or a
 * negative refusal reason for frame i (-QS_R_IO with *err, -QS_R_CHECKSUM) [signal-safe] */
int64_t qs_readahead_load(struct qs_arena *a, uint64_t i, int *err);
/* makes frames (i, i + n) CLEAN after qs_readahead_load and a successful mprotect [signal-safe] */
void qs_readahead_publish(struct qs_arena *a, uint64_t i, int64_t n);
/* returns frames (i, i + n) to RESERVED without their bytes [signal-safe] */
void qs_readahead_drop(struct qs_arena *a, uint64_t i, int64_t n);
int qs_page_lock(struct qs_arena *a, uint64_t i, int mode, int *err); /* 0, 1 = cached copy stale, or -reason */
/* replacement (qs_clock.c): evict one frame by the arena's policy (not `except`); returns the frame
 * or -1 when no frame is evictable. [signal-safe] */
int64_t qs_clock_victim(struct qs_arena *a, uint64_t except);
/* counts one more resident frame, first evicting by the policy while the budget is reached;
 * returns 1 within budget, 0 if it overcommitted (nothing evictable). [signal-safe] */
int qs_resident_acquire(struct qs_arena *a, uint64_t except);
/* Java made frames evictable (clean, unheld, evicted): the next over-budget load sweeps again */
static inline void qs_clock_retry(struct qs_arena *a) { atomic_store_explicit(&a->victimless, 0, memory_order_relaxed); }
/* reprotect [lo, hi) to PROT_NONE in runs (qs_frames.c); returns resident frames reprotected [signal-safe] */
int64_t qs_reprotect_range(struct qs_arena *a, uint64_t lo, uint64_t hi); /* qs_arena.c */
/* collapse protection islands around frame i (reprotect stable resident frames to NONE) */
uint64_t qs_collapse_around(struct qs_arena *a, uint64_t i);
/* protection change with ENOMEM recovery by collapsing islands around i; returns 0 or errno */
int qs_protect_frame(struct qs_arena *a, uint64_t i, int prot);
int qs_writeahead_allowed(struct qs_arena *a); /* qs_fault.c: write-ahead and qs_mark_dirty_run may claim frames */
int qs_claim_for_write(struct qs_arena *a, uint64_t j); /* qs_fault.c: CLEAN readable frame -> BUSY + pre-image */
/* punch the memfd bytes of frames [first, first+n) */
void qs_punch(struct qs_arena *a, uint64_t first, uint64_t n);
/* map a scratch page over frame i; cow = private copy of the frame's bytes instead of zeros */
int qs_map_scratch(struct qs_arena *a, uint64_t i, int cow);
/* restore the shared PROT_NONE mapping of frame i over a scratch page */
int qs_restore_view(struct qs_arena *a, uint64_t i);
/* record a refusal (async-signal-safe) */
void qs_refusal_record(struct qs_arena *a, uint32_t reason, int err, uint64_t addr, uint64_t frame, uint64_t page);

/* sources */
int qs_source_read(struct qs_arena *a, struct qs_frame *f, void *dst);
/* crc */
uint32_t qs_crc32c_update(uint32_t crc, const void *p, size_t n);
int qs_page_verify(const uint8_t *page, size_t n);
/* pwrite len bytes into the arena's memfd at off (loads through a buffer); 0 or -errno [signal-safe] */
int qs_memfd_write(struct qs_arena *a, const uint8_t *p, size_t len, off_t off);
/* xlate */
void qs_xlate_page(struct qs_arena *a, uint64_t i);
uint64_t qs_xlate_value(const struct qs_xtable *t, uint64_t v);
/* texas (qs_texas.c): swizzle the persistent pointers of a loaded page, reserving frames one step
 * ahead [signal-safe]; release the table at close */
struct qs_texas;
void qs_texas_swizzle_loaded(struct qs_arena *a, uint64_t i);
void qs_texas_destroy(struct qs_arena *a);
/* kernel write tracking (qs_kwp.c): whether twin frame i was stored to since its twin was taken (a page of it
 * written, or 1 if the kernel cannot tell) [signal-safe] */
int qs_kwp_written(struct qs_arena *a, uint64_t i);
/* eviction of twin frame i held BUSY: disables its access first (PROT_NONE, flag PROTNONE: no store lands after
 * the check), then returns 1 if it was written (it must stay) or 0 (it may be dropped) [signal-safe] */
int qs_kwp_stays(struct qs_arena *a, uint64_t i);
/* the argument of qs_arena_set_write_detection (qs_cards.c) that selects kernel write tracking */
#define QS_WD_KERNEL 0x200u
int qs_kwp_enable(struct qs_arena *a);
/* qs_minor.c: maps loaded frames [i, i+n) into the view when minor faults are on; 0 or errno [signal-safe] */
int qs_minor_map(struct qs_arena *a, uint64_t i, uint64_t n);
/* [signal-safe] Whether a load of frame f (held LOADING or BUSY by the caller, so no one can touch its view meanwhile)
 * may leave the application view as it is: minor faults are on and the frame's view range is as the selection left it
 * (QS_F_VIEW_TOUCHED clear): the clean protection, registered, none of its pages mapped. The load's pages are then
 * mapped by UFFDIO_CONTINUE alone; an mprotect would change nothing but still take the address space's lock for
 * writing. */
static inline int qs_view_untouched(struct qs_arena *a, struct qs_frame *f) {
    return a->minor_uffd >= 0 && !(atomic_load_explicit(&f->flags, memory_order_acquire) & QS_F_VIEW_TOUCHED);
}
/* [signal-safe] Whether the clocks disable a frame's access by zapping its page-table entries (QS_F_ZAPPED) and an
 * eviction of a CLEAN frame whose view has the clean protection only punches its memory, with no protection change
 * (docs/native.md, "Cold loads by minor faults", evictions and reference bits). Needs minor faults, so that an access
 * to a frame whose pages the view has not mapped raises SIGBUS instead of mapping the memfd's page (or a new zero page
 * after a punch); every frame's range registered (not Texas, which remaps frames; no range left unregistered by a
 * repair); and no page locking, whose first touch of a page in a transaction must come through the fault path's
 * reference fault (a minor fault maps without taking the page's lock). */
static inline int qs_zaps(struct qs_arena *a) {
    return a->minor_uffd >= 0 && atomic_load_explicit(&a->texas, memory_order_acquire) == NULL
        && !atomic_load_explicit(&a->locking, memory_order_acquire)
        && !atomic_load_explicit(&a->minor_unregistered, memory_order_relaxed);
}
/* [signal-safe] Whether evicting a frame (held by the caller; `was` its state before, `fl` its flags) leaves its view
 * as it is and only punches its memory: the arena zaps (qs_zaps) and the view has the clean protection - a CLEAN frame
 * not PROT_NONE, or a RESERVED one whose view is untouched. Its next access is then a missing fault and its reload
 * needs no mprotect (view_drop in qs_clock.c, drop_run in qs_frames.c). */
static inline int qs_eviction_keeps_view(struct qs_arena *a, uint32_t was, uint32_t fl) {
    return qs_zaps(a)
        && ((was == QS_CLEAN && !(fl & QS_F_PROTNONE)) || (was == QS_RESERVED && !(fl & QS_F_VIEW_TOUCHED)));
}
/* qs_arena.c: disables access to frames [start, start+n) held by the caller for a clock (zapped or PROT_NONE);
 * returns QS_F_ZAPPED or QS_F_PROTNONE, the flag for the run's resident frames [signal-safe] */
uint32_t qs_disable_run(struct qs_arena *a, uint64_t start, uint64_t n);
/* [signal-safe] Resident frame g (held by a clock) after qs_disable_run returned `how` over it: flagged disabled that way
 * (a frame PROT_NONE already stays so: its reference fault sets the protection) and its reference bit cleared. */
static inline void qs_frame_disabled(struct qs_frame *g, uint32_t how) {
    if (how == QS_F_PROTNONE || !(atomic_load(&g->flags) & QS_F_PROTNONE)) atomic_fetch_or(&g->flags, how);
    atomic_fetch_and(&g->flags, ~QS_F_REF);
}
/* qs_minor.c: registers frame i's range again (missing and minor faults) after qs_restore_view mapped it anew */
void qs_minor_reregister(struct qs_arena *a, uint64_t i);
/* registers frame i's range again after it was mapped anew (qs_restore_view) */
void qs_kwp_reregister(struct qs_arena *a, uint64_t i);
/* the protection of resident CLEAN frame f when accessible: a twin (or open) frame stays writable */
static inline int qs_clean_prot_of(struct qs_arena *a, struct qs_frame *f) {
    return (atomic_load(&f->flags) & (QS_F_TWIN | QS_F_OPEN)) ? PROT_READ | PROT_WRITE : a->clean_prot;
}
/* preimages */
int qs_preimage_capture(struct qs_arena *a, uint64_t i);
void qs_preimage_free(struct qs_arena *a, struct qs_frame *f);
/* ends the frame's ownership of its pre-image without freeing the slot (qs_mark_clean_list_detach): returns the
 * slot (0 = none); the bytes stay in use until qs_preimage_release */
uint32_t qs_preimage_detach(struct qs_arena *a, struct qs_frame *f);
void qs_preimage_release(struct qs_arena *a, uint32_t slot1);
void *qs_preimage_addr(struct qs_arena *a, uint32_t slot1);
void qs_preimage_destroy(struct qs_arena *a);
/* cards: clears the card bytes of frame i (no-op without a card table) [signal-safe] */
static inline void qs_cards_clear(struct qs_arena *a, uint64_t i) {
    if (a->cards == NULL) return;
    uint32_t per = 1u << (a->frame_shift - a->card_shift);
    memset(a->cards + (i << (a->frame_shift - a->card_shift)), 0, per);
}
/* registry of open arenas for the signal handler (qs_registry.c) */
struct qs_arena *qs_registry_find(const void *addr);
int qs_registry_add(struct qs_arena *a);
void qs_registry_remove(struct qs_arena *a);
/* the fault handler entry: returns 1 if handled, 0 to forward */
int qs_handle_fault(int sig, void *addr, int is_write);

#endif
