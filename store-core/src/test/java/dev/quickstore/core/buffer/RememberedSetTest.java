package dev.quickstore.core.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The remembered set against a TreeSet: duplicates dropped across store-buffer drains and table growth. */
@ExtendWith(SeedExtension.class)
class RememberedSetTest {
    @Test
    void holdsEachWordOnceAcrossDrainsAndGrowth(Seed seed) {
        Random rnd = new Random(seed.value());
        RememberedSet set = new RememberedSet();
        for (int round = 0; round < 3; round++) {
            TreeSet<Long> model = new TreeSet<>();
            int adds = 3 * RememberedSet.SSB_ENTRIES + rnd.nextInt(50_000); // several drains
            int distinct = 1 + rnd.nextInt(round == 1 ? 40_000 : 300); // growth, or many repeats
            for (int i = 0; i < adds; i++) {
                long w = 0x7f00_0000_0000L + 8L * rnd.nextInt(distinct);
                set.add(w);
                model.add(w);
            }
            long[] expected = model.stream().mapToLong(Long::longValue).toArray();
            assertArrayEquals(expected, set.sorted(), "round " + round);
            assertEquals(model.size(), set.size());
            set.clear();
            assertEquals(0, set.sorted().length, "cleared");
        }
    }
}
