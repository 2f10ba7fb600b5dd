package dev.quickstore.core.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link PageTable} against a {@code HashMap} model: random puts, replacements, removals (of present and absent
 * pages), clears and growth, over key sets that are small (long probe runs, many shifts on removal), spread, and
 * strided like an allocator's extents (multiples of 64); after every step the sizes agree, and after every hundred
 * every key of the range is looked up in both.
 */
@ExtendWith(SeedExtension.class)
class PageTableTest {
    @Test
    void agreesWithAHashMapUnderRandomPutsRemovalsAndClears(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        for (long[] shape : new long[][] {{40, 1}, {5_000, 1}, {3_000, 64}, {200_000, 1}}) {
            long range = shape[0];
            long stride = shape[1];
            PageTable<Long> table = new PageTable<>();
            Map<Long, Long> model = new HashMap<>();
            for (int step = 0; step < 60_000; step++) {
                long page = rnd.nextLong(range) * stride;
                int op = rnd.nextInt(100);
                if (op < 55) {
                    long v = rnd.nextLong();
                    table.put(page, v);
                    model.put(page, v);
                } else if (op < 99) {
                    table.remove(page);
                    model.remove(page);
                } else if (rnd.nextInt(20) == 0) {
                    table.clear();
                    model.clear();
                }
                assertEquals(model.size(), table.size(), "size after step " + step);
                if (step % 100 == 0 && range <= 5_000) {
                    for (long p = 0; p < range; p++) {
                        assertEquals(model.get(p * stride), table.get(p * stride), "page " + p * stride);
                    }
                }
            }
            for (Map.Entry<Long, Long> e : model.entrySet()) {
                assertEquals(e.getValue(), table.get(e.getKey()), "page " + e.getKey());
            }
        }
    }

    @Test
    void aValueIsTheObjectPutAndPageZeroIsAKey() {
        PageTable<int[]> table = new PageTable<>();
        int[] tail = {3, 4096};
        table.put(0, tail);
        assertSame(tail, table.get(0), "the same array: the allocator advances a dense tail in place");
        assertNull(table.get(1));
        table.remove(0);
        assertNull(table.get(0));
        assertEquals(0, table.size());
        table.clear();
        assertEquals(0, table.size());
    }
}
