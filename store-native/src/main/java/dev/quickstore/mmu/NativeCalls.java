package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/**
 * Every downcall of the data plane, resolved once into a static final (see {@code qs_api.h} for the
 * C side). Calls that may wait for a frame in a transient state, do I/O or change mappings are
 * ordinary downcalls (the thread is in native state, so safepoints proceed); only calls that never
 * block are {@link Linker.Option#critical critical}. Results reach Java through {@link Downcall}, the one
 * checked path.
 */
final class NativeCalls {
    private NativeCalls() {}

    private static final Linker.Option CRITICAL = Linker.Option.critical(false);
    private static final Linker.Option CRITICAL_HEAP = Linker.Option.critical(true);

    private static MethodHandle h(String name, FunctionDescriptor d, Linker.Option... o) {
        return NativeLibrary.downcall(name, d, o);
    }

    static final MethodHandle ARENA_OPEN =
            h("qs_arena_open", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS));
    static final MethodHandle ARENA_CLOSE = h("qs_arena_close", FunctionDescriptor.ofVoid(JAVA_LONG));
    static final MethodHandle ARENA_BASE = h("qs_arena_base", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle ARENA_ALIAS = h("qs_arena_alias", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle ARENA_AT_PREFERRED =
            h("qs_arena_at_preferred", FunctionDescriptor.of(JAVA_INT, JAVA_LONG), CRITICAL);
    static final MethodHandle ARENA_PENDING_ADDR =
            h("qs_arena_pending_addr", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle ARENA_PRESSURE =
            h("qs_arena_pressure", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle ARENA_RESIDENT =
            h("qs_arena_resident", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle ARENA_SET_VERIFY =
            h("qs_arena_set_verify", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT), CRITICAL);
    static final MethodHandle ARENA_SET_READAHEAD =
            h("qs_arena_set_readahead", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT), CRITICAL);
    static final MethodHandle ARENA_SET_WRITEAHEAD =
            h("qs_arena_set_writeahead", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT), CRITICAL);
    static final MethodHandle ARENA_SET_LOCKING =
            h("qs_arena_set_locking", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT), CRITICAL);
    static final MethodHandle ARENA_SET_TXN =
            h("qs_arena_set_txn", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT), CRITICAL);
    static final MethodHandle ARENA_SET_BUDGETS =
            h("qs_arena_set_budgets", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);

    static final MethodHandle RESERVE =
            h("qs_reserve", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
    static final MethodHandle RELEASE =
            h("qs_release", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    static final MethodHandle EVICT =
            h("qs_evict", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT));
    static final MethodHandle POPULATE =
            h("qs_populate", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    static final MethodHandle ALLOCATE =
            h("qs_allocate", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    static final MethodHandle RESET_REFUSED =
            h("qs_reset_refused", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    static final MethodHandle REPROTECT_ALL = h("qs_reprotect_all", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    static final MethodHandle REPROTECT =
            h("qs_reprotect", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    static final MethodHandle FRAME_STATE =
            h("qs_frame_state", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle FRAME_PAGE =
            h("qs_frame_page", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle FRAME_LOADS =
            h("qs_frame_loads", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle DIRTY_LIST =
            h("qs_dirty_list", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG));
    static final MethodHandle PREIMAGE_OF =
            h("qs_preimage_of", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle MARK_CLEAN = h("qs_mark_clean", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    static final MethodHandle MARK_CLEAN_LIST =
            h("qs_mark_clean_list", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT));
    static final MethodHandle MARK_CLEAN_LIST_DETACH = h(
            "qs_mark_clean_list_detach",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle PREIMAGE_RELEASE_LIST =
            h("qs_preimage_release_list", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), CRITICAL);
    static final MethodHandle TOUCH = h("qs_touch", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    static final MethodHandle PREFETCH =
            h("qs_prefetch", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS));

    static final MethodHandle INSTALL = h("qs_install", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS));
    static final MethodHandle MARK_DIRTY = h("qs_mark_dirty", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    static final MethodHandle MARK_DIRTY_RUN =
            h("qs_mark_dirty_run", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    static final MethodHandle MARK_DIRTY_ALIAS =
            h("qs_mark_dirty_alias", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    static final MethodHandle RESIDENT_LIST =
            h("qs_resident_list", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG));
    static final MethodHandle SET_WRITE_DETECTION =
            h("qs_arena_set_write_detection", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));
    static final MethodHandle ARENA_CARDS = h("qs_arena_cards", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle MARK_CARD = h("qs_mark_card", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    static final MethodHandle KWP_PROBE = h("qs_kwp_probe", FunctionDescriptor.of(JAVA_INT));
    static final MethodHandle KWP_COLLECT =
            h("qs_kwp_collect", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    static final MethodHandle KWP_MASK =
            h("qs_kwp_mask", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle KWP_PAGE_BYTES = h("qs_kwp_page_bytes", FunctionDescriptor.of(JAVA_INT));
    static final MethodHandle KWP_SETTLE =
            h("qs_kwp_settle", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
    static final MethodHandle VMA_RESERVE_COUNT = h("qs_vma_reserve_count", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    static final MethodHandle TEST_FAIL_SCRATCH =
            h("qs_test_fail_scratch", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT));
    static final MethodHandle REPAIR_REFUSED =
            h("qs_repair_refused", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));

    static final MethodHandle SET_POLICY =
            h("qs_arena_set_policy", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT), CRITICAL);
    static final MethodHandle CLOCK_EVICT = h("qs_clock_evict", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    static final MethodHandle FRAME_HOLD =
            h("qs_frame_hold", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT), CRITICAL);

    static final MethodHandle SOURCE_OPEN_FILE =
            h("qs_source_open_file", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
    static final MethodHandle SOURCE_OPEN_SOCKET =
            h("qs_source_open_socket", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
    static final MethodHandle SOURCE_BROKEN =
            h("qs_source_broken", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT), CRITICAL);
    static final MethodHandle SOCKET_DIAL =
            h("qs_socket_dial", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    static final MethodHandle SOCKET_SEND =
            h("qs_socket_send", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    static final MethodHandle SOCKET_RECV =
            h("qs_socket_recv", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    static final MethodHandle SOCKET_CLOSE = h("qs_socket_close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    static final MethodHandle CRC32C =
            h("qs_crc32c", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), CRITICAL_HEAP);
    static final MethodHandle PAGE_DIFF = h(
            "qs_page_diff",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG, ADDRESS, JAVA_INT),
            CRITICAL_HEAP);
    static final MethodHandle MOVE_FIND = h(
            "qs_move_find",
            FunctionDescriptor.of(
                    JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT, ADDRESS),
            CRITICAL_HEAP);
    static final MethodHandle XLATE_TABLE_ADD =
            h("qs_xlate_table_add", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
    static final MethodHandle FRAME_SET_RELOCATION =
            h("qs_frame_set_relocation", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT));
    static final MethodHandle COUNTERS =
            h("qs_counters", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_INT), CRITICAL);
    // Texas mode (qs_texas.c): frame lookups and word conversions never block; image rewrites run on heap arrays
    static final MethodHandle TEXAS_ENABLE =
            h("qs_texas_enable", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
    static final MethodHandle TEXAS_FRAME =
            h("qs_texas_frame", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT), CRITICAL);
    static final MethodHandle TEXAS_SWIZZLE =
            h("qs_texas_swizzle", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), CRITICAL_HEAP);
    static final MethodHandle TEXAS_UNSWIZZLE =
            h("qs_texas_unswizzle", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), CRITICAL_HEAP);
    static final MethodHandle TEXAS_TO_RUNTIME =
            h("qs_texas_to_runtime", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle TEXAS_TO_DISK =
            h("qs_texas_to_disk", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    static final MethodHandle TEXAS_COUNTERS =
            h("qs_texas_counters", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_INT), CRITICAL);
    static final MethodHandle REFUSAL_TAKE = h("qs_refusal_take", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
    static final MethodHandle GETTID = h("qs_gettid_export", FunctionDescriptor.of(JAVA_INT), CRITICAL);

    static final MethodHandle SIGNAL_INSTALL = h("qs_signal_install", FunctionDescriptor.of(JAVA_INT));
    static final MethodHandle SIGNAL_UNINSTALL = h("qs_signal_uninstall", FunctionDescriptor.of(JAVA_INT));
    static final MethodHandle SIGNAL_MODE = h("qs_signal_mode", FunctionDescriptor.of(JAVA_INT), CRITICAL);
    static final MethodHandle SIGNAL_FORWARDED = h("qs_signal_forwarded", FunctionDescriptor.of(JAVA_LONG), CRITICAL);
}
