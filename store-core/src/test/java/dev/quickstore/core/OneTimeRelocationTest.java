package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.buffer.MappingManager;
import dev.quickstore.core.buffer.PlacementFile;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.inspect.StoreInspector;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.core.volume.VolumeFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * QS-OR (one-time relocation, White and DeWitt 1994 section 5.5) next to QS-CR, on {@link RelocationTest}'s
 * pointer graph: identical traversals with 0 %, 50 % and 100 % of the pages relocated under both policies;
 * after a QS-OR commit the placement is persisted and a reopen maps the pages at their new frames with no
 * translation work left; a placement that cannot fit under vm.max_map_count is refused at open; placement
 * keeps relocated pages in runs.
 */
class OneTimeRelocationTest {
    @TempDir
    Path dir;

    static StoreOptions opts(Relocation policy, double fraction) {
        return RelocationTest.opts(0).withRelocation(policy, fraction);
    }

    List<Long> runAt(Relocation policy, double fraction, Path d) throws Exception {
        try (Store s = Store.create(d, 8192, opts(Relocation.CONTINUAL, 0))) {
            RelocationTest.build(s);
        }
        List<Long> r = new ArrayList<>();
        try (Store s = Store.open(d, opts(policy, fraction))) {
            if (fraction > 0) {
                assertTrue(s.relocatedPages() > 0, "pages relocated at " + fraction);
                assertTrue(s.pagesNeedingTranslation() > 0, "pages to translate at " + fraction);
            }
            r.addAll(RelocationTest.traverse(s, false)); // a read-only T1-like pass first
            r.addAll(RelocationTest.traverse(s, true));
            r.addAll(RelocationTest.traverse(s, false));
        }
        try (Store s = Store.open(d, opts(policy, fraction))) { // later run
            r.addAll(RelocationTest.traverse(s, false));
        }
        try (Store s = Store.open(d, opts(Relocation.CONTINUAL, 0))) { // no relocation asked for
            r.addAll(RelocationTest.traverse(s, false));
            assertTrue(s.verify().ok(), "verify");
        }
        return r;
    }

    @Test
    void bothPoliciesTraverseIdenticallyWithNoneHalfAndAllPagesRelocated() throws Exception {
        List<Long> none = runAt(Relocation.CONTINUAL, 0, dir.resolve("cr0"));
        assertEquals(5 * (2 * RelocationTest.NODES + 12), none.size());
        for (Relocation p :
                List.of(Relocation.CONTINUAL, Relocation.ONE_TIME)) { // QuickStore's policies (TEXAS: TexasModeTest)
            for (double f : new double[] {0, 0.5, 1}) {
                assertEquals(none, runAt(p, f, dir.resolve(p + "-" + f)), p + " at " + f);
            }
        }
        assertFalse(Files.exists(PlacementFile.path(dir.resolve("CONTINUAL-1.0"))), "QS-CR persists nothing");
        assertTrue(Files.exists(PlacementFile.path(dir.resolve("ONE_TIME-1.0"))), "QS-OR persists the placement");
    }

    @Test
    void oneTimeRelocationCommitsTranslatedPagesAndLaterOpensTranslateNothing() throws Exception {
        Path d = dir.resolve("or");
        List<Long> expected;
        try (Store s = Store.create(d, 8192, opts(Relocation.CONTINUAL, 0))) {
            RelocationTest.build(s);
            expected = RelocationTest.traverse(s, false);
        }
        long relocated;
        try (Store s = Store.open(d, opts(Relocation.ONE_TIME, 1.0))) {
            relocated = s.relocatedPages();
            long before = s.pagesNeedingTranslation();
            assertTrue(before > 0);
            assertEquals(expected, RelocationTest.traverse(s, false)); // read-only, but QS-OR makes it an update
            assertEquals(before, s.pagesRelocatedOnce(), "every translated page was committed");
            assertEquals(0, s.pagesNeedingTranslation());
        }
        PlacementFile pf = PlacementFile.read(RealFileIO.INSTANCE, d);
        assertEquals(
                relocated,
                pf.runs().stream().mapToLong(MappingManager.Descriptor::pages).sum());
        // the offline inspector follows the committed placement: no pointer of the chain is dangling
        long head;
        try (Store s = Store.open(d, opts(Relocation.CONTINUAL, 0));
                Transaction tx = s.begin()) {
            head = tx.root("head");
            tx.commit();
        }
        try (StoreInspector in = StoreInspector.open(d)) {
            long a = head;
            for (int i = 0; i < RelocationTest.NODES; i++) {
                var o = in.object(a);
                for (var f : o.pointers()) {
                    assertFalse(f.target().startsWith("dangling"), "node " + i + ": " + f);
                }
                a = o.pointers().stream()
                        .filter(f -> f.fieldOffset() == RelocationTest.NEXT)
                        .mapToLong(f -> Long.decode(f.value()))
                        .findFirst()
                        .orElse(0);
                if (a == 0) {
                    assertEquals(RelocationTest.NODES - 1, i, "chain length");
                    break;
                }
            }
        }
        for (Relocation p :
                List.of(Relocation.CONTINUAL, Relocation.ONE_TIME)) { // QuickStore's policies (TEXAS: TexasModeTest)
            try (Store s = Store.open(d, opts(p, 0))) {
                assertEquals(relocated, s.relocatedPages(), "the committed placement applies at open");
                assertEquals(0, s.pagesNeedingTranslation(), "no page needs translation any more");
                long faults0 = s.mappedFrames().arena().counters().readFaults();
                assertEquals(expected, RelocationTest.traverse(s, false));
                assertTrue(s.mappedFrames().arena().counters().readFaults() > faults0, "pages faulted in");
                assertEquals(0, s.pagesRelocatedOnce(), "nothing left to commit");
                assertEquals(0, s.pagesNeedingTranslation());
            }
        }
    }

    @Test
    void aCrashAfterTheQsOrCommitRecoversTheTranslatedPages() throws Exception {
        Path d = dir.resolve("crash");
        List<Long> expected;
        try (Store s = Store.create(d, 8192, opts(Relocation.CONTINUAL, 0))) {
            RelocationTest.build(s);
            expected = RelocationTest.traverse(s, false);
        }
        // the committed translation lives only in the log: copy the store before any write-back
        Path copy = dir.resolve("crash-copy");
        StoreOptions bigPool = new StoreOptions(256, 1 << 18, 1 << 22)
                .withFrames(FramesMode.MAPPED)
                .withArenaBytes(1L << 30)
                .withRelocation(Relocation.ONE_TIME, 1.0);
        try (Store s = Store.open(d, bigPool)) { // no eviction: the commit's REDO records carry every page
            assertEquals(expected, RelocationTest.traverse(s, false));
            assertTrue(s.pagesRelocatedOnce() > 0);
            copyTree(d, copy);
        }
        try (Store s = Store.open(copy, opts(Relocation.CONTINUAL, 0))) {
            assertTrue(s.recovery.redoApplied() > 0, "redo of the QS-OR commit: " + s.recovery);
            assertEquals(0, s.pagesNeedingTranslation(), "recovered pages carry the new addresses");
            assertEquals(expected, RelocationTest.traverse(s, false));
        }
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else if (!p.getFileName().toString().equals(VolumeFile.LOCK_FILE)) {
                    Files.copy(p, t);
                }
            }
        }
    }

    @Test
    void anOpenThatCannotFitUnderTheMappingLimitIsRefused() throws Exception {
        Path d = dir.resolve("limit");
        try (Store s = Store.create(d, 8192, opts(Relocation.CONTINUAL, 0))) {
            RelocationTest.build(s);
        }
        long inUse;
        try (var lines = Files.lines(Path.of("/proc/self/maps"))) {
            inUse = lines.count();
        }
        System.setProperty(
                "qs.test.maxMapCount",
                Long.toString(inUse + dev.quickstore.core.buffer.MappingLimit.MAPPING_HEADROOM / 2));
        try {
            StoreException e = assertThrows(
                    StoreException.class,
                    () -> Store.open(d, opts(Relocation.ONE_TIME, 0.5)).close());
            assertTrue(e.getMessage().contains("vm.max_map_count"), e.getMessage());
            assertTrue(
                    e.getMessage().matches("(?s).*needs about \\d+ kernel memory mappings.*only \\d+ of.*"),
                    e.getMessage());
        } finally {
            System.clearProperty("qs.test.maxMapCount");
        }
        assertFalse(Files.exists(PlacementFile.path(d)), "a refused QS-OR open persists no placement");
        try (Store s = Store.open(d, opts(Relocation.CONTINUAL, 0))) {
            assertEquals(0, s.relocatedPages());
            assertEquals(
                    2 * RelocationTest.NODES + 12,
                    RelocationTest.traverse(s, false).size());
        }
    }

    @Test
    void placementKeepsChosenPagesInOneRunPerStretchAndMapsBothWays() {
        long pages = 1 << 20;
        MappingManager m = new MappingManager(1L << 40, 1L << 40, 8192, 4 * pages);
        m.placeAll(pages, p -> (p / 16) % 3 == 1); // every third group of 16 pages
        long runs = (pages / 16 + 1) / 3; // groups 1, 4, 7, ... below pages / 16
        assertEquals(runs, m.descriptors());
        long frame = 2 * pages; // the relocated half starts at frameCount / 2
        for (long p = 0; p < pages; p += 997) {
            boolean chosen = (p / 16) % 3 == 1;
            long f = m.frameOf(p);
            if (chosen) {
                long k = p / 48; // runs before p's
                assertEquals(frame + k * 16 + p % 16, f, "page " + p);
                assertEquals(-1, m.pageOfFrame(p), "identity frame of relocated page " + p);
            } else {
                assertEquals(p, f);
            }
            assertEquals(p, m.pageOfFrame(f));
        }
        assertTrue(m.buildRanges());
        assertEquals(runs, m.ranges()[0].length);
    }

    @Test
    void placementFileRoundTripsAndNamesWhatIsDamaged() {
        PlacementFile pf = new PlacementFile(
                8192,
                1L << 40,
                1L << 21,
                List.of(
                        new MappingManager.Descriptor(16, 16, 1L << 21),
                        new MappingManager.Descriptor(48, 3, (1L << 21) + 16)),
                new long[][] {{1L << 40, 2L << 40}, {(1L << 40) + 8192, (2L << 40) + 8192}, {-5, 7}});
        byte[] bytes = pf.encode();
        PlacementFile back = PlacementFile.decode("p", bytes);
        assertEquals(pf.runs(), back.runs());
        assertEquals(pf.relocatedRegion(), back.relocatedRegion());
        assertEquals(pf.arenaBase(), back.arenaBase());
        assertTrue(java.util.Arrays.deepEquals(pf.ranges(), back.ranges()));
        byte[] flipped = bytes.clone();
        flipped[50] ^= 1;
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> PlacementFile.decode("p", flipped));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        byte[] magic = bytes.clone();
        magic[0] = 'X';
        e = assertThrows(StoreFormatException.class, () -> PlacementFile.decode("p", magic));
        assertTrue(e.getMessage().contains("QSPLACE1"), e.getMessage());
        e = assertThrows(
                StoreFormatException.class,
                () -> PlacementFile.decode("p", java.util.Arrays.copyOf(bytes, bytes.length - 24)));
        assertTrue(e.getMessage().contains("placement file"), e.getMessage());
    }

    @Test
    void aTakenPreferredBaseUnderQsOrCommitsTheNewBase() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        List<Long> expected;
        try (Store s = Store.create(b, 8192, opts(Relocation.CONTINUAL, 0))) {
            RelocationTest.build(s);
            expected = RelocationTest.traverse(s, false);
        }
        long movedBase;
        try (Store first = Store.create(a, 8192, opts(Relocation.CONTINUAL, 0))) {
            try (Store s = Store.open(b, opts(Relocation.ONE_TIME, 0))) { // base taken by the first store
                assertTrue(s.mappedFrames().movedArena());
                movedBase = s.arenaBase();
                assertTrue(movedBase != first.arenaBase());
                assertTrue(s.pagesNeedingTranslation() > 0);
                assertEquals(expected, RelocationTest.traverse(s, false));
                assertEquals(0, s.pagesNeedingTranslation());
            }
        }
        assertEquals(movedBase, PlacementFile.read(RealFileIO.INSTANCE, b).arenaBase());
        try (Store s = Store.open(b, opts(Relocation.CONTINUAL, 0))) { // at the committed base now
            assertEquals(movedBase, s.arenaBase());
            assertEquals(0, s.pagesNeedingTranslation());
            assertEquals(expected, RelocationTest.traverse(s, false));
        }
    }
}
