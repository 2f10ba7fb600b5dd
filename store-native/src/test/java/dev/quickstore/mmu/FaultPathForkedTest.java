package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault path in child JVMs (real SIGSEGVs on mprotect'ed arena memory), each under a watchdog:
 * interpreter, C1 and C2; G1 and ZGC; interposed and libjsig-chained handler installation.
 * {@code -Dqs.long=true} runs the stress workload for minutes instead of seconds.
 */
class FaultPathForkedTest {
    enum Jit {
        INTERPRETER("-Xint"),
        C1("-XX:TieredStopAtLevel=1"),
        C2("-XX:-TieredCompilation");

        final String flag;

        Jit(String flag) {
            this.flag = flag;
        }
    }

    static Stream<Arguments> jitAndGc() {
        List<Arguments> a = new ArrayList<>();
        for (Jit j : Jit.values()) {
            for (String gc : List.of("-XX:+UseG1GC", "-XX:+UseZGC")) {
                a.add(Arguments.of(j, gc));
            }
        }
        return a.stream();
    }

    private static ChildJvm.Result child(Duration timeout, List<String> jvmArgs, String... args) throws Exception {
        return ChildJvm.main(ArenaChild.class)
                .jvmArgs(jvmArgs.toArray(String[]::new))
                .args(args)
                .timeout(timeout)
                .run();
    }

    private static void assertOk(ChildJvm.Result r, String scenario) {
        assertFalse(r.timedOut(), r::describe);
        assertEquals(0, r.exitCode(), r::describe);
        assertTrue(r.stdout().contains("OK " + scenario), r::describe);
    }

    @Test
    void basicsFramesStatesCountersRelocationCapacityAndHandlerInstall() throws Exception {
        ChildJvm.Result r = child(Duration.ofSeconds(90), List.of("-Xmx256m"), "basics");
        assertOk(r, "basics");
        assertTrue(r.stdout().contains("signalMode=INTERPOSED"), r::describe);
    }

    @Test
    void cardMarkingWritableCleanFramesMarkCardCapturesAndCleanClearsCards() throws Exception {
        ChildJvm.Result r = child(Duration.ofSeconds(90), List.of("-Xmx256m"), "cards");
        assertOk(r, "cards");
    }

    @Test
    void aliasOnlyDirtyingLeavesTheViewReadOnlyUntilTheApplicationStores() throws Exception {
        ChildJvm.Result r = child(Duration.ofSeconds(90), List.of("-Xmx256m"), "aliasdirty");
        assertOk(r, "aliasdirty");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("jitAndGc")
    void concurrentFaultsEvictionsAndAllocationGiveNoWrongValueCrashOrHang(Jit jit, String gc) throws Exception {
        int seconds = ChildJvm.longMode() ? 60 : 3;
        ChildJvm.Result r = child(
                Duration.ofSeconds(seconds + 90),
                List.of(jit.flag, gc, "-Xmx512m", "-Xlog:gc:stdout"),
                "stress",
                Integer.toString(seconds));
        assertOk(r, "stress");
        assertTrue(
                r.stdout().contains("Pause") || r.stdout().contains("GC("),
                "the allocator caused GCs\n" + r.describe());
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(Jit.class)
    void everyRefusalReachesTheFaultingThreadAsATypedExceptionForLoadsStoresAndCopies(Jit jit) throws Exception {
        ChildJvm.Result r = child(
                Duration.ofSeconds(120), List.of(jit.flag, "-Xbatch", "-XX:+PrintCompilation", "-Xmx256m"), "refusals");
        assertOk(r, "refusals");
        for (String reason : List.of("CHECKSUM", "IO", "NOT_RESERVED", "RELEASED", "NO_TRANSACTION")) {
            for (String kind : List.of("LOAD", "STORE", "COPY")) {
                assertTrue(
                        r.stdout().contains("refused " + kind + " " + reason),
                        kind + " " + reason + "\n" + r.describe());
            }
        }
        if (jit != Jit.INTERPRETER) {
            String before = r.stdout().substring(0, r.stdout().indexOf("MARK refusals-begin"));
            for (String m : List.of("ArenaChild$Access::load", "ArenaChild$Access::store", "ArenaChild$Access::copy")) {
                assertTrue(before.contains(m), m + " compiled before the refusals\n" + r.describe());
            }
        }
    }

    /**
     * Cold loads by userfaultfd minor faults ({@code qs_minor.c}): the stress workload (concurrent faults, evictions
     * and allocation) and every refusal, with the loads' SIGBUS raised in C2-compiled code, G1 and ZGC.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"-XX:+UseG1GC", "-XX:+UseZGC"})
    void withMinorFaultsTheStressAndEveryRefusalBehaveAsWithMprotect(String gc) throws Exception {
        int seconds = ChildJvm.longMode() ? 60 : 3;
        ChildJvm.Result stress = child(
                Duration.ofSeconds(seconds + 90),
                List.of("-XX:-TieredCompilation", gc, "-Xmx512m", "-Dqs.test.minorFaults=true"),
                "stress",
                Integer.toString(seconds));
        assertOk(stress, "stress");
        assertTrue(stress.stdout().contains("minorFaults=0"), "minor faults selected\n" + stress.describe());
        ChildJvm.Result refusals = child(
                Duration.ofSeconds(120),
                List.of("-XX:-TieredCompilation", gc, "-Xbatch", "-Xmx256m", "-Dqs.test.minorFaults=true"),
                "refusals");
        assertOk(refusals, "refusals");
        assertTrue(refusals.stdout().contains("minorFaults=0"), "minor faults selected\n" + refusals.describe());
        for (String reason : List.of("CHECKSUM", "IO", "NOT_RESERVED", "RELEASED", "NO_TRANSACTION")) {
            for (String kind : List.of("LOAD", "STORE", "COPY")) {
                assertTrue(
                        refusals.stdout().contains("refused " + kind + " " + reason),
                        kind + " " + reason + "\n" + refusals.describe());
            }
        }
    }

    @Test
    void mappingLimitEnomemIsReportedNamingTheSysctlAndTheFaultPathSurvivesIt() throws Exception {
        long limit = Long.parseLong(ArenaException.maxMapCount());
        assumeTrue(limit <= 1_000_000, "vm.max_map_count=" + limit + " is too high to reach in a test");
        ChildJvm.Result r = child(
                Duration.ofSeconds(180),
                List.of("-Xint", "-XX:+UseSerialGC", "-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch"),
                "enomem");
        assertOk(r, "enomem");
        assertTrue(r.stdout().contains("sysctl vm.max_map_count = " + limit), r::describe);
    }

    @Test
    void aRefusalWhoseScratchMappingFailsUsesTheVmaReserveInsteadOfKillingTheJvm() throws Exception {
        ChildJvm.Result r = child(Duration.ofSeconds(90), List.of("-Xmx128m"), "vmareserve");
        assertOk(r, "vmareserve");
        assertTrue(r.stdout().contains("vma reserve 32 -> "), r::describe);
    }

    @Test
    void worksChainedBehindHotSpotWithLibjsigPreloaded() throws Exception {
        Path jsig = Path.of(System.getProperty("java.home"), "lib", "libjsig.so");
        assumeTrue(Files.isRegularFile(jsig), "no " + jsig);
        ChildJvm.Result basics = ChildJvm.main(ArenaChild.class)
                .env("LD_PRELOAD", jsig.toString())
                .jvmArgs("-Xmx256m")
                .args("basics")
                .timeout(Duration.ofSeconds(90))
                .run();
        assertOk(basics, "basics");
        assertTrue(basics.stdout().contains("signalMode=CHAINED"), basics::describe);
        // minor faults are refused when chained (HotSpot would take their SIGBUS in compiled code): mprotect loads
        ChildJvm.Result stress = ChildJvm.main(ArenaChild.class)
                .env("LD_PRELOAD", jsig.toString())
                .jvmArgs("-XX:-TieredCompilation", "-Xmx512m", "-Dqs.test.minorFaults=true")
                .args("stress", ChildJvm.longMode() ? "30" : "3")
                .timeout(Duration.ofSeconds(150))
                .run();
        assertOk(stress, "stress");
        assertTrue(stress.stdout().contains("minorFaults=-95"), "ENOTSUP when chained\n" + stress.describe());
        ChildJvm.Result refusals = ChildJvm.main(ArenaChild.class)
                .env("LD_PRELOAD", jsig.toString())
                .jvmArgs("-Xmx256m")
                .args("refusals")
                .timeout(Duration.ofSeconds(120))
                .run();
        assertOk(refusals, "refusals");
    }
}
