package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/**
 * Every downcall of the data plane (see {@code qs_api.h} for the C side), each linked on its first call. Calls
 * that may wait for a frame in a transient state, do I/O or change mappings are ordinary downcalls (the thread is
 * in native state, so safepoints proceed); only calls that never block are {@link Linker.Option#critical
 * critical}. Results reach Java through {@link Downcall}, the one checked path.
 *
 * <p><b>One holder class per downcall.</b> Each handle is the static final {@code H} of a nested class named
 * after its C function, so the JVM initialises it - looks the symbol up and links the handle - when a call site
 * first reads it, and the JIT still sees a constant. Linking is start-up time that every process pays: in a
 * fresh JVM the first handle of each distinct (descriptor, options) shape costs several milliseconds (lambda
 * forms and a stub spun and run in the interpreter; a second handle of the same shape about 0.2 ms), and the
 * 78 downcalls have 44 shapes. A process links only what it calls: a store that never serves, swizzles or
 * relocates does not link those (docs/results.md, "Downcalls linked on their first call"). The library and its
 * ABI version are still checked when the first holder is initialised ({@link NativeLibrary#lookup}); a symbol
 * the library lacks fails the first call of that function with a {@link NativeLibraryException} naming it, and
 * {@code NativeCallsTest} links every holder, so a binding that names a missing symbol fails the build.
 */
final class NativeCalls {
    private NativeCalls() {}

    private static final Linker.Option CRITICAL = Linker.Option.critical(false);
    private static final Linker.Option CRITICAL_HEAP = Linker.Option.critical(true);

    private static MethodHandle h(String name, FunctionDescriptor d, Linker.Option... o) {
        return NativeLibrary.downcall(name, d, o);
    }

    static final class ArenaOpen {
        static final MethodHandle H =
                h("qs_arena_open", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS));
    }

    static final class ArenaClose {
        static final MethodHandle H = h("qs_arena_close", FunctionDescriptor.ofVoid(JAVA_LONG));
    }

    static final class ArenaBase {
        static final MethodHandle H = h("qs_arena_base", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class ArenaAlias {
        static final MethodHandle H = h("qs_arena_alias", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class ArenaAtPreferred {
        static final MethodHandle H = h("qs_arena_at_preferred", FunctionDescriptor.of(JAVA_INT, JAVA_LONG), CRITICAL);
    }

    static final class ArenaPendingAddr {
        static final MethodHandle H = h("qs_arena_pending_addr", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class ArenaPressure {
        static final MethodHandle H = h("qs_arena_pressure", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class ArenaResident {
        static final MethodHandle H = h("qs_arena_resident", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class ArenaSetVerify {
        static final MethodHandle H =
                h("qs_arena_set_verify", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT), CRITICAL);
    }

    static final class ArenaSetReadahead {
        static final MethodHandle H =
                h("qs_arena_set_readahead", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT), CRITICAL);
    }

    static final class ArenaSetMinorFaults {
        static final MethodHandle H =
                h("qs_arena_set_minor_faults", FunctionDescriptor.of(JAVA_INT, JAVA_LONG), CRITICAL);
    }

    static final class ArenaMinorFaults {
        static final MethodHandle H = h("qs_arena_minor_faults", FunctionDescriptor.of(JAVA_INT, JAVA_LONG), CRITICAL);
    }

    static final class ArenaSetWriteahead {
        static final MethodHandle H =
                h("qs_arena_set_writeahead", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT), CRITICAL);
    }

    static final class ArenaSetLocking {
        static final MethodHandle H =
                h("qs_arena_set_locking", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT), CRITICAL);
    }

    static final class ArenaSetTxn {
        static final MethodHandle H = h("qs_arena_set_txn", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT), CRITICAL);
    }

    static final class ArenaSetBudgets {
        static final MethodHandle H =
                h("qs_arena_set_budgets", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class Reserve {
        static final MethodHandle H =
                h("qs_reserve", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
    }

    static final class Release {
        static final MethodHandle H =
                h("qs_release", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    static final class Evict {
        static final MethodHandle H =
                h("qs_evict", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT));
    }

    static final class Populate {
        static final MethodHandle H =
                h("qs_populate", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    static final class Allocate {
        static final MethodHandle H =
                h("qs_allocate", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    static final class ResetRefused {
        static final MethodHandle H =
                h("qs_reset_refused", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    static final class ReprotectAll {
        static final MethodHandle H = h("qs_reprotect_all", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    }

    static final class Reprotect {
        static final MethodHandle H =
                h("qs_reprotect", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    static final class FrameState {
        static final MethodHandle H =
                h("qs_frame_state", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class FramePage {
        static final MethodHandle H =
                h("qs_frame_page", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class FrameLoads {
        static final MethodHandle H =
                h("qs_frame_loads", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class DirtyList {
        static final MethodHandle H =
                h("qs_dirty_list", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG));
    }

    static final class PreimageOf {
        static final MethodHandle H =
                h("qs_preimage_of", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class MarkClean {
        static final MethodHandle H = h("qs_mark_clean", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    }

    static final class MarkCleanList {
        static final MethodHandle H =
                h("qs_mark_clean_list", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    static final class MarkCleanListDetach {
        static final MethodHandle H = h(
                "qs_mark_clean_list_detach",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
    }

    static final class PreimageReleaseList {
        static final MethodHandle H = h(
                "qs_preimage_release_list", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), CRITICAL);
    }

    static final class Touch {
        static final MethodHandle H = h("qs_touch", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    }

    static final class Prefetch {
        static final MethodHandle H = h("qs_prefetch", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS));
    }

    static final class Install {
        static final MethodHandle H = h("qs_install", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS));
    }

    static final class MarkDirty {
        static final MethodHandle H = h("qs_mark_dirty", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    }

    static final class MarkDirtyRun {
        static final MethodHandle H =
                h("qs_mark_dirty_run", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    static final class MakeNew {
        static final MethodHandle H =
                h("qs_make_new", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    static final class MarkDirtyAlias {
        static final MethodHandle H = h("qs_mark_dirty_alias", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    }

    static final class ResidentList {
        static final MethodHandle H =
                h("qs_resident_list", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG));
    }

    static final class SetWriteDetection {
        static final MethodHandle H =
                h("qs_arena_set_write_detection", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));
    }

    static final class ArenaCards {
        static final MethodHandle H = h("qs_arena_cards", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class MarkCard {
        static final MethodHandle H = h("qs_mark_card", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    }

    static final class KwpProbe {
        static final MethodHandle H = h("qs_kwp_probe", FunctionDescriptor.of(JAVA_INT));
    }

    static final class KwpCollect {
        static final MethodHandle H =
                h("qs_kwp_collect", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    }

    static final class KwpMask {
        static final MethodHandle H =
                h("qs_kwp_mask", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class KwpPageBytes {
        static final MethodHandle H = h("qs_kwp_page_bytes", FunctionDescriptor.of(JAVA_INT));
    }

    static final class KwpSettle {
        static final MethodHandle H =
                h("qs_kwp_settle", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
    }

    static final class VmaReserveCount {
        static final MethodHandle H = h("qs_vma_reserve_count", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    }

    static final class TestFailScratch {
        static final MethodHandle H = h("qs_test_fail_scratch", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT));
    }

    static final class RepairRefused {
        static final MethodHandle H =
                h("qs_repair_refused", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    static final class SetPolicy {
        static final MethodHandle H =
                h("qs_arena_set_policy", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT), CRITICAL);
    }

    static final class ClockEvict {
        static final MethodHandle H = h("qs_clock_evict", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    }

    static final class FrameHold {
        static final MethodHandle H =
                h("qs_frame_hold", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT), CRITICAL);
    }

    static final class SourceOpenFile {
        static final MethodHandle H =
                h("qs_source_open_file", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
    }

    static final class SourceOpenSocket {
        static final MethodHandle H =
                h("qs_source_open_socket", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
    }

    static final class SourceBroken {
        static final MethodHandle H =
                h("qs_source_broken", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT), CRITICAL);
    }

    static final class SocketDial {
        static final MethodHandle H =
                h("qs_socket_dial", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    }

    static final class SocketSend {
        static final MethodHandle H =
                h("qs_socket_send", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    static final class SocketRecv {
        static final MethodHandle H =
                h("qs_socket_recv", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    static final class SocketClose {
        static final MethodHandle H = h("qs_socket_close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    static final class Crc32c {
        static final MethodHandle H =
                h("qs_crc32c", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), CRITICAL_HEAP);
    }

    static final class PageDiff {
        static final MethodHandle H = h(
                "qs_page_diff",
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG, ADDRESS, JAVA_INT),
                CRITICAL_HEAP);
    }

    static final class MoveFind {
        static final MethodHandle H = h(
                "qs_move_find",
                FunctionDescriptor.of(
                        JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
                        JAVA_INT, JAVA_INT, ADDRESS),
                CRITICAL_HEAP);
    }

    static final class XlateTableAdd {
        static final MethodHandle H = h(
                "qs_xlate_table_add", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
    }

    static final class FrameSetRelocation {
        static final MethodHandle H =
                h("qs_frame_set_relocation", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT));
    }

    static final class Counters {
        static final MethodHandle H =
                h("qs_counters", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_INT), CRITICAL);
    }
    // Texas mode (qs_texas.c): frame lookups and word conversions never block; image rewrites run on heap arrays
    static final class TexasEnable {
        static final MethodHandle H =
                h("qs_texas_enable", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
    }

    static final class TexasFrame {
        static final MethodHandle H =
                h("qs_texas_frame", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT), CRITICAL);
    }

    static final class TexasSwizzle {
        static final MethodHandle H =
                h("qs_texas_swizzle", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), CRITICAL_HEAP);
    }

    static final class TexasUnswizzle {
        static final MethodHandle H =
                h("qs_texas_unswizzle", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), CRITICAL_HEAP);
    }

    static final class TexasToRuntime {
        static final MethodHandle H =
                h("qs_texas_to_runtime", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class TexasToDisk {
        static final MethodHandle H =
                h("qs_texas_to_disk", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    }

    static final class TexasCounters {
        static final MethodHandle H =
                h("qs_texas_counters", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_INT), CRITICAL);
    }

    static final class RefusalTake {
        static final MethodHandle H = h("qs_refusal_take", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
    }

    static final class Gettid {
        static final MethodHandle H = h("qs_gettid_export", FunctionDescriptor.of(JAVA_INT), CRITICAL);
    }

    static final class SignalInstall {
        static final MethodHandle H = h("qs_signal_install", FunctionDescriptor.of(JAVA_INT));
    }

    static final class SignalUninstall {
        static final MethodHandle H = h("qs_signal_uninstall", FunctionDescriptor.of(JAVA_INT));
    }

    static final class SignalMode {
        static final MethodHandle H = h("qs_signal_mode", FunctionDescriptor.of(JAVA_INT), CRITICAL);
    }

    static final class SignalForwarded {
        static final MethodHandle H = h("qs_signal_forwarded", FunctionDescriptor.of(JAVA_LONG), CRITICAL);
    }
}
