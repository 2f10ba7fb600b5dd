package dev.quickstore.cli;

import static dev.quickstore.cli.QsCommandTest.qs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.QsCommandTest.Run;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.index.KeyType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every store command in batch mode against a small store: text, JSON (parsed), exit codes, bad input. */
class StoreCommandsTest {
    @TempDir
    Path tmp;

    Path db;
    long a; // 64-byte object with a pointer field at offset 8 -> b
    long b; // 32-byte object, "hello"
    long pageA;
    long base;

    @BeforeEach
    void buildStore() throws IOException {
        db = tmp.resolve("db");
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            a = tx.allocate(64, 0, 8);
            b = tx.allocate(32, a);
            tx.putLong(a, 8, b);
            tx.write(b, 0, "hello".getBytes(StandardCharsets.US_ASCII));
            tx.setRoot("first", a);
            tx.createIndex("byName", KeyType.STRING, 16, true).insert("a", a);
            tx.commit();
            base = s.arenaBase();
            pageA = (a - base) / s.pageSize();
        }
    }

    static JsonNode json(Run r) throws IOException {
        assertEquals(0, r.code(), r.err());
        return Json.MAPPER.readTree(r.out());
    }

    static void assertOneLineError(Run r, int code, String fragment) {
        assertEquals(code, r.code(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("qs: error: ") && r.err().contains(fragment), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void infoShowsSpaceRootsIndexesAndLogState() throws IOException {
        JsonNode n = json(qs("info", "--json", db.toString()));
        assertTrue(n.get("space").get("liveObjects").asLong() >= 2, n.toPrettyString());
        assertTrue(n.get("space").get("allocatedPages").asLong() >= 3, n.toPrettyString());
        assertTrue(n.get("roots").get("first").asText().startsWith(String.format("0x%x (page %d", a, pageA)));
        assertTrue(n.get("indexes").has("byName"), n.toPrettyString());
        assertTrue(n.get("log").get("opened").asBoolean());
        assertTrue(n.get("log").get("clean").asBoolean(), n.toPrettyString());
        Run t = qs("info", db.toString());
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("roots:") && t.out().contains("  first"), t.out());
        assertTrue(t.out().lines().anyMatch(l -> l.matches("  clean\\s+true")), t.out());
    }

    @Test
    void pageDecodesSlotsAndPointerFields() throws IOException {
        JsonNode n = json(qs("page", "--json", db.toString(), String.valueOf(pageA)));
        assertEquals("slotted", n.get("type").asText());
        assertEquals("ok", n.get("state").asText());
        JsonNode slot = null;
        for (JsonNode s : n.get("slots")) {
            if (s.get("address").asText().equals(String.format("0x%x", a))) {
                slot = s;
            }
        }
        assertTrue(slot != null, n.toPrettyString());
        assertEquals(64, slot.get("length").asInt());
        assertEquals(8, slot.get("pointerOffsets").get(0).asInt());
        JsonNode h = json(qs("page", "--json", "--hex", db.toString(), "0"));
        assertEquals("volume-header", h.get("type").asText());
        assertEquals("QSVOLUME", h.get("fields").get("magic").asText());
        assertEquals(8192 * 2, h.get("hex").asText().length());
        Run t = qs("page", "--hex", db.toString(), String.valueOf(pageA));
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("slot   offset"), t.out());
        assertTrue(t.out().lines().anyMatch(l -> l.matches("[0-9a-f]{8}  .*\\|.*hello.*\\|")), t.out());
    }

    @Test
    void pageBadInputIsOneLineAndUsageCode() {
        assertOneLineError(qs("page", db.toString(), "99999"), ExitCodes.USAGE, "page 99999 does not exist");
        assertOneLineError(qs("page", db.toString(), "x7"), ExitCodes.USAGE, "x7");
        assertOneLineError(qs("page", tmp.resolve("nope").toString(), "0"), ExitCodes.IO, "no such store directory");
    }

    @Test
    void aFileGivenAsAStoreSaysWhatItIs() throws IOException {
        Path plain = Files.writeString(tmp.resolve("notes.txt"), "hello");
        assertOneLineError(qs("info", plain.toString()), ExitCodes.IO, plain + ": a file, not a store directory");
        Path volume = db.resolve("volume.qs");
        Run r = qs("info", volume.toString());
        assertOneLineError(r, ExitCodes.IO, volume + ": the volume file of a store; name the store's directory");
        assertTrue(r.err().contains("instead: " + db), r.err());
        assertFalse(r.err().contains("volume.qs/volume.qs"), r.err());
    }

    @Test
    void objectByAddressAndByPageSlotShowsPointersWithTheirPage() throws IOException {
        JsonNode n = json(qs("object", "--json", db.toString(), String.format("0x%x", a)));
        assertEquals("small", n.get("kind").asText());
        assertEquals(64, n.get("length").asInt());
        JsonNode p = n.get("pointers").get(0);
        assertEquals(8, p.get("fieldOffset").asInt());
        assertEquals(String.format("0x%x", b), p.get("value").asText());
        assertEquals((b - base) / 8192, p.get("targetPage").asLong());
        assertTrue(p.get("target").asText().startsWith("object (slot "), p.toPrettyString());
        assertTrue(n.get("typedFields").asText().contains("schema catalog"));
        JsonNode bySlot = json(qs(
                "object", "--json", db.toString(), pageA + ":" + n.get("slot").asInt()));
        assertEquals(n.get("address").asText(), bySlot.get("address").asText());
        Run t = qs("object", db.toString(), String.format("0x%x", b));
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("pointer fields: none") && t.out().contains("|hello"), t.out());
        assertTrue(t.out().contains("needs the schema catalog"), t.out());
    }

    @Test
    void objectBadReferencesAreOneLineUsageErrors() {
        assertOneLineError(qs("object", db.toString(), "0xzz"), ExitCodes.USAGE, "malformed object reference");
        assertOneLineError(
                qs("object", db.toString(), String.format("0x%x", a + 8)), ExitCodes.USAGE, "no object starts at");
        assertOneLineError(qs("object", db.toString(), "12"), ExitCodes.USAGE, "below the arena base");
        assertOneLineError(qs("object", db.toString(), pageA + ":99"), ExitCodes.USAGE, "no live slot 99");
    }

    @Test
    void logListsRecordsWithFilters() throws IOException {
        JsonNode all = json(qs("log", "--json", db.toString()));
        List<String> types = new ArrayList<>();
        all.forEach(e -> types.add(e.get("type").asText()));
        assertTrue(
                types.contains("REDO") && types.contains("COMMIT") && types.contains("CHECKPOINT"), types.toString());
        assertEquals("CHECKPOINT", types.get(types.size() - 1));
        JsonNode commits = json(qs("log", "--json", "--type", "commit", db.toString()));
        commits.forEach(e -> assertEquals("COMMIT", e.get("type").asText()));
        // the pages the fixture's transactions allocated are logged as NEW_PAGE records (issue #20)
        JsonNode fresh = json(qs("log", "--json", "--type", "new_page", db.toString()));
        assertTrue(fresh.size() > 0 && fresh.size() < all.size(), fresh.toString());
        fresh.forEach(e -> assertEquals("NEW_PAGE", e.get("type").asText()));
        assertTrue(commits.size() >= 1);
        JsonNode page = json(qs("log", "--json", "--page", String.valueOf(pageA), db.toString()));
        assertTrue(page.size() >= 1);
        page.forEach(e -> {
            assertEquals(pageA, e.get("pageId").asLong());
            assertTrue(e.get("ranges").size() >= 1);
        });
        Run t = qs("log", "--limit", "2", db.toString());
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("2 record(s)"), t.out());
        assertOneLineError(qs("log", "--type", "bogus", db.toString()), ExitCodes.USAGE, "unknown record type");
    }

    @Test
    void verifySoundStoreExitsZero() throws IOException {
        JsonNode n = json(qs("verify", "--json", db.toString()));
        assertTrue(n.get("ok").asBoolean());
        assertEquals("checked", n.get("structure").asText());
        assertTrue(n.get("objects").asLong() >= 2);
        Run t = qs("verify", db.toString());
        assertEquals(0, t.code());
        assertTrue(t.out().startsWith("OK: "), t.out());
        assertTrue(t.err().contains("verify: checking pages"), t.err());
    }

    @Test
    void verifyDamagedCopyExitsOneNamingThePage() throws IOException {
        Path copy = copyStore(db, tmp.resolve("damaged"));
        Path vol = copy.resolve("volume.qs");
        byte[] bytes = Files.readAllBytes(vol);
        bytes[(int) (pageA * 8192 + 4000)] ^= 0x5a;
        Files.write(vol, bytes);
        Run r = qs("verify", copy.toString());
        assertEquals(ExitCodes.CHECK_FAILED, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("1 problem(s)"), r.out());
        assertTrue(r.out().contains("page " + pageA + ": ") && r.out().contains("checksum"), r.out());
        JsonNode n = Json.MAPPER.readTree(
                qs("verify", "--json", "--files-only", copy.toString()).out());
        assertFalse(n.get("ok").asBoolean());
        assertEquals(1, n.get("problems").size());
        Run p = qs("page", copy.toString(), String.valueOf(pageA));
        assertEquals(ExitCodes.DAMAGED, p.code());
        assertTrue(p.out().contains("damaged"), p.out());
        assertTrue(p.err().contains("page checksum"), p.err());
    }

    @Test
    void statsCheckpointAndRecover() throws IOException {
        JsonNode s = json(qs("stats", "--json", db.toString()));
        assertEquals(4096, s.get("bufferPoolPages").asInt());
        assertTrue(s.get("nextTxnId").asLong() >= 2);
        assertTrue(s.get("logSegments").asInt() >= 1);
        Run c = qs("checkpoint", db.toString());
        assertEquals(0, c.code(), c.err());
        assertTrue(c.out().startsWith("checkpoint at LSN "), c.out());
        JsonNode r = json(qs("recover", "--json", db.toString()));
        assertEquals(0, r.get("losersUndone").asInt());
        assertEquals(0, r.get("redoApplied").asInt());
    }

    @Test
    void crashCopyShowsUncleanLogAndRecoverRedoes() throws IOException {
        Path crashed = tmp.resolve("crashed");
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            tx.putLong(a, 16, 4242);
            tx.commit();
            copyStore(db, crashed); // the files as a crash right after the commit would leave them
        }
        JsonNode log = json(qs("info", "--json", crashed.toString())).get("log");
        assertFalse(log.get("clean").asBoolean(), log.toPrettyString());
        assertTrue(log.get("recordsAfterCheckpoint").asLong() >= 2);
        JsonNode r = json(qs("recover", "--json", crashed.toString()));
        assertTrue(r.get("redoApplied").asLong() >= 1, r.toPrettyString());
        assertTrue(json(qs("info", "--json", crashed.toString()))
                .get("log")
                .get("clean")
                .asBoolean());
        try (Store s = Store.open(crashed);
                Transaction tx = s.begin()) {
            assertEquals(4242, tx.getLong(a, 16));
        }
    }

    @Test
    void lockedStoreIsOneLineExitFour() throws IOException {
        try (Store s = Store.open(db)) {
            assertOneLineError(qs("stats", db.toString()), ExitCodes.IO, "already open");
            assertOneLineError(qs("backup", db.toString(), tmp.resolve("b").toString()), ExitCodes.IO, "already open");
            assertEquals(0, qs("info", db.toString()).code()); // read-only: works while the store is open
            assertEquals(0, qs("verify", "--files-only", db.toString()).code());
            assertTrue(s.pageSize() > 0);
        }
    }

    @Test
    void backupAndRestoreRoundTrip() throws IOException {
        Path bak = tmp.resolve("bak");
        Run b = qs("backup", db.toString(), bak.toString());
        assertEquals(0, b.code(), b.err());
        assertTrue(b.err().contains("backup: copying"), b.err());
        JsonNode m = Json.MAPPER.readTree(bak.resolve(BackupManifest.FILE).toFile());
        assertEquals("quickstore-backup", m.get("format").asText());
        assertEquals(1, m.get("version").asInt());
        JsonNode files = m.get("files");
        assertEquals("volume.qs", files.get(0).get("path").asText());
        for (JsonNode f : files) {
            Path p = bak.resolve(f.get("path").asText());
            assertEquals(Files.size(p), f.get("bytes").asLong());
            assertEquals(BackupManifest.hash(p, n -> {}), f.get("sha256").asText());
        }
        Path db2 = tmp.resolve("db2");
        Run r = qs("restore", bak.toString(), db2.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(0, qs("verify", db2.toString()).code());
        JsonNode i1 = json(qs("info", "--json", db.toString()));
        JsonNode i2 = json(qs("info", "--json", db2.toString()));
        assertEquals(i1.get("creationId"), i2.get("creationId"));
        assertEquals(i1.get("roots"), i2.get("roots"));
        assertOneLineError(qs("restore", "--quiet", bak.toString(), db2.toString()), ExitCodes.IO, "use --force");
        Run forced = qs("restore", "--force", bak.toString(), db2.toString());
        assertEquals(0, forced.code(), forced.err());
        assertTrue(forced.err().contains("restore: checking backup")
                && forced.err().contains("restore: copying"));
        assertOneLineError(qs("backup", db.toString(), bak.toString()), ExitCodes.IO, "not empty");
    }

    @Test
    void restoreRefusesADamagedBackupAndWritesNothing() throws IOException {
        Path bak = tmp.resolve("bak");
        assertEquals(0, qs("backup", "--quiet", db.toString(), bak.toString()).code());
        byte[] v = Files.readAllBytes(bak.resolve("volume.qs"));
        v[100] ^= 1;
        Files.write(bak.resolve("volume.qs"), v);
        Path db3 = tmp.resolve("db3");
        assertOneLineError(
                qs("restore", "--quiet", bak.toString(), db3.toString()),
                ExitCodes.DAMAGED,
                "does not match the manifest");
        assertFalse(Files.exists(db3));
        assertOneLineError(
                qs("restore", "--quiet", tmp.toString(), db3.toString()), ExitCodes.IO, "no backup manifest");
    }

    @Test
    void everyCommandHasHelpWithExamples() {
        for (String cmd : new String[] {
            "create",
            "info",
            "verify",
            "stats",
            "page",
            "object",
            "log",
            "checkpoint",
            "recover",
            "backup",
            "restore",
            "shell",
            "oo7"
        }) {
            Run r = qs(cmd, "--help");
            assertEquals(0, r.code(), cmd);
            assertTrue(r.out().contains("Examples:") || cmd.equals("oo7"), cmd + ": " + r.out());
        }
        Run top = qs("--help");
        assertTrue(top.out().contains("Exit codes: 0 ok, 1 check failed"), top.out());
    }

    @Test
    void unknownOptionIsOneLineUsageError() {
        assertOneLineError(qs("info", "--bogus", db.toString()), ExitCodes.USAGE, "Unknown option: '--bogus'");
    }

    static Path copyStore(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                if (p.getFileName().toString().equals("lock")) {
                    continue;
                }
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return to;
    }
}
