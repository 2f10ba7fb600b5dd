package dev.quickstore.core.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class SlottedPageTest {
    @Test
    void randomAllocateAndFreeKeepInvariantsAndNeverMoveObjects(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        MemorySegment p = MemorySegment.ofArray(new byte[8192]);
        SlottedPage.format(p, 5);
        List<int[]> live = new ArrayList<>(); // offset, length, fill byte
        for (int step = 0; step < 20000; step++) {
            if (live.isEmpty() || rnd.nextInt(3) > 0) {
                int len = 1 + rnd.nextInt(rnd.nextBoolean() ? 64 : 900);
                int[] ptrs = len >= 16 && rnd.nextBoolean() ? new int[] {8} : new int[0];
                int off = SlottedPage.allocate(p, len, ptrs);
                if (off < 0) {
                    assertTrue(SlottedPage.largestFit(p) < ((len + 7) & ~7), "fit claimed but refused, seed " + seed);
                    continue;
                }
                byte fill = (byte) (1 + rnd.nextInt(255));
                p.asSlice(off, len).fill(fill);
                live.add(new int[] {off, len, fill});
            } else {
                int[] o = live.remove(rnd.nextInt(live.size()));
                SlottedPage.free(p, o[0]);
            }
            if (step % 500 == 0) {
                VerifyReport r = new VerifyReport();
                SlottedPage.check(p, 5, r);
                assertTrue(r.ok(), r + " seed " + seed);
                assertEquals(live.size(), SlottedPage.liveCount(p));
                for (int[] o : live) {
                    for (int i = 0; i < o[1]; i++) {
                        assertEquals(
                                (byte) o[2],
                                p.get(java.lang.foreign.ValueLayout.JAVA_BYTE, o[0] + i),
                                "object moved, seed " + seed);
                    }
                }
            }
        }
    }
}
