package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
@FixedSeed(1L)
class IntSetTest {
    @Test
    void behavesLikeAHashSetAcrossGrowthAndClears(Seed seed) {
        IntSet set = new IntSet(4);
        Random rnd = seed.random();
        for (int round = 0; round < 50; round++) {
            Set<Integer> reference = new HashSet<>();
            set.clear();
            assertEquals(0, set.size());
            for (int i = 0; i < 300; i++) {
                int v = rnd.nextInt(500) - 250;
                assertEquals(reference.add(v), set.add(v), "add " + v);
            }
            assertEquals(reference.size(), set.size());
            for (int v = -260; v < 260; v++) {
                assertEquals(reference.contains(v), set.contains(v), "contains " + v);
            }
        }
        set.clear();
        assertFalse(set.contains(0));
        assertTrue(set.add(0));
    }
}
