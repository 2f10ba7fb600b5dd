package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C side stays one concept per file with calls pointing one way: every source is compiled on its own and
 * {@code nm} tells which file's symbols each one calls; the file graph must have no cycle (the fault path
 * calls down into the clock, the sources and the arena; nothing calls back up). The graph is printed.
 */
class CFileLayeringTest {
    @TempDir
    Path tmp;

    private static String exec(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), cmd + "\n" + text);
        return text;
    }

    @Test
    void noCallCycleBetweenCFiles() throws Exception {
        Map<String, Set<String>> undefined = new TreeMap<>();
        Map<String, String> definedIn = new TreeMap<>();
        List<Path> sources;
        try (Stream<Path> s = Files.list(NativeBuildTest.SOURCES)) {
            sources = s.filter(p -> p.toString().endsWith(".c")).sorted().toList();
        }
        assertTrue(sources.size() > 10, "sources in " + NativeBuildTest.SOURCES);
        for (Path c : sources) {
            String name = c.getFileName().toString().replace(".c", "");
            Path o = tmp.resolve(name + ".o");
            exec(List.of(
                    System.getenv().getOrDefault("CC", "gcc"),
                    "-std=gnu11",
                    "-O2",
                    "-fPIC",
                    "-D_GNU_SOURCE",
                    "-pthread",
                    "-c",
                    c.toString(),
                    "-o",
                    o.toString()));
            Set<String> und = new TreeSet<>();
            for (String line : exec(List.of("nm", o.toString())).lines().toList()) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 3 && "TtDdBbRr".indexOf(f[1].charAt(0)) >= 0 && f[2].startsWith("qs_")) {
                    definedIn.put(f[2], name);
                } else if (f.length == 2 && f[0].equals("U") && f[1].startsWith("qs_")) {
                    und.add(f[1]);
                }
            }
            undefined.put(name, und);
        }
        Map<String, Set<String>> calls = new TreeMap<>();
        undefined.forEach((file, syms) -> {
            Set<String> to = new TreeSet<>();
            for (String s : syms) {
                String target = definedIn.get(s);
                if (target != null && !target.equals(file)) {
                    to.add(target);
                }
            }
            calls.put(file, to);
        });
        calls.forEach((f, to) -> System.out.println("[c-layering] " + f + " -> " + String.join(" ", to)));
        List<String> loops = new ArrayList<>();
        for (String a : calls.keySet()) {
            for (String b : calls.get(a)) {
                if (reaches(calls, b, a)) {
                    loops.add(a + " -> " + b);
                }
            }
        }
        assertTrue(loops.isEmpty(), "calls on a cycle between C files: " + loops + "; graph " + calls);
        assertTrue(calls.get("qs_fault").contains("qs_clock"), "the fault path evicts through the clock: " + calls);
    }

    private static boolean reaches(Map<String, Set<String>> g, String from, String to) {
        Set<String> seen = new HashSet<>();
        ArrayDeque<String> todo = new ArrayDeque<>(List.of(from));
        while (!todo.isEmpty()) {
            String x = todo.pop();
            if (x.equals(to)) {
                return true;
            }
            if (seen.add(x)) {
                todo.addAll(g.getOrDefault(x, Set.of()));
            }
        }
        return false;
    }
}
