package dev.quickstore.jmh.objects;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.api.internal.FlatView;
import dev.quickstore.api.internal.View;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reference following through generated persistent types versus the same structures as plain Java heap
 * objects, in the same run (goal: persistent / heap &lt;= 1.15, design notes section 8). A linked list and a
 * balanced binary tree of {@code n} nodes each are built, committed, and traversed hot inside one read
 * transaction; every node's int field is summed. {@code persistentListAddresses} walks the same list by raw
 * addresses through the view (no proxies): the floor the generated code can reach. {@code persistentListCursor} and
 * {@code persistentTreeCursor} walk them through the generated cursors ({@code PNodeCursor}, {@code PTreeCursor};
 * docs/object-api.md, "Cursors"): the allocation-free navigation form.
 *
 * <p>The floor's variants (docs/results.md, "Reference following: the floor"): {@code persistentListFlatView}
 * walks the list through {@code FlatView}'s checked loads; {@code ...Unchecked} read through a global segment
 * without {@code FlatView}'s range compare; {@code persistentTreeCheckOnly} keeps the compare per load but not the
 * {@code + delta}, {@code persistentTreeDeltaOnly} the reverse, {@code persistentTreeCheckConstant} compares
 * against JIT-time constant bounds, {@code persistentTreeCheckPerNode} compares once per node (its 24 bytes).
 * Vary {@code n} ({@code -p n=255,4095,100000}) to go from an L1-resident structure to one in L3: the default
 * buffer pool (32 MiB) does not hold both structures at {@code n = 1,000,000}, whose walks then fault.
 *
 * <p>The persistent objects are read through the application view the object API is bound to (the mapped
 * arena, default options; all pages resident after the setup's traversal, as in a hot run).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ObjectTraversalBenchmark {
    @Param({"100000"})
    int n;

    static final class HeapNode {
        int value;
        HeapNode next;
    }

    static final class HeapTree {
        int key;
        HeapTree left;
        HeapTree right;
    }

    Path dir;
    PersistentStore store;
    ObjectTransaction tx;
    PNode plist;
    PTree ptree;
    HeapNode hlist;
    HeapTree htree;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("qs-objtrav-");
        store = PersistentStore.create(dir.resolve("db"), PNode.class, PTree.class);
        try (ObjectTransaction build = store.begin()) {
            PNode head = build.create(PNode.class);
            PNode prev = head;
            for (int i = 1; i < n; i++) {
                PNode node = build.create(PNode.class, prev);
                node.value(i);
                prev.next(node);
                prev = node;
            }
            build.root("list", head);
            build.root("tree", buildTree(build, 0, n - 1, null));
            build.commit();
        }
        tx = store.begin();
        if (View.segment().address() != View.base()) {
            throw new IllegalStateException("the unchecked walks assume the mapped view (segment at its base)");
        }
        viewLo = View.base();
        viewLimit = View.segment().byteSize();
        plist = tx.root("list", PNode.class);
        ptree = tx.root("tree", PTree.class);
        hlist = new HeapNode();
        HeapNode hp = hlist;
        for (int i = 1; i < n; i++) {
            HeapNode node = new HeapNode();
            node.value = i;
            hp.next = node;
            hp = node;
        }
        htree = buildHeapTree(0, n - 1);
        if (persistentList() != heapList()
                || persistentTree() != heapTree()
                || persistentListCursor() != heapList()
                || persistentTreeCursor() != heapTree()
                || persistentTreeCursorWalk() != heapTree()
                || persistentTreeAddresses() != heapTree()
                || persistentListUnchecked() != heapList()
                || persistentTreeUnchecked() != heapTree()
                || persistentTreeCheckOnly() != heapTree()
                || persistentTreeDeltaOnly() != heapTree()
                || persistentTreeCheckPerNode() != heapTree()
                || persistentTreeCheckConstant() != heapTree()
                || persistentListFlatView() != heapList()) {
            throw new IllegalStateException("persistent and heap structures differ");
        }
    }

    private static PTree buildTree(ObjectTransaction t, int lo, int hi, PTree near) {
        if (lo > hi) {
            return null;
        }
        int mid = (lo + hi) >>> 1;
        PTree node = t.create(PTree.class, near);
        node.key(mid);
        node.left(buildTree(t, lo, mid - 1, node));
        node.right(buildTree(t, mid + 1, hi, node));
        return node;
    }

    private static HeapTree buildHeapTree(int lo, int hi) {
        if (lo > hi) {
            return null;
        }
        int mid = (lo + hi) >>> 1;
        HeapTree node = new HeapTree();
        node.key = mid;
        node.left = buildHeapTree(lo, mid - 1);
        node.right = buildHeapTree(mid + 1, hi);
        return node;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        tx.close();
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @Benchmark
    public long heapList() {
        long sum = 0;
        for (HeapNode p = hlist; p != null; p = p.next) {
            sum += p.value;
        }
        return sum;
    }

    @Benchmark
    public long persistentList() {
        long sum = 0;
        for (PNode p = plist; p != null; p = p.next()) {
            sum += p.value();
        }
        return sum;
    }

    /** The list through the generated cursor: one handle moved along {@code next}, no proxy per node. */
    @Benchmark
    public long persistentListCursor() {
        long sum = 0;
        for (PNodeCursor c = PNodeCursor.at(plist); !c.isNull(); c.toNext()) {
            sum += c.value();
        }
        return sum;
    }

    @Benchmark
    public long persistentListAddresses() {
        MemorySegment seg = View.segment();
        long base = View.base();
        long sum = 0;
        for (long a = tx.addressOf(plist); a != 0; a = seg.get(ValueLayout.JAVA_LONG, a - base + 8)) {
            sum += seg.get(ValueLayout.JAVA_INT, a - base + 4);
        }
        return sum;
    }

    @Benchmark
    public long heapTree() {
        return sum(htree);
    }

    @Benchmark
    public long persistentTree() {
        return sum(ptree);
    }

    /** The tree through the generated cursor: {@code downLeft()}/{@code up()} on its address stack. */
    @Benchmark
    public long persistentTreeCursor() {
        return sum(PTreeCursor.at(ptree));
    }

    /** The tree through the generated cursor's pre-order walk ({@code toNextPreorder()}): a loop, no recursion. */
    @Benchmark
    public long persistentTreeCursorWalk() {
        long s = 0;
        PTreeCursor c = PTreeCursor.at(ptree);
        do {
            s += c.key();
        } while (c.toNextPreorder());
        return s;
    }

    /**
     * The tree by raw addresses, recursively, loading through {@code FlatView} (the generated code's checked
     * loads) without proxies or cursor: the tree's floor.
     */
    @Benchmark
    public long persistentTreeAddresses() {
        return sumAt(tx.addressOf(ptree));
    }

    /**
     * Every address, global scope, no range compare: what a load costs without {@code FlatView}'s bound (valid
     * here because the mapped view's segment starts at its arena base, {@code delta == 0}; checked in the setup).
     */
    @SuppressWarnings("restricted")
    private static final MemorySegment RAW = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** The list by raw addresses through {@link #RAW}: the loads alone, no range compare. */
    @Benchmark
    public long persistentListUnchecked() {
        long sum = 0;
        for (long a = tx.addressOf(plist); a != 0; a = RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, a + 8)) {
            sum += RAW.get(ValueLayout.JAVA_INT_UNALIGNED, a + 4);
        }
        return sum;
    }

    /** The tree by raw addresses through {@link #RAW}, recursively: the loads alone, no range compare. */
    @Benchmark
    public long persistentTreeUnchecked() {
        return sumRaw(tx.addressOf(ptree));
    }

    private static long sumRaw(long a) {
        return a == 0
                ? 0
                : RAW.get(ValueLayout.JAVA_INT_UNALIGNED, a + 4)
                        + sumRaw(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, a + 8))
                        + sumRaw(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, a + 16));
    }

    /** The view's first arena address and length, for the jmh-local range compare of the two variants below. */
    private static long viewLo;

    private static long viewLimit;

    /** Always 0 (the mapped view's {@code FlatView} delta), but a plain static, as in {@code FlatView}. */
    private static long viewDelta;

    /** The tree through {@link #RAW} with {@code FlatView}'s range compare but without its {@code + delta}. */
    @Benchmark
    public long persistentTreeCheckOnly() {
        return sumCheckOnly(tx.addressOf(ptree));
    }

    private static long checked(long a, int size) {
        if (Long.compareUnsigned(a - viewLo, viewLimit - size) > 0) {
            throw new IndexOutOfBoundsException(Long.toHexString(a));
        }
        return a;
    }

    private static long sumCheckOnly(long a) {
        return a == 0
                ? 0
                : RAW.get(ValueLayout.JAVA_INT_UNALIGNED, checked(a + 4, 4))
                        + sumCheckOnly(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, checked(a + 8, 8)))
                        + sumCheckOnly(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, checked(a + 16, 8)));
    }

    /** The tree through {@link #RAW} with one range compare per node (the node's 24 bytes) instead of per load. */
    @Benchmark
    public long persistentTreeCheckPerNode() {
        return sumCheckPerNode(tx.addressOf(ptree));
    }

    private static long sumCheckPerNode(long a) {
        if (a == 0) {
            return 0;
        }
        long p = checked(a, 24);
        return RAW.get(ValueLayout.JAVA_INT_UNALIGNED, p + 4)
                + sumCheckPerNode(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, p + 8))
                + sumCheckPerNode(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, p + 16));
    }

    /** The view's bounds as JIT-time constants (initialised on first use, after the setup bound the store). */
    private static final class ConstantBounds {
        static final long LO = viewLo;
        static final long LIMIT = viewLimit;
    }

    /** The tree through {@link #RAW} with the range compare per load against constant bounds (no static loads). */
    @Benchmark
    public long persistentTreeCheckConstant() {
        return sumCheckConstant(tx.addressOf(ptree));
    }

    private static long checkedConstant(long a, int size) {
        if (Long.compareUnsigned(a - ConstantBounds.LO, ConstantBounds.LIMIT - size) > 0) {
            throw new IndexOutOfBoundsException(Long.toHexString(a));
        }
        return a;
    }

    private static long sumCheckConstant(long a) {
        return a == 0
                ? 0
                : RAW.get(ValueLayout.JAVA_INT_UNALIGNED, checkedConstant(a + 4, 4))
                        + sumCheckConstant(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, checkedConstant(a + 8, 8)))
                        + sumCheckConstant(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, checkedConstant(a + 16, 8)));
    }

    /** The tree through {@link #RAW} with {@code FlatView}'s {@code + delta} but without its range compare. */
    @Benchmark
    public long persistentTreeDeltaOnly() {
        return sumDeltaOnly(tx.addressOf(ptree));
    }

    private static long sumDeltaOnly(long a) {
        return a == 0
                ? 0
                : RAW.get(ValueLayout.JAVA_INT_UNALIGNED, a + 4 + viewDelta)
                        + sumDeltaOnly(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, a + 8 + viewDelta))
                        + sumDeltaOnly(RAW.get(ValueLayout.JAVA_LONG_UNALIGNED, a + 16 + viewDelta));
    }

    /** The list by raw addresses through {@code FlatView} (the generated code's checked loads). */
    @Benchmark
    public long persistentListFlatView() {
        long sum = 0;
        for (long a = tx.addressOf(plist); a != 0; a = FlatView.getLong(a + 8)) {
            sum += FlatView.getInt(a + 4);
        }
        return sum;
    }

    private static long sumAt(long a) {
        return a == 0 ? 0 : FlatView.getInt(a + 4) + sumAt(FlatView.getLong(a + 8)) + sumAt(FlatView.getLong(a + 16));
    }

    private static long sum(PTreeCursor c) {
        long s = c.key();
        if (c.downLeft()) {
            s += sum(c);
            c.up();
        }
        if (c.downRight()) {
            s += sum(c);
            c.up();
        }
        return s;
    }

    private static long sum(HeapTree t) {
        return t == null ? 0 : t.key + sum(t.left) + sum(t.right);
    }

    private static long sum(PTree t) {
        return t == null ? 0 : t.key() + sum(t.left()) + sum(t.right());
    }
}
