package dev.quickstore.mmu;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * Locates, loads and checks {@code libquickstore.so}, the native data plane of QuickStore/J.
 *
 * <p>Search order:
 *
 * <ol>
 *   <li>the directory named by the system property {@value #DIR_PROPERTY} (for development and for
 *       deployments that ship the library separately);
 *   <li>the class-path resource {@code native/linux-x86_64/libquickstore.so}: used in place when it
 *       is a plain file, otherwise (inside a jar) extracted once per content to a cache directory keyed by
 *       its CRC-32C and length ({@link #extractToCache}), because {@code dlopen} needs a file; later JVMs load
 *       the same file and no copy is left per process.
 * </ol>
 *
 * <p>The library is loaded once, into the global arena, through {@link SymbolLookup#libraryLookup};
 * every downcall handle is resolved once, on its first call, into a static final ({@code NativeCalls}). Its ABI
 * version must equal {@link #ABI_VERSION}, so a stale library from another build is refused with a
 * message rather than misbehaving. Only {@code --enable-native-access} is needed at run time.
 */
@SuppressWarnings("restricted") // this class is where the store meets native code
public final class NativeLibrary {
    /** The ABI version this binding was written for; must match {@code qs_abi_version()}. */
    public static final int ABI_VERSION = 20;

    /** System property naming a directory that holds {@code libquickstore.so}. */
    public static final String DIR_PROPERTY = "quickstore.native.dir";

    static final String LIB_NAME = "libquickstore.so";
    static final String PLATFORM = "linux-x86_64";

    private static final Linker LINKER = Linker.nativeLinker();

    private NativeLibrary() {}

    /** Lazily loaded holder: the first use loads the library, failures repeat their message. */
    private static final class Holder {
        static final Path PATH;
        static final SymbolLookup LOOKUP;
        static final RuntimeException FAILURE;

        static {
            Path path = null;
            SymbolLookup lookup = null;
            RuntimeException failure = null;
            try {
                path = locate();
                lookup = SymbolLookup.libraryLookup(path, Arena.global());
                int abi = abiVersion(lookup);
                if (abi != ABI_VERSION) {
                    throw new NativeLibraryException(path + " has ABI version " + abi + " but this binding needs "
                            + ABI_VERSION + "; rebuild QuickStore/J (bin/test) or point -D" + DIR_PROPERTY
                            + " at a matching library");
                }
            } catch (NativeLibraryException e) {
                failure = e;
            } catch (IllegalArgumentException | IllegalCallerException | IOException e) {
                failure = new NativeLibraryException(
                        "cannot load " + (path == null ? LIB_NAME : path) + ": " + e.getMessage() + hintFor(e), e);
            }
            PATH = path;
            LOOKUP = lookup;
            FAILURE = failure;
        }
    }

    private static String hintFor(Exception e) {
        return e instanceof IllegalCallerException ? " (run the JVM with --enable-native-access=ALL-UNNAMED)" : "";
    }

    private static int abiVersion(SymbolLookup lookup) {
        MethodHandle h = LINKER.downcallHandle(
                lookup.findOrThrow("qs_abi_version"), FunctionDescriptor.of(ValueLayout.JAVA_INT));
        try {
            return (int) h.invokeExact();
        } catch (Throwable t) {
            throw new NativeLibraryException("qs_abi_version() failed: " + t, t);
        }
    }

    /** The symbol lookup of the loaded library; loads it on first use. */
    public static SymbolLookup lookup() {
        if (Holder.FAILURE != null) {
            throw Holder.FAILURE;
        }
        return Holder.LOOKUP;
    }

    /** The file the library was loaded from. */
    public static Path path() {
        lookup();
        return Holder.PATH;
    }

    /**
     * Resolves a downcall handle for an exported symbol of the library.
     *
     * @throws NativeLibraryException if the library cannot be loaded or lacks the symbol
     */
    public static MethodHandle downcall(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment address = lookup().find(symbol)
                .orElseThrow(() -> new NativeLibraryException(path() + " does not export " + symbol
                        + "; it is older or newer than this binding - rebuild QuickStore/J"));
        return LINKER.downcallHandle(address, descriptor, options);
    }

    /** A one-line description of the library build (compiler, date, ABI). */
    public static String buildInfo() {
        MethodHandle h = downcall("qs_build_info", FunctionDescriptor.of(ValueLayout.ADDRESS));
        try {
            MemorySegment s = (MemorySegment) h.invokeExact();
            return s.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            throw new NativeLibraryException("qs_build_info() failed: " + t, t);
        }
    }

    static Path locate() throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new NativeLibraryException("QuickStore/J's native fault path supports " + PLATFORM
                    + " only; this JVM runs on " + os + "-" + arch);
        }
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir != null && !dir.isBlank()) {
            Path p = Path.of(dir).resolve(LIB_NAME);
            if (!Files.isRegularFile(p)) {
                throw new NativeLibraryException("-D" + DIR_PROPERTY + "=" + dir + " but " + p + " does not exist");
            }
            return p;
        }
        String resource = "native/" + PLATFORM + "/" + LIB_NAME;
        URL url = NativeLibrary.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new NativeLibraryException("the class path has no " + resource
                    + "; the store-native jar was built without its native library (build with gcc installed)");
        }
        if ("file".equals(url.getProtocol())) {
            try {
                return Path.of(url.toURI());
            } catch (URISyntaxException e) {
                throw new IOException("bad resource URL " + url, e);
            }
        }
        return extractToCache(url);
    }

    /** System property naming the directory the library is extracted to from a jar (default below). */
    public static final String CACHE_PROPERTY = "quickstore.native.cache";

    /**
     * The extraction directory: {@value #CACHE_PROPERTY} if set, else {@code $XDG_CACHE_HOME/quickstore/native},
     * else {@code ~/.cache/quickstore/native}, else {@code java.io.tmpdir/quickstore-native-<user>}.
     */
    static Path cacheRoot() {
        String prop = System.getProperty(CACHE_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "quickstore", "native");
        }
        String home = System.getProperty("user.home");
        if (home != null && !home.isBlank() && !home.equals("?")) {
            return Path.of(home, ".cache", "quickstore", "native");
        }
        return temporaryRoot();
    }

    /**
     * Copies the library out of the jar once per content: to {@code <cacheRoot>/<key>/libquickstore.so},
     * {@code <key>} being the content's CRC-32C and length ({@link #cacheKey}),
     * written to a private temporary file in the same directory and renamed into place atomically, so that
     * concurrent JVMs never load a half-written file and a JVM that is killed leaves no copy behind. When the
     * home cache cannot be written and no {@value #CACHE_PROPERTY} was given, the copy goes to
     * {@code java.io.tmpdir/quickstore-native-<user>} instead. A JVM
     * that finds the file (the same bytes) loads it as is; nothing is deleted at exit.
     */
    static Path extractToCache(URL url) throws IOException {
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readAllBytes();
        }
        String key = cacheKey(bytes);
        Path root = cacheRoot();
        try {
            return extractTo(root, bytes, key);
        } catch (IOException e) {
            String prop = System.getProperty(CACHE_PROPERTY);
            Path fallback = temporaryRoot();
            if ((prop != null && !prop.isBlank()) || fallback.equals(root)) {
                throw e; // the user chose the directory: say so rather than look elsewhere
            }
            try {
                return extractTo(fallback, bytes, key);
            } catch (IOException second) {
                second.addSuppressed(e);
                throw second;
            }
        }
    }

    /** The last resort when the home cache cannot be written (read-only home, container user without one). */
    static Path temporaryRoot() {
        return Path.of(System.getProperty("java.io.tmpdir"), "quickstore-native-" + System.getProperty("user.name"));
    }

    private static Path extractTo(Path root, byte[] bytes, String key) throws IOException {
        Path dir = root.resolve(key);
        Path lib = dir.resolve(LIB_NAME);
        if (Files.isRegularFile(lib)
                && Files.size(lib) == bytes.length
                && Arrays.equals(Files.readAllBytes(lib), bytes)) {
            return lib; // compared byte for byte, which a key of 16 hex digits cannot promise
        }
        try {
            Files.createDirectories(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new IOException(
                    "cannot create the native library cache " + dir + " (" + e + "); set -D" + CACHE_PROPERTY
                            + " to a writable directory",
                    e);
        }
        Path tmp;
        try {
            tmp = Files.createTempFile(
                    dir,
                    "libquickstore-",
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new IOException(
                    "cannot write to the native library cache " + dir + " (" + e + "); set -D" + CACHE_PROPERTY
                            + " to a writable directory",
                    e);
        }
        try {
            Files.write(tmp, bytes);
            Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return lib;
    }

    /**
     * The cache directory's name for a library's bytes: their CRC-32C and length, 16 hex digits. It only has to tell
     * builds apart; what makes a cached copy trusted is the byte-for-byte comparison in {@link #extractTo} (two
     * builds with the same key would replace each other's copy, never load the wrong one). A CRC, not a
     * cryptographic digest: in a fresh JVM the SHA-256 of the 80 KiB library ran in the interpreter for about
     * 30 ms of every store's first open (docs/results.md, "Downcalls linked on their first call").
     */
    static String cacheKey(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return String.format("%08x%08x", crc.getValue(), bytes.length);
    }
}
