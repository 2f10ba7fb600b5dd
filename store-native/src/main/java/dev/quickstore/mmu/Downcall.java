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
 *       ExceptionInInitializerError} that wraps it (a later call of that function, which gets a {@link
 *       NoClassDefFoundError}, gets a {@code NativeLibraryException} with the same message: {@link #linkFailure}),
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

    /** How the JVM records a class's failed initialisation for later uses (JDK 18 and later). */
    private static final String RECORDED = "Exception " + NativeLibraryException.class.getName() + ": ";

    /**
     * The {@link NativeLibraryException} behind a holder of {@link NativeCalls} that could not be initialised, or
     * null. The first call gets the {@link ExceptionInInitializerError} whose cause is that exception; a later call
     * of the same holder gets a {@link NoClassDefFoundError} whose cause only records it as text (an {@code
     * ExceptionInInitializerError} reading "Exception dev.quickstore.mmu.NativeLibraryException: ..."), which
     * becomes a new exception with that text.
     */
    static NativeLibraryException linkFailure(String function, Error e) {
        if (e instanceof ExceptionInInitializerError && e.getCause() instanceof NativeLibraryException n) {
            return n;
        }
        if (e instanceof NoClassDefFoundError
                && e.getCause() instanceof ExceptionInInitializerError first
                && first.getMessage() != null
                && first.getMessage().startsWith(RECORDED)) {
            String why = first.getMessage().substring(RECORDED.length()).replaceFirst(" \\[in thread \".*\"\\]$", "");
            return new NativeLibraryException(function + " could not be linked: " + why, e);
        }
        return null;
    }

    /**
     * What a throwing {@code invokeExact} becomes: unchecked throwables unchanged (except a holder that could not
     * link: {@link #linkFailure}), others wrapped.
     */
    static RuntimeException broken(String function, Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            NativeLibraryException n = linkFailure(function, e);
            if (n != null) {
                return n;
            }
            throw e;
        }
        return new NativeLibraryException(function + " failed: " + t, t);
    }
}
