package dev.quickstore.oo7;

import dev.quickstore.oo7.schema.Assembly;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Module;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * One client's side of the OO7 multi-user workload (after the multi-user variant of Carey, DeWitt, Kant and
 * Naughton, "A Status Report on the OO7 OODBMS Benchmarking Effort", OOPSLA 1994): the database has one module
 * per client plus a shared one ({@link #config}); every transaction picks the shared module with probability
 * {@code sharedPercent} (else the client's private module), descends from the module's design root to a random
 * base assembly, and runs one traversal on the private composite parts of that base assembly:
 *
 * <ul>
 *   <li>reads ({@code 100 - updatePercent}, half each): {@link Op#T1} (depth-first over each composite's atomic
 *       parts) or {@link Op#T6} (its root part only);
 *   <li>updates ({@code updatePercent}, half each): {@link Op#T2A} (swap x and y of each composite's root part)
 *       or {@link Op#T2B} (of every atomic part visited).
 * </ul>
 *
 * A base assembly's private composite parts belong to its own module (Oo7Builder), so clients conflict only on
 * the shared module (and on pages that happen to hold objects of two modules). The caller brackets each
 * operation with the store's begin and commit and retries it when the commit fails.
 */
public final class Oo7MultiUser {
    /** The module every client shares. */
    public static final int SHARED_MODULE = 1;

    /** The operations of the mix. */
    public enum Op {
        T1(false),
        T6(false),
        T2A(true),
        T2B(true);

        private final boolean update;

        Op(boolean update) {
            this.update = update;
        }

        public boolean update() {
            return update;
        }
    }

    /** What one transaction does: the operation and whether it runs on the shared module. */
    public record Choice(Op op, boolean shared) {}

    private final Oo7Store store;
    private final int client;
    private final int sharedPercent;
    private final int updatePercent;
    private final Random rnd;
    private final Set<Integer> visited = new HashSet<>();

    /**
     * @param client this client's number, 0-based: its private module is {@link #privateModule}
     */
    public Oo7MultiUser(Oo7Store store, int client, int sharedPercent, int updatePercent, long seed) {
        if (sharedPercent < 0 || sharedPercent > 100 || updatePercent < 0 || updatePercent > 100) {
            throw new IllegalArgumentException(
                    "percentages outside 0..100: shared " + sharedPercent + ", updates " + updatePercent);
        }
        this.store = Objects.requireNonNull(store);
        this.client = client;
        this.sharedPercent = sharedPercent;
        this.updatePercent = updatePercent;
        this.rnd = new Random(seed * 1_000_003L + client);
    }

    /** {@code base} with one module per client plus the shared one (modules 1 shared, 2.. private). */
    public static Oo7Config config(Oo7Config base, int clients) {
        if (clients < 1) {
            throw new IllegalArgumentException("clients " + clients + " < 1");
        }
        return new Oo7Config(
                base.name(),
                base.numAtomicPerComp(),
                base.numConnPerAtomic(),
                base.documentSize(),
                base.manualSize(),
                base.numCompPerModule(),
                base.numAssmPerAssm(),
                base.numAssmLevels(),
                base.numCompPerAssm(),
                clients + 1);
    }

    /** The private module of client {@code client} (0-based). */
    public static int privateModule(int client) {
        return client + 2;
    }

    /** The next transaction's choice (by this client's seeded random stream). */
    public Choice next() {
        boolean shared = rnd.nextInt(100) < sharedPercent;
        boolean update = rnd.nextInt(100) < updatePercent;
        boolean first = rnd.nextBoolean();
        Op op = update ? (first ? Op.T2A : Op.T2B) : (first ? Op.T1 : Op.T6);
        return new Choice(op, shared);
    }

    /**
     * Runs {@code c} inside the store's current transaction; returns the atomic parts visited (reads) or updated.
     * The base assembly is drawn from this client's random stream (a retried choice may draw another one).
     */
    public int run(Choice c) {
        int id = c.shared() ? SHARED_MODULE : privateModule(client);
        Module m = Objects.requireNonNull(
                store.moduleById(id),
                () -> "no module " + id + ": the database has"
                        + " fewer modules than clients + 1 (built for fewer clients)");
        Assembly a = m.designRoot();
        while (a instanceof ComplexAssembly complex) {
            List<Assembly> subs = complex.subAssemblies();
            a = subs.get(rnd.nextInt(subs.size()));
        }
        List<CompositePart> parts = ((BaseAssembly) a).componentsPriv();
        int count = 0;
        for (int i = 0, n = parts.size(); i < n; i++) {
            AtomicPart root = parts.get(i).rootPart();
            switch (c.op()) {
                case T6 -> count += root.id() != 0 ? 1 : 0;
                case T2A -> count += swap(root);
                case T1, T2B -> {
                    visited.clear();
                    visited.add(root.id());
                    count += dfs(root, c.op() == Op.T2B);
                }
            }
        }
        return count;
    }

    private int dfs(AtomicPart part, boolean update) {
        int count = update ? swap(part) : 1;
        List<Connection> to = part.to();
        for (int i = 0, n = to.size(); i < n; i++) {
            AtomicPart next = to.get(i).to();
            if (visited.add(next.id())) {
                count += dfs(next, update);
            }
        }
        return count;
    }

    private static int swap(AtomicPart part) {
        int x = part.x();
        part.x(part.y());
        part.y(x);
        return 1;
    }
}
