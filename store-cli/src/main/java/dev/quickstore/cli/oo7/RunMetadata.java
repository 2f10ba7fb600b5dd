package dev.quickstore.cli.oo7;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where and when an OO7 run was measured: the {@code run} object of each store in the JSON of {@code qs oo7 run
 * --json} ({@link Oo7ResultFiles}), shown by {@code qs oo7 report --html}. A number means little without the
 * machine that measured it and its load (docs/results.md states both for every table); this records them with
 * the results. Fields: {@code date} (UTC, ISO-8601), {@code host}, {@code os}, {@code cpu} (the model name of
 * /proc/cpuinfo), {@code cpus} (available to the JVM), {@code memoryMiB} (MemTotal), {@code loadAverage} (the
 * 1-minute load when the JSON was written), {@code jdk} and {@code commit} ({@code git describe --always --dirty}
 * of the checkout the code was loaded from). A field that cannot be read on this machine is left out.
 */
record RunMetadata(Map<String, Object> fields) {
    RunMetadata {
        fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** This JVM and machine, now. */
    static RunMetadata current() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        String host = firstLine(Path.of("/proc/sys/kernel/hostname"));
        if (host != null) {
            m.put("host", host);
        }
        m.put(
                "os",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
        String cpu = procField(Path.of("/proc/cpuinfo"), "model name");
        if (cpu != null) {
            m.put("cpu", cpu);
        }
        m.put("cpus", Runtime.getRuntime().availableProcessors());
        String mem = procField(Path.of("/proc/meminfo"), "MemTotal");
        if (mem != null && mem.endsWith(" kB")) {
            m.put("memoryMiB", Long.parseLong(mem.substring(0, mem.length() - 3).strip()) / 1024);
        }
        String load = firstLine(Path.of("/proc/loadavg"));
        if (load != null && !load.isBlank()) {
            m.put("loadAverage", Double.parseDouble(load.split(" ")[0]));
        }
        m.put("jdk", Runtime.version() + " (" + System.getProperty("java.vm.name") + ")");
        String commit = commit();
        if (commit != null) {
            m.put("commit", commit);
        }
        return new RunMetadata(m);
    }

    /** The first line of a small file, or null if it cannot be read. */
    private static String firstLine(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.UTF_8);
            int nl = s.indexOf('\n');
            return (nl < 0 ? s : s.substring(0, nl)).strip();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The value of the first {@code key: value} line of a /proc file, or null. */
    private static String procField(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equals(key)) {
                    return line.substring(colon + 1).strip();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * {@code git describe --always --dirty} in the directory this class was loaded from (target/classes or the
     * jar's directory in a checkout), or null outside a git checkout, without git, or after 5 seconds.
     */
    private static String commit() {
        Process p = null;
        try {
            Path code = Path.of(RunMetadata.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            Path dir = Files.isDirectory(code) ? code : code.getParent();
            p = new ProcessBuilder("git", "-C", dir.toString(), "describe", "--always", "--dirty", "--abbrev=12")
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readNBytes(256), StandardCharsets.UTF_8).strip();
            }
            if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0 || out.isEmpty()) {
                return null;
            }
            return out;
        } catch (IOException | RuntimeException | java.net.URISyntaxException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (p != null) {
                p.destroyForcibly();
            }
        }
    }
}
