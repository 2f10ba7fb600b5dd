package dev.quickstore.mmu;

import java.util.function.Supplier;

/**
 * The one path from a downcall's result to Java: every call of {@link NativeCalls} goes through one of
 * these methods, which turn the two ways a downcall can fail into typed exceptions.
 *
 * <ul>
 *   <li><b>The call itself threw</b> ({@code invokeExact} declares {@link Throwable}; with a correct
 *       binding it only throws for a library that does not match it): unchecked exceptions and errors
 *       pass through unchanged, anything else becomes a {@link NativeLibraryException} naming the C
 *       function. A library that cannot be loaded, or lacks the function, fails the initialisation of the
 *       function's holder in {@link NativeCalls} (its handle is linked on the first call); the
 *       {@link NativeLibraryException} that caused it is thrown in place of the {@link
 *       ExceptionInInitializerError} (or, on a later call, the {@link NoClassDefFoundError}) that wraps it,
 *       so that a missing library reaches the user as its one-line message (the shell's exit code 5).</li>
 *   <li><b>The C function returned {@code -errno}</b> (the library's convention for every call that can
 *       fail: {@code qs_api.h}): {@link #check} maps it to an {@link ArenaException} naming the operation
 *       in words, the errno and, for ENOMEM, the kernel limit and the fix ({@link ArenaException#of}).</li>
 * </ul>
 *
 * <p>The lambdas are small and monomorphic at each call site; C2 inlines them, so the path costs nothing
 * over a hand-written try/catch. The operation's description is a {@link Supplier} and is only built on
 * failure.
 */
final class Downcall {
    private Downcall() {}

    @FunctionalInterface
    interface IntCall {
        int invoke() throws Throwable;
    }

    @FunctionalInterface
    interface LongCall {
        long invoke() throws Throwable;
    }

    @FunctionalInterface
    interface VoidCall {
        void invoke() throws Throwable;
    }

    /** A call whose result is a value (never an error code). */
    static int intValue(String function, IntCall call) {
        try {
            return call.invoke();
        } catch (Throwable t) {
            throw broken(function, t);
        }
    }

    /** A call whose result is a value (never an error code). */
    static long longValue(String function, LongCall call) {
        try {
            return call.invoke();
        } catch (Throwable t) {
            throw broken(function, t);
        }
    }

    /** A call without a result. */
    static void run(String function, VoidCall call) {
        try {
            call.invoke();
        } catch (Throwable t) {
            throw broken(function, t);
        }
    }

    /** A call returning {@code -errno} on failure and a non-negative result otherwise. */
    static int checkedInt(String function, Supplier<String> operation, IntCall call) {
        return (int) check(intValue(function, call), operation);
    }

    /** A call returning {@code -errno} on failure and a non-negative result otherwise. */
    static long checkedLong(String function, Supplier<String> operation, LongCall call) {
        return check(longValue(function, call), operation);
    }

    /** The rc to exception mapper: a negative {@code rc} is {@code -errno} of {@code operation}. */
    static long check(long rc, Supplier<String> operation) {
        if (rc < 0) {
            throw ArenaException.of(operation.get(), (int) -rc);
        }
        return rc;
    }

    /** What a throwing {@code invokeExact} becomes: unchecked throwables unchanged, others wrapped. */
    static RuntimeException broken(String function, Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            Throwable c = e.getCause();
            for (int depth = 0; c != null && depth < 4; depth++, c = c.getCause()) { // NCDFE -> EIIE -> cause
                if (c instanceof NativeLibraryException n
                        && (e instanceof ExceptionInInitializerError || e instanceof NoClassDefFoundError)) {
                    return n; // a holder of NativeCalls could not link: the library's message, not the wrapper
                }
            }
            throw e;
        }
        return new NativeLibraryException(function + " failed: " + t, t);
    }
}
