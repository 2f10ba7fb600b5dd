package dev.quickstore.testkit;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Fuzzes one Jazzer {@code @FuzzTest} method in a child JVM. Jazzer's JUnit integration fuzzes (rather than
 * replaying its seeds) when {@code JAZZER_FUZZ} is set, and then only one fuzz test per JVM (libFuzzer runs
 * once per process), so a test that fuzzes several targets starts one child per target: {@link #fuzz} runs
 * this class's {@link #main} under {@link ChildJvm} (watchdog included) with {@code JAZZER_FUZZ=1} and
 * {@code -Djazzer.max_duration}, and reads libFuzzer's final statistics from the child's output. A finding
 * fails the child (exit 1) and Jazzer writes the crashing input next to the target's seeds
 * ({@code src/test/resources/.../<Class>Inputs/<method>/crash-*}), where it becomes a regression seed.
 */
public final class FuzzChild {
    private FuzzChild() {}

    /** What one fuzzing run did, from libFuzzer's last status line ({@code #N DONE cov: C ft: F corp: K/B}). */
    public record Stats(
            String target,
            int exitCode,
            boolean timedOut,
            long execs,
            long cov,
            long features,
            long corpus,
            String output) {
        /** Whether the run ended normally without a finding. */
        public boolean clean() {
            return exitCode == 0 && !timedOut;
        }

        @Override
        public String toString() {
            return target + ": " + execs + " execs, cov " + cov + ", ft " + features + ", corpus " + corpus
                    + (clean() ? ", no finding" : ", FAILED (exit " + exitCode + (timedOut ? ", timed out" : "") + ")");
        }
    }

    private static final Pattern DONE =
            Pattern.compile("#(\\d+)\\s+(?:DONE|NEW|REDUCE|pulse|INITED)\\s+cov: (\\d+) ft: (\\d+) corp: (\\d+)/");

    /**
     * Fuzzes {@code testClass#method(byte[])} (a class name: fuzz test classes are package-private) for {@code
     * duration} in a child JVM whose working directory is this one (the module), so that Jazzer finds the
     * module's {@code src/test/resources}.
     */
    public static Stats fuzz(String testClass, String method, Duration duration)
            throws IOException, InterruptedException {
        Path dir = ChildJvm.tmpDir().resolve("fuzz");
        ChildJvm.Result r = ChildJvm.main(FuzzChild.class)
                .workDir(dir)
                .env("JAZZER_FUZZ", "1")
                .jvmArgs(
                        "-Xmx512m",
                        "-XX:+EnableDynamicAgentLoading",
                        "-Djazzer.max_duration=" + duration.toSeconds() + "s")
                .args(testClass, method)
                .timeout(duration.plusSeconds(120))
                .run();
        String out = r.stdout() + "\n" + r.stderr();
        long execs = 0;
        long cov = 0;
        long ft = 0;
        long corp = 0;
        Matcher m = DONE.matcher(out);
        while (m.find()) {
            execs = Long.parseLong(m.group(1));
            cov = Long.parseLong(m.group(2));
            ft = Long.parseLong(m.group(3));
            corp = Long.parseLong(m.group(4));
        }
        return new Stats(
                testClass.substring(testClass.lastIndexOf('.') + 1) + "." + method,
                r.exitCode(),
                r.timedOut(),
                execs,
                cov,
                ft,
                corp,
                r.describe());
    }

    /** Runs {@code args[0]#args[1](byte[])} through the JUnit launcher; exit 0 if it passed, 1 otherwise. */
    public static void main(String[] args) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectMethod(args[0] + "#" + args[1] + "(byte[])"))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        TestExecutionSummary s = listener.getSummary();
        s.printTo(new PrintWriter(System.out, true));
        s.printFailuresTo(new PrintWriter(System.out, true), 40);
        System.out.flush();
        boolean ok = s.getTestsFoundCount() > 0 && s.getTotalFailureCount() == 0 && s.getTestsAbortedCount() == 0;
        System.exit(ok ? 0 : 1);
    }
}
