package dev.quickstore.oo7;

import dev.quickstore.api.Splice;
import dev.quickstore.oo7.schema.Assembly;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * The OO7 operations (Carey, DeWitt and Naughton 1993, section 4; White and DeWitt 1994, section 4.2; design
 * notes section 6) over any {@link Oo7Store}. Each method returns the operation's result count.
 *
 * <p>The methods run inside the caller's transaction; {@link #run(Oo7Operation)} brackets one operation with
 * {@link Oo7Store#begin()} and {@link Oo7Store#commit()}. Traversals T1-T9 work on module 1 (OO7 runs them on
 * one module); T10 and the queries cover the whole database. Random choices (T7, Q1, Q4, SM1) come from one
 * {@link Random} seeded at construction, so a given sequence of operations is reproducible.
 *
 * <p>Navigation never compares objects with {@code ==}: visited sets are keyed by atomic-part id.
 */
public final class Oo7Operations {

    /** How T2 updates an atomic part's {@code (x, y)}. */
    public enum T2Update {
        /** Swap x and y, as OO7 specifies (two updates restore the value). */
        SWAP,
        /**
         * Increment both, as QuickStore ran T2 (White and DeWitt 1994, section 4.2.1, footnote 1) so that every
         * update changes bytes and the diffing recovery scheme always logs.
         */
        INCREMENT
    }

    /**
     * Tunables that differ between sources.
     *
     * @param t2Update the T2 update variant
     * @param q4Lookups documents looked up by Q4 (10 in White and DeWitt 1994; 100 in some OO7 versions)
     * @param sm1Size composite parts inserted by SM1 and deleted by SM2 (5 in OO7; 10 in some versions)
     */
    public record Parameters(T2Update t2Update, int q4Lookups, int sm1Size) {
        public static final Parameters DEFAULTS = new Parameters(T2Update.SWAP, 10, 5);

        public Parameters {
            Objects.requireNonNull(t2Update);
            if (q4Lookups < 0 || sm1Size < 0) {
                throw new IllegalArgumentException("negative Q4 lookups or SM1 size");
            }
        }
    }

    private static final int T1 = 0, T2A = 1, T2B = 2, T2C = 3, T3A = 4, T3B = 5, T3C = 6;
    private static final String T5_FROM = "I am", T5_TO = "This is";

    private final Oo7Store store;
    private final Oo7Config config;
    private final Parameters params;
    private final Random rnd;
    private final IntSet visited;
    private final Deque<Integer> inserted = new ArrayDeque<>();
    private int nextCompositeId;

    public Oo7Operations(Oo7Store store, Oo7Config config, long seed, Parameters params) {
        this.store = Objects.requireNonNull(store);
        this.config = Objects.requireNonNull(config);
        this.params = Objects.requireNonNull(params);
        this.rnd = new Random(seed);
        this.visited = new IntSet(config.numAtomicPerComp());
    }

    public Oo7Store store() {
        return store;
    }

    public Oo7Config config() {
        return config;
    }

    /** Runs one operation in its own transaction (aborting it if the operation throws). */
    public int run(Oo7Operation op) {
        store.begin();
        int result;
        try {
            result = op.apply(this);
        } catch (RuntimeException | Error e) {
            try {
                store.abort();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        store.commit();
        return result;
    }

    private Module module1() {
        return Objects.requireNonNull(store.moduleById(1), "no module 1: database not built");
    }

    // -------------------------------------------------------------------------------------- traversals

    /**
     * T1, raw traversal: depth-first over the assembly hierarchy of module 1; at each base assembly visit every
     * composite part of its private bag (duplicates visited again) and do a depth-first search of its atomic
     * parts from the root part along {@code to} connections, each part once per visit. Returns the number of
     * atomic-part visits (43,740 small, 437,400 medium).
     */
    public int t1() {
        return traverse(module1().designRoot(), T1);
    }

    /**
     * T2a/b/c, traversal with updates: T1 that updates {@code (x, y)} of (a) the root part of each visited
     * composite, (b) every visited atomic part, (c) every visited atomic part four times, using the configured
     * {@link T2Update}. Returns the number of updates (a: 2,187; b: 43,740; c: 174,960 small).
     */
    public int t2a() {
        return traverse(module1().designRoot(), T2A);
    }

    /** T2b: see {@link #t2a()}. */
    public int t2b() {
        return traverse(module1().designRoot(), T2B);
    }

    /** T2c: see {@link #t2a()}. */
    public int t2c() {
        return traverse(module1().designRoot(), T2C);
    }

    /**
     * T3a/b/c, traversal with indexed-field updates: like T2a/b/c but each update toggles the atomic part's
     * indexed {@code buildDate} (odd: +1, even: -1, design notes section 6; QuickStore incremented it) through
     * {@link Oo7Store#updateBuildDate}, which maintains the build-date index. Returns the number of updates.
     */
    public int t3a() {
        return traverse(module1().designRoot(), T3A);
    }

    /** T3b: see {@link #t3a()}. */
    public int t3b() {
        return traverse(module1().designRoot(), T3B);
    }

    /** T3c: see {@link #t3a()}. */
    public int t3c() {
        return traverse(module1().designRoot(), T3C);
    }

    /**
     * T4, traversal with document scan: traverse the assembly hierarchy of module 1 and, for each composite part
     * visited (private bags, duplicates included), count the occurrences of 'I' in its document. Returns the
     * total (83,106 small).
     */
    public int t4() {
        int[] count = {0};
        forEachVisitedComposite(
                module1().designRoot(),
                cp -> count[0] += countChar(cp.documentation().text(), 'I'));
        return count[0];
    }

    /**
     * T5 do, traversal with document updates: for each composite part visited as in T4 whose document text
     * begins with {@code "I am"}, replace that prefix by {@code "This is"} (the text grows by three characters).
     * Returns the number of documents changed; a composite visited twice is changed once.
     */
    public int t5do() {
        return t5(T5_FROM, T5_TO);
    }

    /** T5 undo: the inverse of {@link #t5do()} ({@code "This is"} back to {@code "I am"}). */
    public int t5undo() {
        return t5(T5_TO, T5_FROM);
    }

    private int t5(String from, String to) {
        int[] count = {0};
        forEachVisitedComposite(module1().designRoot(), cp -> {
            Document doc = cp.documentation();
            CharSequence text = doc.text();
            if (startsWith(text, from)) {
                doc.text(Splice.replace(text, 0, from.length(), to)); // a store may edit the stored text in place
                count[0]++;
            }
        });
        return count[0];
    }

    /**
     * T6, sparse traversal: like T1 but visits only the root atomic part of each composite part. Returns the
     * number of root-part visits (2,187).
     */
    public int t6() {
        int[] count = {0};
        forEachVisitedComposite(module1().designRoot(), cp -> {
            if (cp.rootPart().id() != 0) { // touch the root part as OO7 does
                count[0]++;
            }
        });
        return count[0];
    }

    /**
     * T7, traversal up the hierarchy: pick a random atomic part (uniform over the original ids), go to its
     * composite part and, for every base assembly in that composite's private-use bag, walk {@code
     * superAssembly} up to the design root. Returns the number of assemblies visited (7 per using base
     * assembly; OO7 is silent on a composite with several users, White and DeWitt 1994 section 5.3 counts the
     * ten objects of one path).
     */
    public int t7() {
        return t7(1 + rnd.nextInt(config.totalAtomicParts()));
    }

    /** T7 from the atomic part with the given id. */
    int t7(int atomicPartId) {
        AtomicPart part = store.atomicPartById(atomicPartId);
        List<BaseAssembly> users = part.partOf().usedInPriv();
        int count = 0;
        for (int i = 0, n = users.size(); i < n; i++) {
            for (Assembly a = users.get(i); a != null; a = a.superAssembly()) {
                count++;
            }
        }
        return count;
    }

    /** T8, manual scan: the number of 'I' characters in module 1's manual (2,632 small, 26,316 medium). */
    public int t8() {
        return countChar(module1().man().text(), 'I');
    }

    /** T9: 1 if the first and last characters of module 1's manual are equal, else 0 (0 small and medium). */
    public int t9() {
        Manual man = module1().man();
        CharSequence text = man.text();
        int len = man.textLen();
        return len > 0 && text.charAt(0) == text.charAt(len - 1) ? 1 : 0;
    }

    /** T10: T1 over every module (4,374,000 large; equals T1 on one-module databases). */
    public int t10() {
        int count = 0;
        for (Module m : store.modules()) {
            count += traverse(m.designRoot(), T1);
        }
        return count;
    }

    private int traverse(Assembly assembly, int mode) {
        if (assembly instanceof ComplexAssembly complex) {
            List<Assembly> subs = complex.subAssemblies();
            int count = 0;
            for (int i = 0, n = subs.size(); i < n; i++) {
                count += traverse(subs.get(i), mode);
            }
            return count;
        }
        List<CompositePart> components = ((BaseAssembly) assembly).componentsPriv();
        int count = 0;
        for (int i = 0, n = components.size(); i < n; i++) {
            AtomicPart root = components.get(i).rootPart();
            visited.clear();
            visited.add(root.id());
            count += dfs(root, root.id(), mode);
        }
        return count;
    }

    private int dfs(AtomicPart part, int rootId, int mode) {
        int count = visitPart(part, rootId, mode);
        List<Connection> to = part.to();
        for (int i = 0, n = to.size(); i < n; i++) {
            AtomicPart next = to.get(i).to();
            if (visited.add(next.id())) {
                count += dfs(next, rootId, mode);
            }
        }
        return count;
    }

    private int visitPart(AtomicPart part, int rootId, int mode) {
        return switch (mode) {
            case T1 -> 1;
            case T2A -> part.id() == rootId ? updateXy(part, 1) : 0;
            case T2B -> updateXy(part, 1);
            case T2C -> updateXy(part, 4);
            case T3A -> part.id() == rootId ? toggleBuildDate(part, 1) : 0;
            case T3B -> toggleBuildDate(part, 1);
            case T3C -> toggleBuildDate(part, 4);
            default -> throw new IllegalArgumentException("mode " + mode);
        };
    }

    private int updateXy(AtomicPart part, int times) {
        for (int t = 0; t < times; t++) {
            if (params.t2Update() == T2Update.SWAP) {
                int x = part.x();
                part.x(part.y());
                part.y(x);
            } else {
                part.x(part.x() + 1);
                part.y(part.y() + 1);
            }
        }
        return times;
    }

    private int toggleBuildDate(AtomicPart part, int times) {
        for (int t = 0; t < times; t++) {
            int date = part.buildDate();
            store.updateBuildDate(part, (date & 1) != 0 ? date + 1 : date - 1);
        }
        return times;
    }

    private static void forEachVisitedComposite(Assembly assembly, java.util.function.Consumer<CompositePart> action) {
        if (assembly instanceof ComplexAssembly complex) {
            List<Assembly> subs = complex.subAssemblies();
            for (int i = 0, n = subs.size(); i < n; i++) {
                forEachVisitedComposite(subs.get(i), action);
            }
            return;
        }
        List<CompositePart> components = ((BaseAssembly) assembly).componentsPriv();
        for (int i = 0, n = components.size(); i < n; i++) {
            action.accept(components.get(i));
        }
    }

    // ----------------------------------------------------------------------------------------- queries

    /** Q1, exact-match lookup: look up 10 random atomic parts by id. Returns the number found (10). */
    public int q1() {
        int found = 0;
        for (int i = 0; i < 10; i++) {
            AtomicPart p = store.atomicPartById(1 + rnd.nextInt(config.totalAtomicParts()));
            if (p != null && p.x() != Integer.MIN_VALUE) { // touch the part
                found++;
            }
        }
        return found;
    }

    /**
     * Q2, 1% range query: atomic parts whose build date lies in the most recent 1% of the atomic date range,
     * [1990, 1999], by an index scan. Returns the number found (about 1% of all atomic parts).
     */
    public int q2() {
        return dateRange(1);
    }

    /** Q3, 10% range query: as Q2 over [1900, 1999] (about 10% of all atomic parts). */
    public int q3() {
        return dateRange(10);
    }

    private int dateRange(int percent) {
        int span = (Oo7Config.MAX_ATOMIC_DATE - Oo7Config.MIN_ATOMIC_DATE + 1) * percent / 100;
        int[] count = {0};
        store.scanAtomicPartsByBuildDate(Oo7Config.MAX_ATOMIC_DATE - span + 1, Oo7Config.MAX_ATOMIC_DATE, p -> {
            if (p.x() != Integer.MIN_VALUE) { // touch the part
                count[0]++;
            }
        });
        return count[0];
    }

    /**
     * Q4, path lookup: look up {@code q4Lookups} random documents by title, go to each one's composite part and
     * visit every base assembly in its private-use bag. Returns the number of base-assembly visits.
     */
    public int q4() {
        int[] ids = new int[params.q4Lookups()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 1 + rnd.nextInt(config.totalCompositeParts());
        }
        return q4(ids);
    }

    /** Q4 for the documents of the given composite part ids. */
    int q4(int... compositeIds) {
        int count = 0;
        for (int id : compositeIds) {
            Document doc = store.documentByTitle(Oo7Builder.documentTitle(id));
            List<BaseAssembly> users = doc.part().usedInPriv();
            for (int j = 0, n = users.size(); j < n; j++) {
                if (users.get(j).id() != 0) { // touch the base assembly
                    count++;
                }
            }
        }
        return count;
    }

    /**
     * Q5, single-level make: a nested-loops pointer join over every module's base assemblies and their private
     * composite parts (White and DeWitt 1994, section 4.2.2). Returns the number of (base assembly, composite
     * part) pairs, bag duplicates included, in which the composite part's build date is later than the base
     * assembly's (about 219 per module: exactly the young composites, 10% of 2,187 references).
     */
    public int q5() {
        int count = 0;
        for (Module m : store.modules()) {
            List<BaseAssembly> bases = m.assemblies();
            for (int i = 0, n = bases.size(); i < n; i++) {
                BaseAssembly ba = bases.get(i);
                List<CompositePart> comps = ba.componentsPriv();
                for (int j = 0, k = comps.size(); j < k; j++) {
                    if (comps.get(j).buildDate() > ba.buildDate()) {
                        count++;
                    }
                }
            }
        }
        return count;
    }

    /**
     * Q6, make: the number of assemblies (complex or base, every module) that use, directly or through their
     * sub-assemblies, a private composite part with a build date later than the assembly's own. Not in §6 nor
     * in the QuickStore study; this is the OO7 definition applied to private components, as in Q5.
     */
    public int q6() {
        int[] count = {0};
        for (Module m : store.modules()) {
            latestComponentDate(m.designRoot(), count);
        }
        return count[0];
    }

    private static int latestComponentDate(Assembly assembly, int[] count) {
        int latest = Integer.MIN_VALUE;
        if (assembly instanceof ComplexAssembly complex) {
            List<Assembly> subs = complex.subAssemblies();
            for (int i = 0, n = subs.size(); i < n; i++) {
                latest = Math.max(latest, latestComponentDate(subs.get(i), count));
            }
        } else {
            List<CompositePart> comps = ((BaseAssembly) assembly).componentsPriv();
            for (int i = 0, n = comps.size(); i < n; i++) {
                latest = Math.max(latest, comps.get(i).buildDate());
            }
        }
        if (latest > assembly.buildDate()) {
            count[0]++;
        }
        return latest;
    }

    /** Q7, scan: visit every atomic part through the store's extent. Returns the number (10,000 small). */
    public int q7() {
        int[] count = {0};
        store.forEachAtomicPart(p -> {
            if (p.x() != Integer.MIN_VALUE) { // touch the part
                count[0]++;
            }
        });
        return count[0];
    }

    /**
     * Q8, ad-hoc join: pairs of (atomic part, document) with {@code part.docId == document.id}, as an
     * index-nested-loops join (scan atomic parts, look each {@code docId} up in the document-id index).
     * Returns the number of pairs (one per atomic part: 10,000 small).
     */
    public int q8() {
        int[] count = {0};
        store.forEachAtomicPart(p -> {
            Document d = store.documentById(p.docId());
            if (d != null && d.id() == p.docId()) {
                count[0]++;
            }
        });
        return count[0];
    }

    // ------------------------------------------------------------------------- structural modifications

    /**
     * SM1, insert: create {@code sm1Size} new composite parts (ids after the highest existing one, each with its
     * document, atomic parts and connections, built by the {@link Oo7Builder} rules) and add each to the private
     * bag of one random base assembly of module 1. Each insert adds {@code NumAtomicPerComp} to T1's result.
     * Returns the number of composite parts inserted.
     */
    public int sm1() {
        if (nextCompositeId == 0) {
            int[] max = {0};
            store.forEachCompositePart(cp -> max[0] = Math.max(max[0], cp.id()));
            nextCompositeId = max[0] + 1;
        }
        List<BaseAssembly> bases = module1().assemblies();
        for (int i = 0; i < params.sm1Size(); i++) {
            int id = nextCompositeId++;
            CompositePart cp = Oo7Builder.buildCompositePart(store, config, id, rnd);
            BaseAssembly ba = bases.get(rnd.nextInt(bases.size()));
            ba.componentsPriv().add(cp);
            cp.usedInPriv().add(ba);
            inserted.push(id);
        }
        return params.sm1Size();
    }

    /**
     * SM2, delete: delete the {@code sm1Size} composite parts most recently inserted by SM1 in this {@code
     * Oo7Operations} (fewer if fewer are pending), with their documents, atomic parts and connections, after
     * removing them from every base assembly's bags. SM1 followed by SM2 restores T1's result. Returns the
     * number of composite parts deleted.
     */
    public int sm2() {
        int deleted = 0;
        while (deleted < params.sm1Size() && !inserted.isEmpty()) {
            int id = inserted.pop();
            deleteCompositePart(store.compositePartById(id));
            if (id == nextCompositeId - 1) {
                nextCompositeId = id;
            }
            deleted++;
        }
        return deleted;
    }

    /**
     * The ids SM1 inserted that SM2 has not deleted yet, most recent first: what a driver that runs every
     * operation in a fresh process (cold runs, {@code qs oo7 run --cold process}) hands from the SM1 process
     * to the SM2 process with {@link #pendingInserts(List)}.
     */
    public List<Integer> pendingInserts() {
        return List.copyOf(inserted);
    }

    /** Replaces the pending SM1 inserts (most recent first) by {@code ids}, as {@link #pendingInserts()} gave. */
    public void pendingInserts(List<Integer> ids) {
        inserted.clear();
        inserted.addAll(ids);
    }

    private void deleteCompositePart(CompositePart cp) {
        for (BaseAssembly ba : List.copyOf(cp.usedInPriv())) {
            ba.componentsPriv().remove(cp);
        }
        for (BaseAssembly ba : List.copyOf(cp.usedInShar())) {
            ba.componentsShar().remove(cp);
        }
        List<AtomicPart> parts = cp.parts();
        for (AtomicPart p : parts) {
            for (Connection c : p.to()) {
                store.deleteConnection(c);
            }
        }
        for (AtomicPart p : parts) {
            store.deleteAtomicPart(p);
        }
        store.deleteDocument(cp.documentation());
        store.deleteCompositePart(cp);
    }

    // ----------------------------------------------------------------------------------------- helpers

    static int countChar(CharSequence text, char c) {
        int count = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            if (text.charAt(i) == c) {
                count++;
            }
        }
        return count;
    }

    private static boolean startsWith(CharSequence text, String prefix) {
        if (text.length() < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (text.charAt(i) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
