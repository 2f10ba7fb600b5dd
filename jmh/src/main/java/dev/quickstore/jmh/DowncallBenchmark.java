package dev.quickstore.jmh;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one trivial native call: FFM (the store's only binding) versus JNA, the peer named in
 * the design (docs/peers.md). Two callees: libc {@code abs(int)} (one argument, no syscall) and the
 * store's own {@code qs_abi_version()} (no arguments) from {@code libquickstore.so}, which JNA loads
 * from {@link dev.quickstore.mmu.NativeLibrary#path()}.
 *
 * <p>Variants: FFM downcall handle in a static final invoked with {@code invokeExact}; the same
 * with {@link Linker.Option#critical(boolean) critical(false)} (no thread-state transition); JNA
 * direct mapping ({@link Native#register}, JNI {@code native} methods); JNA interface mapping
 * ({@link Library}, a dynamic proxy); and a plain, non-inlined Java method as the floor. Baseline for
 * the ratios: {@link #ffmAbs} and {@link #ffmQsAbiVersion}.
 *
 * <p>JNA needs {@code --enable-native-access=ALL-UNNAMED} like FFM (JNA calls {@code System.load}
 * and, through JNI, registers native methods); it needs no {@code --add-opens}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@SuppressWarnings("restricted") // downcall handles are what is being measured
public class DowncallBenchmark {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final FunctionDescriptor INT_INT = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);
    private static final FunctionDescriptor INT_VOID = FunctionDescriptor.of(ValueLayout.JAVA_INT);

    private static final MethodHandle FFM_ABS =
            LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("abs"), INT_INT);
    private static final MethodHandle FFM_ABS_CRITICAL =
            LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("abs"), INT_INT, Linker.Option.critical(false));
    private static final MethodHandle FFM_QS = dev.quickstore.mmu.NativeLibrary.downcall("qs_abi_version", INT_VOID);
    private static final MethodHandle FFM_QS_CRITICAL =
            dev.quickstore.mmu.NativeLibrary.downcall("qs_abi_version", INT_VOID, Linker.Option.critical(false));

    /** JNA direct mapping of libc: JNI native methods bound by {@link Native#register}. */
    static final class JnaDirectLibc {
        static {
            Native.register(JnaDirectLibc.class, Platform.C_LIBRARY_NAME);
        }

        static native int abs(int x);

        private JnaDirectLibc() {}
    }

    /** JNA direct mapping of libquickstore, loaded from the file the store itself loaded. */
    static final class JnaDirectQs {
        static {
            Native.register(
                    JnaDirectQs.class,
                    dev.quickstore.mmu.NativeLibrary.path().toAbsolutePath().toString());
        }

        static native int qs_abi_version();

        private JnaDirectQs() {}
    }

    /** JNA interface mapping of libc. */
    public interface JnaLibc extends Library {
        int abs(int x);
    }

    /** JNA interface mapping of libquickstore. */
    public interface JnaQs extends Library {
        int qs_abi_version();
    }

    private static final JnaLibc JNA_LIBC = Native.load(Platform.C_LIBRARY_NAME, JnaLibc.class);
    private static final JnaQs JNA_QS =
            Native.load(dev.quickstore.mmu.NativeLibrary.path().toAbsolutePath().toString(), JnaQs.class);

    /** Not a constant, so no variant can fold the call away. */
    int arg = -42;

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int plainAbs(int x) {
        return x < 0 ? -x : x;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int plainAbiVersion() {
        return dev.quickstore.mmu.NativeLibrary.ABI_VERSION;
    }

    // ---- abs(int) from libc ----

    @Benchmark
    public int ffmAbs() throws Throwable {
        return (int) FFM_ABS.invokeExact(arg);
    }

    @Benchmark
    public int ffmCriticalAbs() throws Throwable {
        return (int) FFM_ABS_CRITICAL.invokeExact(arg);
    }

    @Benchmark
    public int jnaDirectAbs() {
        return JnaDirectLibc.abs(arg);
    }

    @Benchmark
    public int jnaInterfaceAbs() {
        return JNA_LIBC.abs(arg);
    }

    @Benchmark
    public int javaAbs() {
        return plainAbs(arg);
    }

    // ---- qs_abi_version() from libquickstore.so ----

    @Benchmark
    public int ffmQsAbiVersion() throws Throwable {
        return (int) FFM_QS.invokeExact();
    }

    @Benchmark
    public int ffmCriticalQsAbiVersion() throws Throwable {
        return (int) FFM_QS_CRITICAL.invokeExact();
    }

    @Benchmark
    public int jnaDirectQsAbiVersion() {
        return JnaDirectQs.qs_abi_version();
    }

    @Benchmark
    public int jnaInterfaceQsAbiVersion() {
        return JNA_QS.qs_abi_version();
    }

    @Benchmark
    public int javaQsAbiVersion() {
        return plainAbiVersion();
    }
}
