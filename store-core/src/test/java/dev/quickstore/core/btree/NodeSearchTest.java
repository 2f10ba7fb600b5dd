package dev.quickstore.core.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The numeric search within one node ({@link Nodes#lowerBoundNumeric}, {@link Nodes#routeNumeric}), which starts
 * at the position a key's value interpolates to and gallops from there, against a linear count of the items before
 * the probe, for leaves and inner nodes of 4- and 8-byte keys whose keys are dense, evenly spread, bunched at one
 * end, in two clusters, or repeated with different values; probes below, above, on and between the keys; with the
 * node's bounds taken from its keys, or given as a parent's separators would give them, or given wrong.
 */
@ExtendWith(SeedExtension.class)
class NodeSearchTest {
    private static final int PS = 8192;

    @Test
    void interpolatedSearchFindsWhatALinearCountFinds(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        for (int round = 0; round < 400; round++) {
            int keyLength = rnd.nextBoolean() ? 4 : 8;
            Nodes nodes = new Nodes(PS, keyLength);
            boolean inner = rnd.nextBoolean();
            int width = inner ? nodes.entry + 8 : nodes.entry;
            int n = rnd.nextInt(inner ? nodes.innerCapacity + 1 : nodes.leafCapacity + 1);
            long mask = keyLength == 4 ? 0xffff_ffffL : -1L;
            long[] keys = new long[n];
            long[] values = new long[n];
            int shape = rnd.nextInt(5);
            long base = rnd.nextLong() & mask;
            for (int i = 0; i < n; i++) {
                keys[i] = switch (shape) {
                            case 0 -> base + i; // dense ids
                            case 1 -> rnd.nextLong() & mask; // evenly spread
                            case 2 -> i < n - 3 ? base + i : rnd.nextLong() & mask; // bunched, a few far ones
                            case 3 -> (i < n / 2 ? base : base + (mask >>> 1)) + rnd.nextInt(1000); // two clusters
                            default -> base + rnd.nextInt(4); // repeated keys, told apart by their values
                        }
                        & mask;
                values[i] = rnd.nextLong();
            }
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> {
                int c = Long.compareUnsigned(keys[a], keys[b]);
                return c != 0 ? c : Long.compareUnsigned(values[a], values[b]);
            });
            MemorySegment p = MemorySegment.ofArray(new byte[PS]);
            for (int i = 0; i < n; i++) {
                long off = BPlusTree.BODY + (long) i * width;
                if (keyLength == 8) {
                    p.set(Nodes.BE_LONG, off, keys[order[i]]);
                } else {
                    p.set(Nodes.BE_INT, off, (int) keys[order[i]]);
                }
                p.set(Nodes.BE_LONG, off + keyLength, values[order[i]]);
            }
            Nodes.setCount(p, n);
            for (int probe = 0; probe < 60; probe++) {
                long bits;
                long value = rnd.nextLong();
                if (n > 0 && rnd.nextInt(3) > 0) {
                    int i = order[rnd.nextInt(n)];
                    bits = keys[i] + (rnd.nextInt(3) - 1) & mask; // on a key, or beside it
                    if (rnd.nextBoolean()) {
                        value = values[i];
                    }
                } else {
                    bits = rnd.nextLong() & mask;
                }
                int below = 0;
                int belowOrEqual = 0;
                for (int i = 0; i < n; i++) {
                    int c = Long.compareUnsigned(keys[order[i]], bits);
                    c = c != 0 ? c : Long.compareUnsigned(values[order[i]], value);
                    below += c < 0 ? 1 : 0;
                    belowOrEqual += c <= 0 ? 1 : 0;
                }
                String ctx = "round " + round + ", shape " + shape + ", n " + n + ", key length " + keyLength
                        + (inner ? ", inner" : ", leaf") + ", seed " + seed;
                // bounds from a parent: the node's own keys' range widened, or anything at all (a bound only
                // places the first probe)
                long low = n == 0 ? 0 : keys[order[0]] - (rnd.nextBoolean() ? 0 : rnd.nextInt(1000)) & mask;
                long high = n == 0 ? 0 : keys[order[n - 1]] + (rnd.nextBoolean() ? 0 : rnd.nextInt(1000)) & mask;
                if (rnd.nextInt(4) == 0) {
                    low = rnd.nextLong() & mask;
                    high = rnd.nextLong() & mask;
                }
                int known = rnd.nextInt(4);
                if (inner) {
                    assertEquals(belowOrEqual, nodes.routeNumeric(p, bits, value), ctx);
                    assertEquals(belowOrEqual, nodes.routeNumeric(p, bits, value, low, high, known), ctx + ", hinted");
                } else {
                    assertEquals(below, nodes.lowerBoundNumeric(p, bits, value), ctx);
                    assertEquals(below, nodes.lowerBoundNumeric(p, bits, value, low, high, known), ctx + ", hinted");
                }
            }
        }
    }
}
