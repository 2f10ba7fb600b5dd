package dev.quickstore.core.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PagePins} against a {@code HashSet<Long>} plus an {@code ArrayList<Long>} (what the buffer pool used before):
 * seeded random pins, unpins, marks, releases and clears over page-id ranges from a few pages (long probe runs,
 * many backward shifts) to a million (growth, the shrink on clear).
 */
class PagePinsTest {
    @ParameterizedTest
    @ValueSource(ints = {4, 37, 1_000, 1_000_000})
    void behavesAsTheBoxedSetAndListDid(int pageRange) {
        Random rnd = new Random(pageRange);
        PagePins pins = new PagePins();
        Set<Long> set = new HashSet<>();
        List<Long> order = new ArrayList<>();
        List<Integer> marks = new ArrayList<>();
        for (int step = 0; step < 200_000; step++) {
            long page = rnd.nextInt(pageRange) * 3L + (pageRange > 100 ? 1L << 40 : 0); // spread, and large ids
            int op = rnd.nextInt(100);
            if (op < 55) {
                boolean added = set.add(page);
                if (added) {
                    order.add(page);
                }
                assertEquals(added, pins.add(page), "add " + page + " at step " + step);
            } else if (op < 85) {
                assertEquals(set.remove(page), pins.remove(page), "remove " + page + " at step " + step);
            } else if (op < 92) {
                marks.add(pins.mark());
                assertEquals(order.size(), pins.mark());
            } else if (op < 99 && !marks.isEmpty()) {
                int mark = marks.remove(marks.size() - 1);
                if (mark <= order.size()) {
                    List<Long> released = new ArrayList<>();
                    pins.releaseSince(mark, p -> {
                        released.add(p);
                        pins.remove(p);
                    });
                    List<Long> expected = new ArrayList<>();
                    for (int i = order.size() - 1; i >= mark; i--) {
                        expected.add(order.remove(i));
                    }
                    expected.forEach(set::remove);
                    assertEquals(expected, released, "released since " + mark + ", newest first");
                }
            } else if (rnd.nextInt(20) == 0) {
                pins.clear();
                set.clear();
                order.clear();
                marks.clear();
            }
            if (step % 997 == 0 || pageRange <= 37) {
                assertEquals(set.size(), pins.size(), "size at step " + step);
                for (int probe = 0; probe < 8; probe++) {
                    long p = rnd.nextInt(pageRange) * 3L + (pageRange > 100 ? 1L << 40 : 0);
                    assertEquals(set.contains(p), pins.contains(p), "contains " + p + " at step " + step);
                }
                Set<Long> seen = new HashSet<>();
                pins.forEach(seen::add);
                assertEquals(set, seen, "forEach at step " + step);
            }
        }
    }
}
