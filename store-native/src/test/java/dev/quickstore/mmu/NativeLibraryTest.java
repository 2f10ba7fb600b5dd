package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void abiVersionConstantMatchesTheLibrary() throws Throwable {
        int library = (int) NativeLibrary.downcall(
                        "qs_abi_version",
                        java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT))
                .invokeExact();
        assertEquals(library, NativeLibrary.ABI_VERSION);
        assertTrue(NativeLibrary.buildInfo().contains("abi " + library), NativeLibrary.buildInfo());
    }

    @TempDir
    Path tmp;

    @Test
    void aJarsLibraryIsExtractedOncePerContentAndNothingIsLeftBehind() throws Exception {
        Path jar = tmp.resolve("store-native.jar");
        byte[] lib = Files.readAllBytes(NativeLibrary.path());
        try (OutputStream f = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(f)) {
            out.putNextEntry(new JarEntry("native/linux-x86_64/libquickstore.so"));
            out.write(lib);
            out.closeEntry();
        }
        java.net.URL url = URI.create("jar:" + jar.toUri() + "!/native/linux-x86_64/libquickstore.so")
                .toURL();
        Path cache = tmp.resolve("cache");
        String saved = System.setProperty(NativeLibrary.CACHE_PROPERTY, cache.toString());
        try {
            Path first = NativeLibrary.extractToCache(url);
            Path second = NativeLibrary.extractToCache(url);
            assertEquals(first, second, "the same file for the same content");
            assertTrue(first.startsWith(cache), first.toString());
            assertEquals(List.of(first), files(cache), "one file, no temporary copies");
            assertTrue(java.util.Arrays.equals(lib, Files.readAllBytes(first)));

            Files.write(first, new byte[] {1, 2, 3}); // a damaged copy is replaced
            assertEquals(first, NativeLibrary.extractToCache(url));
            assertTrue(java.util.Arrays.equals(lib, Files.readAllBytes(first)));
            assertEquals(List.of(first), files(cache));

            byte[] flipped = lib.clone(); // damaged in place, its size unchanged: compared byte for byte
            flipped[flipped.length / 2] ^= 1;
            Files.write(first, flipped);
            assertEquals(first, NativeLibrary.extractToCache(url));
            assertTrue(java.util.Arrays.equals(lib, Files.readAllBytes(first)));
            assertEquals(List.of(first), files(cache));
        } finally {
            if (saved == null) {
                System.clearProperty(NativeLibrary.CACHE_PROPERTY);
            } else {
                System.setProperty(NativeLibrary.CACHE_PROPERTY, saved);
            }
        }
    }

    @Test
    void anUnwritableHomeFallsBackToTheTemporaryDirectory() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                System.getenv("XDG_CACHE_HOME") == null, "XDG_CACHE_HOME would be used instead of user.home");
        Path jar = tmp.resolve("store-native.jar");
        byte[] lib = Files.readAllBytes(NativeLibrary.path());
        try (OutputStream f = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(f)) {
            out.putNextEntry(new JarEntry("native/linux-x86_64/libquickstore.so"));
            out.write(lib);
            out.closeEntry();
        }
        java.net.URL url = URI.create("jar:" + jar.toUri() + "!/native/linux-x86_64/libquickstore.so")
                .toURL();
        Path home = Files.writeString(tmp.resolve("home-is-a-file"), "not a directory"); // even root cannot mkdir here
        Path temporary = Files.createDirectories(tmp.resolve("tmpdir"));
        String savedHome = System.getProperty("user.home");
        String savedTmp = System.getProperty("java.io.tmpdir");
        String savedCache = System.clearProperty(NativeLibrary.CACHE_PROPERTY);
        System.setProperty("user.home", home.toString());
        System.setProperty("java.io.tmpdir", temporary.toString());
        try {
            Path copy = NativeLibrary.extractToCache(url);
            assertTrue(copy.startsWith(temporary), copy.toString());
            assertTrue(java.util.Arrays.equals(lib, Files.readAllBytes(copy)));
        } finally {
            System.setProperty("user.home", savedHome);
            System.setProperty("java.io.tmpdir", savedTmp);
            if (savedCache != null) {
                System.setProperty(NativeLibrary.CACHE_PROPERTY, savedCache);
            }
        }
    }

    private static List<Path> files(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }
}
