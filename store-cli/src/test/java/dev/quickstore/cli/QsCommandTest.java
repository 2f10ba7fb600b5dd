package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class QsCommandTest {
    @TempDir
    Path tmp;

    public record Run(int code, String out, String err) {}

    public static Run qs(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Qs.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void versionNamesProjectJvmAndNativeLibrary() {
        Run r = qs("--version");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("QuickStore/J "), r.out());
        assertTrue(
                r.out().contains("native: libquickstore abi " + dev.quickstore.mmu.NativeLibrary.ABI_VERSION + " "),
                r.out());
    }

    @Test
    void createThenInfoTextAndJson() throws Exception {
        Path db = tmp.resolve("db");
        Run c = qs("create", db.toString());
        assertEquals(0, c.code(), c.err());
        Run i = qs("info", db.toString());
        assertEquals(0, i.code(), i.err());
        assertTrue(i.out().lines().anyMatch(l -> l.matches("pageSize\\s+8192")), i.out());
        Run j = qs("info", "--json", db.toString());
        assertEquals(0, j.code(), j.err());
        JsonNode n = Json.MAPPER.readTree(j.out());
        assertEquals(8192, n.get("pageSize").asInt());
        assertEquals(2, n.get("formatVersion").asInt());
        // a complete store: the header page plus the first extent (space map and data pages)
        assertEquals(16, n.get("pageCount").asLong());
        assertTrue(n.get("log").get("clean").asBoolean(), j.out());
    }

    @Test
    void missingStoreIsOneLineAndExitCode4() {
        Run r = qs("info", tmp.resolve("nope").toString());
        assertEquals(ExitCodes.IO, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("qs: error: ") && r.err().contains("no such store directory"), r.err());
    }

    @Test
    void damagedStoreIsExitCode3WithoutStackTraceUnlessVerbose() throws Exception {
        Path db = tmp.resolve("db");
        assertEquals(0, qs("create", db.toString()).code());
        Path vol = db.resolve("volume.qs");
        byte[] b = Files.readAllBytes(vol);
        b[20] ^= 0x40;
        Files.write(vol, b);
        Run r = qs("info", db.toString());
        assertEquals(ExitCodes.DAMAGED, r.code());
        assertTrue(r.err().contains("page 0 offset 0: header page checksum"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        Run v = qs("info", "--verbose", db.toString());
        assertTrue(v.err().contains("\tat "), v.err());
        // a subcommand two levels down (qs oo7 run) honours its own --verbose too
        Run nested = qs("oo7", "run", "--store", db.toString(), "--system", "qs", "--ops", "T1", "--verbose");
        assertEquals(ExitCodes.USAGE, nested.code(), nested.err());
        assertTrue(nested.err().contains("no OO7 database there"), nested.err());
        assertTrue(nested.err().contains("\tat "), nested.err());
        assertFalse(qs("oo7", "run", "--store", db.toString(), "--system", "qs", "--ops", "T1")
                .err()
                .contains("\tat "));
    }

    @Test
    void createRefusesToOverwrite() {
        Path db = tmp.resolve("db");
        assertEquals(0, qs("create", db.toString()).code());
        Run r = qs("create", db.toString());
        assertEquals(ExitCodes.IO, r.code());
        assertTrue(r.err().contains("already exists"), r.err());
    }

    @Test
    void badPageSizeIsUsageError() {
        Run r = qs("create", "--page-size", "1000", tmp.resolve("x").toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("power of two"), r.err());
    }

    @Test
    void everyCommandHasHelpWithExamples() {
        for (String cmd : new String[] {"create", "info"}) {
            Run r = qs(cmd, "--help");
            assertEquals(0, r.code());
            assertTrue(r.out().contains("Examples:"), cmd + ": " + r.out());
        }
    }

    @Test
    void oo7RunPrintsTheTableWithTheDeterministicCounts() throws Exception {
        Path csv = tmp.resolve("oo7.csv");
        Run r = qs("oo7", "run", "--ops", "T1,T6,Q7", "--reps", "1", "--warmup", "0", "--csv", csv.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("OO7 small on heap"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+hot\\s+43740\\s.*")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T6\\s+hot\\s+2187\\s.*")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("Q7\\s+hot\\s+10000\\s.*")), r.out());
        assertTrue(r.err().contains("building OO7 small on heap"), r.err());
        assertTrue(r.err().contains("building OO7 small on qs"), r.err());
        assertTrue(r.out().contains("OO7 small on qs: built in"), r.out());
        // hot rows carry both systems' medians and the ratio; cold rows exist for qs only
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+hot\\s+43740\\s.*\\d+\\.\\d\\dx.*")), r.out());
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("T1\\s+cold\\s+43740\\s+-\\s+\\d+\\.\\d{3}\\s+-\\s.*")),
                r.out());
        String csvText = Files.readString(csv);
        assertTrue(csvText.lines().filter(l -> l.startsWith("heap,small,")).count() == 3, csvText);
        assertTrue(csvText.lines().filter(l -> l.startsWith("qs,small,")).count() == 6, csvText);
        // the default systems: all four, each mapped one with its cold rows and the cold overhead table
        assertTrue(csvText.lines().filter(l -> l.startsWith("qs-cards,small,")).count() == 6, csvText);
        assertTrue(csvText.lines().filter(l -> l.startsWith("qs-b,small,")).count() == 6, csvText);
        assertTrue(r.out().contains("cold fault handling"), r.out());
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("T1\\s+qs-b\\s+\\d+\\.\\d{3}\\s.*%\\s+(met|not met)")),
                r.out());
    }

    @Test
    void oo7RunOnQsCardsBesideQsTakesNoWriteFaultAndLogsTheSame() throws Exception {
        Path csv = tmp.resolve("cards.csv");
        Run r = qs(
                "oo7",
                "run",
                "--system",
                "heap,qs,qs-cards",
                "--ops",
                "T1,T2B",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--csv",
                csv.toString(),
                "--wide");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("OO7 small on qs-cards: built in"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T2B\\s+hot\\s+43740\\s.*")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T2B\\s+hot\\s+qs-cards\\s+\\d+\\.\\d{3}\\s.*")), r.out());
        String csvText = Files.readString(csv);
        assertTrue(csvText.lines().filter(l -> l.startsWith("qs-cards,small,")).count() == 4, csvText);
        assertTrue(csvText.lines().filter(l -> l.startsWith("qs,small,")).count() == 4, csvText);
        assertTrue(csvText.lines().filter(l -> l.startsWith("heap,small,")).count() == 2, csvText);
        assertEquals(ExitCodes.USAGE, qs("oo7", "run", "--system", "qs-pages").code());
    }

    @Test
    void oo7BuildThenRunOnTheStoredDatabase() throws Exception {
        Path db = tmp.resolve("oo7");
        Run b = qs("oo7", "build", "--size", "small", db.toString());
        assertEquals(0, b.code(), b.err());
        assertTrue(b.out().contains("OO7 small built in"), b.out());
        Run r = qs(
                "oo7",
                "run",
                "--system",
                "qs",
                "--store",
                db.toString(),
                "--ops",
                "T1,T2B",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--t2",
                "increment");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("OO7 small on qs: opened " + db), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+hot\\s+43740\\s.*")), r.out());
        Run again = qs(
                "oo7",
                "run",
                "--system",
                "qs",
                "--store",
                db.toString(),
                "--ops",
                "T1",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--seed",
                "7");
        assertEquals(ExitCodes.USAGE, again.code(), again.out());
        assertTrue(again.err().contains("was built with 42"), again.err());
        // without --system: heap and the system the database was built for (the README's form)
        Run plain = qs("oo7", "run", "--store", db.toString(), "--ops", "T1", "--reps", "1", "--warmup", "0");
        assertEquals(0, plain.code(), plain.err());
        assertTrue(plain.out().contains("OO7 small on heap: built in"), plain.out());
        assertTrue(plain.out().contains("OO7 small on qs: opened " + db), plain.out());
        // a store that holds no OO7 database says how to build one
        Path empty = tmp.resolve("empty");
        assertEquals(0, qs("create", empty.toString()).code());
        Run none = qs("oo7", "run", "--store", empty.toString(), "--ops", "T1");
        assertEquals(ExitCodes.USAGE, none.code(), none.out());
        assertTrue(
                none.err().contains("no OO7 database there")
                        && none.err().contains("qs oo7 build --size small " + empty),
                none.err());
    }

    @Test
    void oo7UnknownOperationIsAUsageErrorListingTheChoices() {
        Run r = qs("oo7", "run", "--ops", "T1,T99");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("--ops: unknown value 'T99'") && r.err().contains("t1"), r.err());
    }

    @Test
    void oo7RunWithPoolReplacementAndRelocationPrintsTheCommitBreakdown() throws Exception {
        Run r = qs(
                "oo7",
                "run",
                "--system",
                "qs",
                "--ops",
                "T1,T2B",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--t2",
                "increment",
                "--pool-pages",
                "1024",
                "--replacement",
                "classic",
                "--relocate",
                "0.5",
                "--wide");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("qs options {qs.poolPages=1024, qs.replacement=CLASSIC_CLOCK,"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+cold\\s+43740\\s.*")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+hot\\s+43740\\s.*")), r.out());
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("relocation \\(QS-CR, qs\\): [1-9]\\d* pages placed .*")),
                r.out());
        assertTrue(r.out().contains("commit breakdown"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T2B\\s+hot\\s+qs\\s+\\d+\\.\\d{3}\\s.*")), r.out());
        assertEquals(null, System.getProperty("qs.poolPages"), "the run restores the system properties");
    }

    @Test
    void oo7UnknownReplacementIsAUsageError() {
        Run r = qs("oo7", "run", "--system", "qs", "--replacement", "lru");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("--replacement: unknown value 'lru'"), r.err());
    }

    @Test
    void everyCommandSummaryIsOneCompleteLine() {
        Run r = qs("--help");
        assertEquals(0, r.code());
        List<String> commands = r.out()
                .lines()
                .dropWhile(l -> !l.equals("Commands:"))
                .skip(1)
                .takeWhile(l -> !l.isBlank())
                .toList();
        assertTrue(commands.size() >= 13, r.out());
        for (String l : commands) {
            assertTrue(l.startsWith("  ") && !l.startsWith("    "), "one line per command: " + l);
            assertTrue(l.endsWith(".") || l.endsWith("command."), "a complete summary: " + l);
        }
        Run oo7 = qs("oo7", "--help");
        oo7.out()
                .lines()
                .dropWhile(l -> !l.equals("Commands:"))
                .skip(1)
                .forEach(l -> assertTrue(l.endsWith("."), "a complete summary: " + l));
    }

    @Test
    void aBadEnumValueListsTheValidOnesWithoutJavaText() {
        Run r = qs("oo7", "run", "--system", "foo");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(
                r.err()
                        .contains(
                                "unknown system 'foo'; expected one of [heap, qs, qs-cards, qs-objects, qs-remsets, qs-scan, qs-kernel, qs-b,"
                                        + " e, qs-cs, eclipsestore, lmdb, mvstore]"),
                r.err());
        assertFalse(r.err().contains("java."), r.err());
        assertFalse(r.err().contains("SystemUnderTest"), r.err());
    }
}
