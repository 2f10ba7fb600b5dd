package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.Index;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.testkit.ChildJvm;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qs verify} and {@code qs info} on randomly damaged copies of a real store (issue 14): bits flipped,
 * ranges zeroed, files truncated in the volume, the log segments, the control file and the double-write file,
 * and pages changed with their checksum resealed (damage that passes the page check and must be caught by the
 * structure checks). Every run must end with exit 0 (the damage hit nothing that matters), 1 (verify listed
 * the problems, each naming its page) or a one-line {@code qs: error:} naming the file and offset with exit 3
 * or 4; never a stack trace, exit 70 (an unexpected exception) or a JVM crash. Most seeds run in-process;
 * a few run as real {@code qs} child processes, where a crash of the JVM would show. {@code -Dqs.long=true}
 * runs 1,000 seeds ({@code -Dqs.damage.seeds=N}).
 */
class DamagedStoreTest {
    @TempDir
    Path tmp;

    private static final List<String> FILE_NAMES =
            List.of("volume.qs", ".wal", "control.qs", "doublewrite.qs", "placement.qs", "log");

    @Test
    void verifyAndInfoOnDamagedStoresEndInOneLineAndNeverCrash() throws Exception {
        Path original = tmp.resolve("original");
        buildStore(original);
        int seeds = Integer.getInteger("qs.damage.seeds", ChildJvm.longMode() ? 1000 : 40);
        Map<String, Integer> outcomes = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (int seed = 0; seed < seeds; seed++) {
            Path db = tmp.resolve("s" + seed);
            copy(original, db);
            String damage = damage(db, new Random(seed));
            for (String cmd : List.of("verify", "info")) {
                QsCommandTest.Run r = runWithin(Duration.ofSeconds(60), cmd, db.toString());
                if (r == null) {
                    failures.add("seed " + seed + " (" + damage + "): qs " + cmd + " did not end within 60 s");
                    continue;
                }
                String problem = check(r.code(), r.out(), r.err());
                outcomes.merge(cmd + " exit " + r.code(), 1, Integer::sum);
                if (problem != null) {
                    failures.add("seed " + seed + " (" + damage + "): qs " + cmd + ": " + problem + "\n--- out\n"
                            + r.out() + "--- err\n" + r.err());
                }
            }
            deleteTree(db);
        }
        System.out.println("DamagedStoreTest: " + seeds + " damaged stores in-process, outcomes " + outcomes);
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
    }

    @Test
    void damagedStoresInChildProcessesNeverCrashTheJvm() throws Exception {
        Path original = tmp.resolve("original");
        buildStore(original);
        List<String> failures = new ArrayList<>();
        for (int seed = 1000; seed < 1003; seed++) {
            Path db = tmp.resolve("c" + seed);
            copy(original, db);
            String damage = damage(db, new Random(seed));
            ChildJvm.Result r = ChildJvm.main(Qs.class)
                    .workDir(tmp)
                    .jvmArgs("-Xmx256m")
                    .args("verify", db.toString())
                    .timeout(Duration.ofSeconds(120))
                    .run();
            assertFalse(r.timedOut(), r.describe());
            String problem = check(r.exitCode(), r.stdout(), r.stderr());
            if (problem != null) {
                failures.add("seed " + seed + " (" + damage + "): " + problem + "\n" + r.describe());
            }
        }
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(
                    List.of(),
                    s.filter(p -> p.getFileName().toString().startsWith("hs_err"))
                            .toList());
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** Runs {@code qs args} in-process on a daemon thread; null if it did not end in time (a hang). */
    static QsCommandTest.Run runWithin(Duration limit, String... args) throws InterruptedException {
        java.util.concurrent.CompletableFuture<QsCommandTest.Run> f = new java.util.concurrent.CompletableFuture<>();
        Thread t = Thread.ofPlatform()
                .daemon()
                .name("qs " + String.join(" ", args))
                .start(() -> {
                    try {
                        f.complete(QsCommandTest.qs(args));
                    } catch (Throwable e) {
                        f.completeExceptionally(e);
                    }
                });
        try {
            return f.get(limit.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            t.interrupt();
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError("qs " + String.join(" ", args) + " threw out of picocli", e.getCause());
        }
    }

    /** Null if the run ended as allowed, else what was wrong. */
    static String check(int code, String out, String err) {
        String all = out + err;
        if (all.contains("\tat ") || all.contains("Exception in thread")) {
            return "a stack trace";
        }
        switch (code) {
            case ExitCodes.OK -> {
                return null;
            }
            case ExitCodes.CHECK_FAILED -> {
                if (!out.contains("problem(s)")) {
                    return "exit 1 without the problem count";
                }
                return null;
            }
            case ExitCodes.DAMAGED, ExitCodes.IO -> {
                String[] lines = err.strip().split("\n");
                String last = lines[lines.length - 1];
                if (lines.length != 1 || !last.startsWith("qs: error: ")) {
                    return "not one 'qs: error:' line";
                }
                if (FILE_NAMES.stream().noneMatch(last::contains)) {
                    return "the error names no store file";
                }
                if (code == ExitCodes.DAMAGED && !last.contains("offset")) {
                    return "the error names no offset";
                }
                return null;
            }
            default -> {
                return "exit " + code;
            }
        }
    }

    /** A small store with objects, named roots and an index; its log keeps records after a checkpoint. */
    static void buildStore(Path db) throws IOException {
        try (Store s = Store.create(db)) {
            try (Transaction tx = s.begin()) {
                long prev = 0;
                for (int i = 0; i < 40; i++) {
                    long r = tx.allocate(64 + i * 8, prev, 8);
                    tx.putLong(r, 8, prev);
                    tx.putLong(r, 16, i);
                    tx.setRoot("obj" + i, r);
                    prev = r;
                }
                Index idx = tx.createIndex("byNumber", KeyType.LONG, 8, true);
                for (long k = 0; k < 800; k++) {
                    idx.insert(k, prev);
                }
                tx.allocateLarge(30_000, 0);
                tx.commit();
            }
            s.checkpoint();
            for (int t = 0; t < 5; t++) {
                try (Transaction tx = s.begin()) {
                    long r = tx.root("obj" + t);
                    tx.putLong(r, 24, t * 1000L);
                    tx.index("byNumber").insert(10_000L + t, r);
                    tx.commit();
                }
            }
        }
    }

    /** Applies one to three random damages; returns what was done. */
    static String damage(Path db, Random r) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(db)) {
            s.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().equals("lock"))
                    .sorted()
                    .forEach(files::add);
        }
        StringBuilder what = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            Path f = files.get(r.nextInt(files.size()));
            byte[] b = Files.readAllBytes(f);
            if (b.length == 0) {
                continue;
            }
            String name = db.relativize(f).toString();
            int at = r.nextInt(b.length);
            int kind = r.nextInt(name.equals("volume.qs") ? 5 : 4);
            switch (kind) {
                case 0 -> {
                    b[at] ^= (byte) (1 << r.nextInt(8));
                    what.append(name).append(" bit flipped at ").append(at);
                }
                case 1 -> {
                    int len = 1 + r.nextInt(Math.min(4096, b.length - at));
                    java.util.Arrays.fill(b, at, at + len, (byte) 0);
                    what.append(name)
                            .append(" zeroed ")
                            .append(len)
                            .append(" bytes at ")
                            .append(at);
                }
                case 2 -> {
                    b = java.util.Arrays.copyOf(b, at);
                    what.append(name).append(" truncated to ").append(at);
                }
                case 3 -> {
                    for (int k = 0; k < 8; k++) {
                        b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                    }
                    what.append(name).append(" 8 random bytes");
                }
                default -> {
                    // a page changed and resealed: passes the checksum, must fail the structure checks
                    int ps = 8192;
                    int page = at / ps;
                    int off = PageHeader.SIZE + r.nextInt(ps - PageHeader.SIZE);
                    if (r.nextBoolean()) {
                        off = 32 + r.nextInt(64); // the fields right after the page header: counts, links, roots
                    }
                    b[page * ps + off] = (byte) r.nextInt(256);
                    MemorySegment p = MemorySegment.ofArray(b).asSlice((long) page * ps, ps);
                    if (!PageHeader.isAllZero(p)) {
                        PageHeader.seal(p);
                    }
                    what.append(name)
                            .append(" page ")
                            .append(page)
                            .append(" byte ")
                            .append(off)
                            .append(" resealed");
                }
            }
            Files.write(f, b);
            what.append("; ");
        }
        return what.toString();
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else if (!p.getFileName().toString().equals("lock")) {
                    Files.copy(p, q);
                }
            }
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
