/*
 * qs_api.h - the exported C API of libquickstore (its ABI version: QS_ABI_VERSION in qs_version.c), bound from Java in
 * dev.quickstore.mmu.MappedArena / NativeCalls. Negative int returns are -errno.
 */
#ifndef QS_API_H
#define QS_API_H
#include <stdint.h>

struct qs_arena;

int qs_abi_version(void);
const char *qs_build_info(void);

/* arena (qs_arena.c) */
int qs_arena_open(uint64_t size, uint32_t frame_size, uint64_t preferred_base, int mode, struct qs_arena **out);
void qs_arena_close(struct qs_arena *a);
uint64_t qs_arena_base(struct qs_arena *a);
uint64_t qs_arena_alias(struct qs_arena *a);
uint64_t qs_arena_size(struct qs_arena *a);
uint32_t qs_arena_frame_size(struct qs_arena *a);
int qs_arena_at_preferred(struct qs_arena *a);
uint64_t qs_arena_pending_addr(struct qs_arena *a);
uint64_t qs_arena_pressure(struct qs_arena *a);
uint64_t qs_arena_resident(struct qs_arena *a);
void qs_arena_set_verify(struct qs_arena *a, int on);
void qs_arena_set_txn(struct qs_arena *a, int on);
void qs_arena_set_budgets(struct qs_arena *a, uint64_t max_resident, uint64_t preimage_bytes);

/* frame table (qs_frames.c) */
int64_t qs_reserve(struct qs_arena *a, uint64_t first, uint64_t n, uint32_t source, uint64_t first_page);
int64_t qs_release(struct qs_arena *a, uint64_t first, uint64_t n);
#define QS_EVICT_DISCARD 1     /* also drop DIRTY frames and their pre-images */
#define QS_EVICT_KEEP_MEMORY 2 /* keep the frames' memory allocated (no punch) for their next load */
int64_t qs_evict(struct qs_arena *a, uint64_t first, uint64_t n, int flags);
int64_t qs_populate(struct qs_arena *a, uint64_t first, uint64_t n);
int64_t qs_allocate(struct qs_arena *a, uint64_t first, uint64_t n);
int64_t qs_reset_refused(struct qs_arena *a, uint64_t first, uint64_t n);
int64_t qs_reprotect_all(struct qs_arena *a);
int64_t qs_reprotect(struct qs_arena *a, uint64_t first, uint64_t n);
uint32_t qs_frame_state(struct qs_arena *a, uint64_t i);
uint64_t qs_frame_page(struct qs_arena *a, uint64_t i);
uint32_t qs_frame_source(struct qs_arena *a, uint64_t i);
uint32_t qs_frame_loads(struct qs_arena *a, uint64_t i);
int64_t qs_dirty_list(struct qs_arena *a, uint64_t from, uint64_t *out, uint64_t max);
uint64_t qs_preimage_of(struct qs_arena *a, uint64_t i);
int qs_mark_clean(struct qs_arena *a, uint64_t i);
/* commit's reprotection: one mprotect per run of listed frames and read-only frames between them (ABI 8) */
int64_t qs_mark_clean_list(struct qs_arena *a, const uint64_t *frames, uint64_t n, uint32_t bridge);
/* the same, handing each cleaned frame's pre-image slot to the caller instead of freeing it; released with
 * qs_preimage_release_list (ABI 13) */
int64_t qs_mark_clean_list_detach(struct qs_arena *a, const uint64_t *frames, uint64_t n, uint32_t bridge,
                                  uint64_t *slots, uint64_t *addrs);
int64_t qs_preimage_release_list(struct qs_arena *a, const uint64_t *slots, uint64_t n);
int qs_prefetch(struct qs_arena *a, uint64_t i, int *err);
/* the store's own access to frame i, resolved exactly as an application fault on it would be (ABI 8) */
int qs_touch(struct qs_arena *a, uint64_t i, int is_write);
/* the store's own I/O through the alias view (ABI 3) */
int qs_install(struct qs_arena *a, uint64_t i, const void *src);
int qs_mark_dirty(struct qs_arena *a, uint64_t i);
int qs_mark_dirty_alias(struct qs_arena *a, uint64_t i);
int64_t qs_mark_dirty_run(struct qs_arena *a, uint64_t lo, uint64_t n); /* ABI 14 */
int64_t qs_make_new(struct qs_arena *a, uint64_t lo, uint64_t n, uint64_t installs); /* ABI 20 */
int64_t qs_resident_list(struct qs_arena *a, uint64_t from, uint64_t *out, uint64_t max);
int64_t qs_repair_refused(struct qs_arena *a, uint64_t first, uint64_t n);
/* write detection: card marking beside page protection (qs_cards.c; ABI 6) */
int qs_arena_set_write_detection(struct qs_arena *a, uint32_t card_shift);
uint64_t qs_arena_cards(struct qs_arena *a);
uint32_t qs_arena_card_shift(struct qs_arena *a);
int qs_mark_card(struct qs_arena *a, uint64_t off);
/* kernel write tracking (qs_kwp.c; ABI 15): qs_arena_set_write_detection(a, 0x200) selects it */
int qs_kwp_probe(void);
int64_t qs_kwp_collect(struct qs_arena *a, int mode, uint64_t *out, uint64_t max);
int64_t qs_kwp_settle(struct qs_arena *a, const uint64_t *frames, const uint64_t *slots, const uint8_t *keep, uint64_t n);
int64_t qs_kwp_mask(struct qs_arena *a, uint64_t i);
int32_t qs_kwp_page_bytes(void);
/* cold loads mapped by userfaultfd minor faults instead of mprotect (qs_minor.c; ABI 18) */
int qs_arena_set_minor_faults(struct qs_arena *a);
int qs_arena_minor_faults(struct qs_arena *a);

/* replacement (qs_clock.c, ABI 6): QS_POLICY_FALLBACK 0, QS_POLICY_SIMPLIFIED 1, QS_POLICY_CLASSIC 2 */
int qs_arena_set_policy(struct qs_arena *a, int policy);
int64_t qs_clock_evict(struct qs_arena *a);
int qs_frame_hold(struct qs_arena *a, uint64_t i, uint32_t bits, int on); /* QS_F_PINNED 0x20, QS_F_WAL 0x40 */

/* sources, checksums, translation, counters, signals */
int qs_source_open_file(struct qs_arena *a, const char *path, uint64_t base_offset);
int qs_source_open_socket(struct qs_arena *a, int fd, uint32_t timeout_ms); /* page server, qs_wire.h */
int qs_source_broken(struct qs_arena *a, int id);
/* the page-server connection's control-plane half (qs_socket.c; ABI 7): connect, handshake bytes, close */
int qs_socket_dial(uint32_t ipv4, uint32_t port, uint32_t timeout_ms);
int qs_socket_send(int fd, const void *p, uint64_t n, uint32_t timeout_ms);
int qs_socket_recv(int fd, void *p, uint64_t n, uint32_t timeout_ms);
int qs_socket_close(int fd);
void qs_arena_set_locking(struct qs_arena *a, int on); /* page locks from the fault path (ABI 7) */
int qs_arena_set_readahead(struct qs_arena *a, uint32_t frames); /* clustered read-ahead, 0..64 frames (qs_readahead.c) */
void qs_test_readahead_alias(struct qs_arena *a, uint32_t on); /* tests: runs read into the alias, not a buffer */
int qs_arena_set_writeahead(struct qs_arena *a, uint32_t frames); /* write-ahead of a stream of writes, 0..64 frames (qs_fault.c) */
uint32_t qs_crc32c(const void *p, uint64_t n);
uint32_t qs_crc32c_impl(const void *p, uint64_t n, int impl); /* 0 table, 1 default dispatch, 2 SSE4.2 one stream */
int qs_crc32c_has_hw(void); /* 0 table only, 1 SSE4.2, 2 SSE4.2 + PCLMUL (three streams) */
int qs_page_check(const void *page, uint64_t n);
/* the changed byte ranges of a page against its pre-image (qs_diff.c; ABI 16): returns 2 * ranges + partial */
int64_t qs_page_diff(const void *before, const void *after, int64_t n, int32_t max_gap, int64_t stop_at,
                     int32_t *out, int32_t cap);
/* the longest run of bytes moved inside a page, from the move search's anchors (qs_diff.c; ABI 16): 1 if found */
int32_t qs_move_find(const void *before, const void *after, int64_t n, int32_t floor, const int32_t *anchors,
                     int32_t count, int32_t near_shift, int32_t max_shift, int32_t min_move, int32_t max_candidates,
                     int64_t *best);
int qs_xlate_table_add(struct qs_arena *a, const uint64_t *lo, const uint64_t *hi, const int64_t *delta, uint32_t n);
int qs_frame_set_relocation(struct qs_arena *a, uint64_t i, const uint8_t *bitmap, int table);
uint64_t qs_xlate_lookup(struct qs_arena *a, int table, uint64_t v);
int qs_counters(struct qs_arena *a, uint64_t *out, int n);
/* Texas mode (qs_texas.c, ABI 9): persistent pointers swizzled at fault time, frames reserved one step ahead */
int qs_texas_enable(struct qs_arena *a, uint32_t source, uint64_t max_pages, uint64_t first_frame);
int64_t qs_texas_frame(struct qs_arena *a, uint64_t page, int reserve);
int64_t qs_texas_swizzle(struct qs_arena *a, void *image, uint64_t len);
int64_t qs_texas_unswizzle(struct qs_arena *a, void *image, uint64_t len);
uint64_t qs_texas_to_runtime(struct qs_arena *a, uint64_t word);
uint64_t qs_texas_to_disk(struct qs_arena *a, uint64_t address);
int qs_texas_counters(struct qs_arena *a, uint64_t *out, int n);
int qs_refusal_take(struct qs_arena *a, uint64_t *out);
int qs_signal_install(void);
int qs_signal_uninstall(void);
int qs_signal_mode(void);
uint64_t qs_signal_forwarded(void);
#endif
