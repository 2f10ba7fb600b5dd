package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.Oo7Operations.Parameters;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Module;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-module build rules (the large database's shape) on a tiny configuration that builds in
 * milliseconds: 3 modules, 4 assembly levels (13 complex + 27 base per module), 50 composites per module.
 */
class Oo7MultiModuleTest {
    static final Oo7Config TINY = new Oo7Config("tiny", 5, 3, 100, 1_000, 50, 3, 4, 3, 3);

    @Test
    void privateComponentsComeFromTheOwnModuleAndSharedOnesFromAll() {
        HeapOo7Store store = new HeapOo7Store();
        new Oo7Builder(TINY, 9).build(store, Oo7Builder.Progress.NONE);
        assertEquals(13, TINY.complexAssembliesPerModule());
        assertEquals(27, TINY.baseAssembliesPerModule());
        assertEquals(3, store.modules().size());

        Set<Integer> sharedModules = new HashSet<>();
        Set<Integer> baseIds = new HashSet<>();
        for (Module m : store.modules()) {
            assertEquals(27, m.assemblies().size());
            assertEquals(m.id(), m.man().mod().id());
            for (BaseAssembly ba : m.assemblies()) {
                assertTrue(baseIds.add(ba.id()), "base assembly ids are unique across modules");
                assertEquals(m.id(), ba.module().id());
                for (CompositePart cp : ba.componentsPriv()) {
                    assertEquals(m.id(), moduleOf(cp), "private component of module " + m.id());
                }
                for (CompositePart cp : ba.componentsShar()) {
                    sharedModules.add(moduleOf(cp));
                }
            }
        }
        assertEquals(Set.of(1, 2, 3), sharedModules, "shared components are drawn from every module");
        assertEquals(81, baseIds.size());

        Oo7Operations ops = new Oo7Operations(store, TINY, 1, Parameters.DEFAULTS);
        int t1 = ops.run(Oo7Operation.T1);
        // per module: 27 base assemblies x 3 private components x 5 atomic parts
        assertEquals(27 * 3 * 5, t1);
        assertEquals(3 * t1, ops.run(Oo7Operation.T10), "T10 is T1 over every module");
        assertEquals(3 * 50 * 5, ops.run(Oo7Operation.Q7));
        assertEquals(3 * 50 * 5, ops.run(Oo7Operation.Q8));
    }

    @TempDir
    Path tmp;

    /**
     * The large database's code paths on the mapped store (T10 over several modules, shared components across
     * modules, per-module indexes): the tiny multi-module database built on qs holds the heap's database, and
     * a cold and a hot round of every operation (T10 included) return the heap's counts.
     */
    @Test
    void theMappedStoreAgreesWithTheHeapOnEveryOperationOfAMultiModuleDatabase() throws Exception {
        HeapOo7Store heap = new HeapOo7Store();
        new Oo7Builder(TINY, 9).build(heap, Oo7Builder.Progress.NONE);
        List<Oo7Operation> all = Oo7Runner.defaultOperations(TINY);
        assertTrue(all.contains(Oo7Operation.T10));
        Oo7Operations heapOps = new Oo7Operations(heap, TINY, 1, Parameters.DEFAULTS);
        List<Oo7Result> expected = new java.util.ArrayList<>(Oo7Runner.run(heapOps, new Oo7Runner.Options(all, 1, 0)));
        expected.addAll(Oo7Runner.run(heapOps, new Oo7Runner.Options(all, 1, 0)));
        try (MappedOo7Store qs = MappedOo7Store.create(tmp.resolve("tiny"), false)) {
            new Oo7Builder(TINY, 9).build(qs, Oo7Builder.Progress.NONE);
            assertEquals(Oo7Digest.of(heap), Oo7SmallContract.digest(qs));
            List<Oo7Result> got = Oo7Runner.run(
                    new Oo7Operations(qs, TINY, 1, Parameters.DEFAULTS), new Oo7Runner.Options(all, 1, 0));
            assertEquals(expected.size(), got.size(), "a cold and a hot round");
            for (int i = 0; i < got.size(); i++) {
                assertEquals(expected.get(i).operation(), got.get(i).operation());
                assertEquals(
                        expected.get(i).count(),
                        got.get(i).count(),
                        got.get(i).operation() + " " + got.get(i).phase());
            }
            assertEquals(Oo7Digest.of(heap), Oo7SmallContract.digest(qs), "both rounds left the databases alike");
        }
    }

    private static int moduleOf(CompositePart cp) {
        return (cp.id() - 1) / TINY.numCompPerModule() + 1;
    }
}
