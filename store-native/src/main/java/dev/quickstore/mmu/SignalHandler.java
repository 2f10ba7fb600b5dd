package dev.quickstore.mmu;

/**
 * The process-wide SIGSEGV/SIGBUS handler of the data plane ({@code qs_signal.c}): installed next to the
 * JVM's, it resolves faults on arena addresses in C and passes every other signal on to the handler it
 * replaced (design-notes section 3, signal chaining). {@link MappedArena#open} installs it; the methods here
 * are for tests and diagnostics.
 */
public final class SignalHandler {
    private SignalHandler() {}

    /** How the handler is installed. */
    public enum Mode {
        /** Not installed. */
        NONE,
        /** Our handler is the kernel's; the JVM's is called for faults outside arenas. */
        INTERPOSED,
        /** Another handler runs first and chains to ours (HotSpot with libjsig preloaded). */
        CHAINED
    }

    /** Installs the handler next to the JVM's (idempotent). */
    public static void install() {
        Downcall.checkedInt("qs_signal_install", () -> "installing the fault handler", () ->
                (int) NativeCalls.SignalInstall.H.invokeExact());
    }

    /**
     * Restores the previous handlers if ours is still the installed one (idempotent). Only call it when no
     * arena is open. Returns whether the handlers were restored.
     */
    public static boolean uninstall() {
        return Downcall.intValue("qs_signal_uninstall", () -> (int) NativeCalls.SignalUninstall.H.invokeExact()) == 1;
    }

    public static Mode mode() {
        int m = Downcall.intValue("qs_signal_mode", () -> (int) NativeCalls.SignalMode.H.invokeExact());
        return Mode.values()[Math.max(0, Math.min(2, m))];
    }

    /** Signals the handler passed on to the previous handler (faults outside every arena). */
    public static long forwarded() {
        return Downcall.longValue("qs_signal_forwarded", () -> (long) NativeCalls.SignalForwarded.H.invokeExact());
    }
}
