package dev.quickstore.mmu;

import java.io.Serial;

/** The native library cannot be found, loaded, or does not match this binding. The message says what to do. */
public final class NativeLibraryException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public NativeLibraryException(String message) {
        super(message);
    }

    public NativeLibraryException(String message, Throwable cause) {
        super(message, cause);
    }
}
