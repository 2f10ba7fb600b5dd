package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What a call through {@link Downcall} throws when the holder of its handle cannot be initialised (the library is
 * missing or lacks the function): the {@link NativeLibraryException} itself on the first call, one with the same
 * message on every later call (the JVM then throws a {@link NoClassDefFoundError} that keeps the first failure only
 * as text). A real failed class initialisation, of a holder shaped like those of {@link NativeCalls}.
 */
class DowncallLinkFailureTest {
    /** A holder whose handle cannot be linked, as when the library lacks its function. */
    static final class Unlinkable {
        static final int H = fail();

        private static int fail() {
            throw new NativeLibraryException("libquickstore.so does not export qs_nothing");
        }
    }

    /** A holder that fails for another reason: not the library's, so it passes through unchanged. */
    static final class Broken {
        static final int H = fail();

        private static int fail() {
            throw new IllegalStateException("not a linking problem");
        }
    }

    @Test
    void theFirstAndEveryLaterCallThrowTheLibrarysMessage() {
        NativeLibraryException first =
                assertThrows(NativeLibraryException.class, () -> Downcall.intValue("qs_nothing", () -> Unlinkable.H));
        assertEquals("libquickstore.so does not export qs_nothing", first.getMessage());
        for (int i = 0; i < 2; i++) {
            NativeLibraryException later = assertThrows(
                    NativeLibraryException.class, () -> Downcall.intValue("qs_nothing", () -> Unlinkable.H));
            assertEquals(
                    "qs_nothing could not be linked: libquickstore.so does not export qs_nothing", later.getMessage());
            assertTrue(later.getCause() instanceof NoClassDefFoundError, String.valueOf(later.getCause()));
        }
    }

    @Test
    void otherErrorsPassThroughUnchanged() {
        ExceptionInInitializerError e =
                assertThrows(ExceptionInInitializerError.class, () -> Downcall.intValue("qs_broken", () -> Broken.H));
        assertTrue(e.getCause() instanceof IllegalStateException);
        assertThrows(NoClassDefFoundError.class, () -> Downcall.intValue("qs_broken", () -> Broken.H));
        AssertionError a = new AssertionError("x");
        assertSame(a, assertThrows(AssertionError.class, () -> Downcall.broken("qs_x", a)));
    }
}
