package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.Oo7Operations.Parameters;
import dev.quickstore.oo7.Oo7Operations.T2Update;
import dev.quickstore.oo7.schema.Assembly;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Module;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The deterministic counts of design notes section 6 (and the other operation semantics) on the small
 * database, for any {@link Oo7Store}: a store's test class extends this and supplies {@link #newStore()}.
 * Every store this creates is closed after each test.
 */
abstract class Oo7SmallContract {
    static final long SEED = 42;

    private final List<Oo7Store> stores = new ArrayList<>();

    /** A new, empty store. */
    protected abstract Oo7Store newStore();

    @AfterEach
    void closeStores() {
        stores.forEach(Oo7Store::close);
        stores.clear();
    }

    /** Builds the small database from {@code seed} into a new store. */
    final Oo7Store build(long seed) {
        Oo7Store store = newStore();
        stores.add(store);
        new Oo7Builder(Oo7Config.SMALL, seed).build(store, Oo7Builder.Progress.NONE);
        return store;
    }

    static Oo7Operations ops(Oo7Store store, Parameters params) {
        return new Oo7Operations(store, Oo7Config.SMALL, 7, params);
    }

    static Oo7Operations ops(Oo7Store store) {
        return ops(store, Parameters.DEFAULTS);
    }

    /** Runs direct reads of the database in a transaction (a mapped store faults only inside one). */
    static void tx(Oo7Store store, Runnable body) {
        store.begin();
        body.run();
        store.commit();
    }

    static <T> T tx(Oo7Store store, Supplier<T> body) {
        store.begin();
        T result = body.get();
        store.commit();
        return result;
    }

    static String digest(Oo7Store store) {
        return tx(store, () -> Oo7Digest.of(store));
    }

    // ------------------------------------------------------------------------------------ the database

    @Test
    void buildCreatesTheSmallDatabase() {
        Oo7Store store = build(SEED);
        tx(store, () -> {
            int[] atomic = {0};
            long[] connections = {0, 0};
            store.forEachAtomicPart(p -> {
                atomic[0]++;
                connections[0] += p.to().size();
                connections[1] += p.from().size();
            });
            assertEquals(10_000, atomic[0]);
            assertEquals(30_000, connections[0]);
            assertEquals(30_000, connections[1]);

            int[] composites = {0};
            store.forEachCompositePart(cp -> composites[0]++);
            assertEquals(500, composites[0]);

            assertEquals(1, store.modules().size());
            Module m = store.modules().get(0);
            int[] counts = new int[2];
            countAssemblies(m.designRoot(), counts, 1);
            assertEquals(364, counts[0], "complex assemblies");
            assertEquals(729, counts[1], "base assemblies");
            assertEquals(729, m.assemblies().size());
            for (int id = 1; id <= 729; id++) {
                assertNotNull(store.baseAssemblyById(id));
            }
            assertEquals(99_999, m.man().textLen());
        });
    }

    private static void countAssemblies(Assembly a, int[] counts, int level) {
        if (a instanceof ComplexAssembly ca) {
            counts[0]++;
            assertEquals(3, ca.subAssemblies().size());
            for (Assembly sub : ca.subAssemblies()) {
                assertEquals(ca.id(), sub.superAssembly().id());
                countAssemblies(sub, counts, level + 1);
            }
        } else {
            counts[1]++;
            assertEquals(7, level, "base assemblies are on level 7");
            BaseAssembly ba = (BaseAssembly) a;
            assertEquals(3, ba.componentsPriv().size());
            assertEquals(3, ba.componentsShar().size());
        }
    }

    @Test
    void buildFollowsTheRulesOfSection6() {
        Oo7Store store = build(SEED);
        tx(store, () -> {
            store.forEachCompositePart(cp -> {
                int i = cp.id();
                boolean young = i % 10 == 0;
                assertTrue(young ? cp.buildDate() >= 2000 && cp.buildDate() <= 2999 : cp.buildDate() <= 999, "date");
                assertEquals(
                        String.format("Composite Part %08d", i),
                        cp.documentation().title());
                assertEquals(i, cp.documentation().id());
                assertEquals(1_999, cp.documentation().text().length());
                assertTrue(cp.documentation()
                        .text()
                        .toString()
                        .startsWith(String.format("I am the documentation for composite part #%08d.\n", i)));
                assertEquals(20, cp.parts().size());
                assertEquals((i - 1) * 20 + 1, cp.rootPart().id());
                for (int k = 0; k < 20; k++) {
                    AtomicPart p = cp.parts().get(k);
                    assertEquals((i - 1) * 20 + k + 1, p.id());
                    assertEquals(i, p.docId());
                    assertEquals(i, p.partOf().id());
                    assertTrue(p.buildDate() >= 1000 && p.buildDate() <= 1999);
                    assertTrue(p.x() >= 0 && p.x() <= 99_999 && p.y() >= 0 && p.y() <= 99_999);
                    assertTrue(p.type().matches("type00[0-9]"), p.type());
                    assertEquals(3, p.to().size());
                    Connection ring = p.to().get(0);
                    assertEquals((i - 1) * 20 + (k + 1) % 20 + 1, ring.to().id(), "ring connection");
                    for (Connection c : p.to()) {
                        assertEquals(i, c.to().partOf().id(), "connections stay inside the composite");
                        assertTrue(c.to().from().contains(c), "inverse connection");
                    }
                }
                for (BaseAssembly ba : cp.usedInPriv()) {
                    assertTrue(ba.componentsPriv().contains(cp));
                }
            });
            assertNotNull(store.documentByTitle("Composite Part 00000500"));
            assertNull(store.documentByTitle("Composite Part 00000501"));
        });
    }

    @Test
    void holdsTheSameDatabaseAsTheHeapStore() {
        Oo7Store heap = new dev.quickstore.oo7.heap.HeapOo7Store();
        new Oo7Builder(Oo7Config.SMALL, SEED).build(heap, Oo7Builder.Progress.NONE);
        assertEquals(digest(heap), digest(build(SEED)));
    }

    @Test
    void sameSeedGivesTheSameDatabaseAndAnotherSeedAnother() {
        String a = digest(build(SEED));
        assertEquals(a, digest(build(SEED)));
        assertNotEquals(a, digest(build(SEED + 1)));
    }

    // -------------------------------------------------------------------------------------- traversals

    @Test
    void readOnlyTraversals() {
        Oo7Operations ops = ops(build(SEED));
        assertEquals(43_740, ops.run(Oo7Operation.T1));
        assertEquals(2_187, ops.run(Oo7Operation.T6));
        assertEquals(83_106, ops.run(Oo7Operation.T4));
        assertEquals(2_632, ops.run(Oo7Operation.T8));
        assertEquals(0, ops.run(Oo7Operation.T9));
        assertEquals(43_740, ops.run(Oo7Operation.T10), "T10 is T1 over the only module");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void countsMarkedDeterministicDoNotDependOnTheSeed(long seed) {
        Oo7Operations ops = ops(build(seed));
        assertEquals(43_740, ops.run(Oo7Operation.T1));
        assertEquals(2_187, ops.run(Oo7Operation.T6));
        assertEquals(83_106, ops.run(Oo7Operation.T4));
        assertEquals(10_000, ops.run(Oo7Operation.Q7));
        assertEquals(10_000, ops.run(Oo7Operation.Q8));
        assertEquals(10, ops.run(Oo7Operation.Q1));
        int q2 = ops.run(Oo7Operation.Q2);
        int q3 = ops.run(Oo7Operation.Q3);
        int q5 = ops.run(Oo7Operation.Q5);
        // Binomial counts: 100 +- 10, 1,000 +- 30, 218.7 +- 14 (one standard deviation); +-5 sd accepted.
        assertTrue(q2 >= 50 && q2 <= 150, "Q2 " + q2);
        assertTrue(q3 >= 850 && q3 <= 1150, "Q3 " + q3);
        assertTrue(q5 >= 150 && q5 <= 290, "Q5 " + q5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SWAP", "INCREMENT"})
    void t2CountsUpdates(T2Update variant) {
        Oo7Operations ops = ops(build(SEED), new Parameters(variant, 10, 5));
        assertEquals(2_187, ops.run(Oo7Operation.T2A));
        assertEquals(43_740, ops.run(Oo7Operation.T2B));
        assertEquals(174_960, ops.run(Oo7Operation.T2C));
    }

    @Test
    void t2IncrementChangesAreVisibleAfterwards() {
        Oo7Store store = build(SEED);
        Map<Integer, int[]> before = new HashMap<>();
        tx(store, () -> store.forEachAtomicPart(p -> before.put(p.id(), new int[] {p.x(), p.y()})));
        Map<Integer, Integer> visits = privateVisitsPerComposite(store);

        ops(store, new Parameters(T2Update.INCREMENT, 10, 5)).run(Oo7Operation.T2B);

        tx(
                store,
                () -> store.forEachAtomicPart(p -> {
                    int v = visits.getOrDefault(p.partOf().id(), 0);
                    assertEquals(before.get(p.id())[0] + v, p.x(), "x of part " + p.id());
                    assertEquals(before.get(p.id())[1] + v, p.y(), "y of part " + p.id());
                }));
    }

    @Test
    void t2SwapChangesAreVisibleAfterwards() {
        Oo7Store store = build(SEED);
        Map<Integer, Integer> visits = privateVisitsPerComposite(store);
        Map<Integer, int[]> before = new HashMap<>();
        tx(store, () -> store.forEachAtomicPart(p -> before.put(p.id(), new int[] {p.x(), p.y()})));

        ops(store).run(Oo7Operation.T2A);

        tx(
                store,
                () -> store.forEachAtomicPart(p -> {
                    int[] xy = before.get(p.id());
                    boolean swapped = p.partOf().rootPart().id() == p.id()
                            && visits.getOrDefault(p.partOf().id(), 0) % 2 == 1;
                    assertEquals(swapped ? xy[1] : xy[0], p.x());
                    assertEquals(swapped ? xy[0] : xy[1], p.y());
                }));
    }

    /** For each composite id, how often T1 visits it (its number of occurrences in private bags). */
    private static Map<Integer, Integer> privateVisitsPerComposite(Oo7Store store) {
        Map<Integer, Integer> visits = new HashMap<>();
        tx(store, () -> {
            for (BaseAssembly ba : store.modules().get(0).assemblies()) {
                for (CompositePart cp : ba.componentsPriv()) {
                    visits.merge(cp.id(), 1, Integer::sum);
                }
            }
        });
        return visits;
    }

    @Test
    void t2SwapTwiceAndT3TwiceRestoreTheDatabase() {
        Oo7Store store = build(SEED);
        String digest = digest(store);
        Oo7Operations ops = ops(store);
        ops.run(Oo7Operation.T2B);
        assertNotEquals(digest, digest(store));
        ops.run(Oo7Operation.T2B);
        assertEquals(digest, digest(store));
        assertEquals(43_740, ops.run(Oo7Operation.T3B));
        assertNotEquals(digest, digest(store));
        assertEquals(43_740, ops.run(Oo7Operation.T3B));
        assertEquals(digest, digest(store));
    }

    @Test
    void t3CountsUpdatesAndKeepsTheBuildDateIndexConsistent() {
        Oo7Store store = build(SEED);
        Oo7Operations ops = ops(store);
        assertEquals(2_187, ops.run(Oo7Operation.T3A));
        assertIndexMatchesScan(store);
        assertEquals(43_740, ops.run(Oo7Operation.T3B));
        assertIndexMatchesScan(store);
        assertEquals(174_960, ops.run(Oo7Operation.T3C));
        assertIndexMatchesScan(store);
    }

    @Test
    void t3TogglesOddUpAndEvenDown() {
        Oo7Store store = build(SEED);
        Map<Integer, Integer> visits = privateVisitsPerComposite(store);
        Map<Integer, Integer> before = new HashMap<>();
        tx(store, () -> store.forEachAtomicPart(p -> before.put(p.id(), p.buildDate())));
        ops(store).run(Oo7Operation.T3B);
        tx(
                store,
                () -> store.forEachAtomicPart(p -> {
                    int d = before.get(p.id());
                    int toggled = d % 2 != 0 ? d + 1 : d - 1;
                    boolean odd = visits.getOrDefault(p.partOf().id(), 0) % 2 == 1;
                    assertEquals(odd ? toggled : d, p.buildDate(), "part " + p.id());
                }));
        assertIndexMatchesScan(store);
    }

    private static void assertIndexMatchesScan(Oo7Store store) {
        tx(store, () -> assertIndexMatchesScanInTx(store));
    }

    static void assertIndexMatchesScanInTx(Oo7Store store) {
        List<String> scanned = new ArrayList<>();
        store.forEachAtomicPart(p -> scanned.add(p.buildDate() + "/" + p.id()));
        List<String> indexed = new ArrayList<>();
        int[] lastDate = {Integer.MIN_VALUE};
        store.scanAtomicPartsByBuildDate(Integer.MIN_VALUE, Integer.MAX_VALUE, p -> {
            assertTrue(p.buildDate() >= lastDate[0], "index scan is ordered by build date");
            lastDate[0] = p.buildDate();
            indexed.add(p.buildDate() + "/" + p.id());
        });
        assertEquals(Set.copyOf(scanned), Set.copyOf(indexed));
        assertEquals(scanned.size(), indexed.size());
        // a narrow range returns exactly the parts in it
        int[] inRange = {0};
        store.forEachAtomicPart(p -> inRange[0] += p.buildDate() >= 1500 && p.buildDate() <= 1510 ? 1 : 0);
        int[] viaIndex = {0};
        store.scanAtomicPartsByBuildDate(1500, 1510, p -> viaIndex[0]++);
        assertEquals(inRange[0], viaIndex[0]);
    }

    @Test
    void t5DoAndUndo() {
        Oo7Store store = build(SEED);
        String digest = digest(store);
        int distinct = privateVisitsPerComposite(store).size();
        Oo7Operations ops = ops(store);
        assertEquals(distinct, ops.run(Oo7Operation.T5DO));
        assertEquals(0, ops.run(Oo7Operation.T5DO), "already done");
        tx(store, () -> {
            CompositePart cp =
                    store.modules().get(0).assemblies().get(0).componentsPriv().get(0);
            assertTrue(cp.documentation().text().toString().startsWith("This is the documentation"));
            assertEquals(2_002, cp.documentation().text().length());
        });
        assertEquals(distinct, ops.run(Oo7Operation.T5UNDO));
        assertEquals(digest, digest(store));
    }

    @Test
    void t7WalksFromAnAtomicPartToTheDesignRoot() {
        Oo7Store store = build(SEED);
        Oo7Operations ops = ops(store);
        tx(store, () -> {
            for (int id = 1; id <= 10_000; id += 97) {
                AtomicPart p = store.atomicPartById(id);
                assertEquals(7 * p.partOf().usedInPriv().size(), ops.t7(id), "part " + id);
            }
        });
        assertEquals(0, ops.run(Oo7Operation.T7) % 7);
    }

    // ----------------------------------------------------------------------------------------- queries

    @Test
    void q4CountsTheBaseAssembliesUsingEachDocumentsPart() {
        Oo7Store store = build(SEED);
        int[] ids = {1, 10, 77, 250, 499, 500};
        tx(store, () -> {
            int expected = 0;
            for (int id : ids) {
                for (BaseAssembly ba : store.modules().get(0).assemblies()) {
                    for (CompositePart cp : ba.componentsPriv()) {
                        expected += cp.id() == id ? 1 : 0;
                    }
                }
            }
            assertEquals(expected, ops(store).q4(ids));
        });
        assertTrue(ops(store).run(Oo7Operation.Q4) >= 0);
    }

    @Test
    void q5CountsYoungPrivateReferencesAndQ6MatchesABruteForceDefinition() {
        Oo7Store store = build(SEED);
        int young = tx(store, () -> {
            int n = 0;
            for (BaseAssembly ba : store.modules().get(0).assemblies()) {
                for (CompositePart cp : ba.componentsPriv()) {
                    n += cp.id() % 10 == 0 ? 1 : 0;
                }
            }
            return n;
        });
        Oo7Operations ops = ops(store);
        assertEquals(young, ops.run(Oo7Operation.Q5), "composite dates are all above or all below assembly dates");

        int expected = tx(store, () -> {
            List<Assembly> all = new ArrayList<>();
            collect(store.modules().get(0).designRoot(), all);
            int n = 0;
            for (Assembly a : all) {
                Set<Integer> dates = new HashSet<>();
                List<BaseAssembly> bases = new ArrayList<>();
                collectBases(a, bases);
                for (BaseAssembly ba : bases) {
                    for (CompositePart cp : ba.componentsPriv()) {
                        dates.add(cp.buildDate());
                    }
                }
                if (dates.stream().anyMatch(d -> d > a.buildDate())) {
                    n++;
                }
            }
            return n;
        });
        assertEquals(expected, ops.run(Oo7Operation.Q6));
    }

    private static void collect(Assembly a, List<Assembly> out) {
        out.add(a);
        if (a instanceof ComplexAssembly ca) {
            ca.subAssemblies().forEach(sub -> collect(sub, out));
        }
    }

    private static void collectBases(Assembly a, List<BaseAssembly> out) {
        if (a instanceof ComplexAssembly ca) {
            ca.subAssemblies().forEach(sub -> collectBases(sub, out));
        } else {
            out.add((BaseAssembly) a);
        }
    }

    // ------------------------------------------------------------------------- structural modifications

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 10})
    void sm1AddsTwentyVisitsPerCompositeAndSm2RestoresTheDatabase(int k) {
        Oo7Store store = build(SEED);
        String digest = digest(store);
        Oo7Operations ops = ops(store, new Parameters(T2Update.SWAP, 10, k));
        assertEquals(k, ops.run(Oo7Operation.SM1));
        assertEquals(43_740 + 20 * k, ops.run(Oo7Operation.T1));
        assertEquals(10_000 + 20 * k, ops.run(Oo7Operation.Q7));
        assertEquals(10_000 + 20 * k, ops.run(Oo7Operation.Q8));
        tx(store, () -> {
            assertNotNull(store.compositePartById(500 + k));
            assertNotNull(store.documentByTitle(Oo7Builder.documentTitle(500 + k)));
        });

        assertEquals(k, ops.run(Oo7Operation.SM2));
        assertEquals(43_740, ops.run(Oo7Operation.T1));
        assertEquals(10_000, ops.run(Oo7Operation.Q7));
        tx(store, () -> {
            assertNull(store.compositePartById(501));
            assertNull(store.atomicPartById(10_001));
            assertNull(store.documentByTitle(Oo7Builder.documentTitle(501)));
            assertNull(store.documentById(501));
        });
        assertEquals(digest, digest(store));
        assertEquals(0, ops.run(Oo7Operation.SM2), "nothing left to delete");
        assertIndexMatchesScan(store);
    }

    @Test
    void repeatedSm1Sm2RoundsReuseIds() {
        Oo7Store store = build(SEED);
        Oo7Operations ops = ops(store);
        for (int round = 0; round < 3; round++) {
            assertEquals(5, ops.run(Oo7Operation.SM1));
            tx(store, () -> {
                assertNotNull(store.compositePartById(505));
                assertNull(store.compositePartById(506));
            });
            assertEquals(5, ops.run(Oo7Operation.SM2));
        }
        assertEquals(43_740, ops.run(Oo7Operation.T1));
    }
}
