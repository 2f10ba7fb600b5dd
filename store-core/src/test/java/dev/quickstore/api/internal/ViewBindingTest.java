package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quickstore.testkit.ChildJvm;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process view ({@link View}), plain statics by default and a JIT-time constant under {@code
 * -Dqs.api.constantView=true} (run in a child JVM): every rebinding is seen by code that already ran (and may
 * have been compiled against the previous binding) - a new store, a grown copy, unbinding.
 */
class ViewBindingTest {
    @TempDir
    Path dir;

    private static final int WORDS = 512;

    /** Sums the words at {@code base .. base + 8*WORDS} through the view, as generated getters read. */
    private static long sum(long base) {
        long s = 0;
        for (int i = 0; i < WORDS; i++) {
            s += View.segment().get(JAVA_LONG, base + 8L * i - View.base());
        }
        return s;
    }

    private static MemorySegment filled(Arena arena, long value) {
        MemorySegment seg = arena.allocate(8L * WORDS, 8);
        for (int i = 0; i < WORDS; i++) {
            seg.setAtIndex(JAVA_LONG, i, value);
        }
        return seg;
    }

    @Test
    void readsFollowEveryRebindingEvenInCompiledCode() {
        rebindings();
    }

    @Test
    void theConstantViewFollowsEveryRebindingToo() throws Exception {
        ChildJvm.Result r = ChildJvm.main(ViewBindingTest.class)
                .workDir(dir)
                .jvmArgs("-Dqs.api.constantView=true")
                .run();
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals("constant view: true, rebindings seen", r.stdout().strip());
    }

    /** The child of {@link #theConstantViewFollowsEveryRebindingToo}. */
    public static void main(String[] args) {
        rebindings();
        System.out.println("constant view: " + View.CONSTANT + ", rebindings seen");
    }

    private static void rebindings() {
        Object owner = new Object();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment one = filled(arena, 1);
            MemorySegment two = filled(arena, 2);
            long base1 = 0x10_0000_0000L;
            long base2 = 0x20_0000_0000L;
            View.bind(owner, one, base1, 8192);
            try {
                for (int round = 0; round < 40; round++) { // enough calls for C1 and C2 to compile sum
                    assertSame(one, View.segment());
                    assertEquals(base1, View.base());
                    assertEquals(WORDS, sum(base1), "round " + round + " on the first binding");
                    View.rebind(owner, two); // the copying view grows: same base, new segment
                    assertEquals(2L * WORDS, sum(base1), "round " + round + " after rebind");
                    View.unbind(owner);
                    assertThrows(IndexOutOfBoundsException.class, () -> sum(base1), "unbound view");
                    View.bind(owner, two, base2, 8192); // another store at another base
                    assertEquals(base2, View.base());
                    assertEquals(2L * WORDS, sum(base2), "round " + round + " on the second store");
                    View.unbind(owner);
                    View.bind(owner, one, base1, 8192);
                }
            } finally {
                View.unbind(owner);
            }
        }
        assertSame(MemorySegment.NULL, View.segment());
        assertEquals(0, View.base());
    }

    @Test
    void rebindingByAnotherOwnerIsIgnoredAndBindingRefused() {
        Object owner = new Object();
        Object other = new Object();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment one = filled(arena, 1);
            View.bind(owner, one, 0x1000, 8192);
            try {
                View.rebind(other, filled(arena, 3));
                assertSame(one, View.segment());
                assertThrows(IllegalStateException.class, () -> View.bind(other, one, 0, 8192));
                View.unbind(other);
                assertSame(one, View.segment());
            } finally {
                View.unbind(owner);
            }
        }
    }
}
