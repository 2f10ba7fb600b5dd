package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class NativeLibraryTest {
    @Test
    void loadsTheLibraryBuiltByMavenAndChecksItsAbi() {
        assertTrue(Files.isRegularFile(NativeLibrary.path()), "library file " + NativeLibrary.path());
        assertTrue(
                NativeLibrary.buildInfo().startsWith("libquickstore abi " + NativeLibrary.ABI_VERSION + " "),
                NativeLibrary.buildInfo());
    }

    @Test
    void missingSymbolIsAClearError() {
        NativeLibraryException e = assertThrows(
                NativeLibraryException.class,
                () -> NativeLibrary.downcall("qs_no_such_symbol", java.lang.foreign.FunctionDescriptor.ofVoid()));
        assertTrue(e.getMessage().contains("does not export qs_no_such_symbol"), e.getMessage());
    }

    @Test
    void abiVersionConstantMatchesTheLibrary() {
        assertEquals(6, NativeLibrary.ABI_VERSION);
    }
}
