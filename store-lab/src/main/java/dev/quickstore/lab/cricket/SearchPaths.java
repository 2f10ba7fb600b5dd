package dev.quickstore.lab.cricket;

import java.util.SplittableRandom;

/**
 * Seeded random root-to-leaf searches: for each search, the child taken at each of the tree's levels, drawn
 * uniformly. The heap tree and the mapped tree are given the same paths, so they visit the same keys.
 */
public final class SearchPaths {
    private final int depth;
    private final int[] choices;

    private SearchPaths(int depth, int[] choices) {
        this.depth = depth;
        this.choices = choices;
    }

    /** {@code count} searches of {@code shape} drawn from {@code seed}. */
    public static SearchPaths random(TreeShape shape, int count, long seed) {
        if (count < 0) {
            throw new IllegalArgumentException("search count " + count + " < 0");
        }
        SplittableRandom r = new SplittableRandom(seed);
        int[] c = new int[count * shape.depth()];
        for (int i = 0; i < c.length; i++) {
            c[i] = r.nextInt(shape.fanout());
        }
        return new SearchPaths(shape.depth(), c);
    }

    /** Number of searches. */
    public int count() {
        return depth == 0 ? 0 : choices.length / depth;
    }

    /** Levels below the root each search descends. */
    public int depth() {
        return depth;
    }

    /** The child taken by search {@code search} at {@code level} (0 = the root's child). */
    public int choice(int search, int level) {
        return choices[search * depth + level];
    }
}
