package dev.quickstore.lab.writes;

/**
 * The non-persistent baseline of {@link PerUpdateExperiment} (Hosking and Moss, section 4, Table III: the same loop
 * with no write detection): the same updates on plain heap objects.
 */
final class HeapParts {
    static final class Part {
        int x;
    }

    private final Part[] parts;

    HeapParts(int n) {
        parts = new Part[n];
        for (int i = 0; i < n; i++) {
            parts[i] = new Part();
        }
    }

    Part[] select(int[] idx) {
        Part[] ps = new Part[idx.length];
        for (int i = 0; i < idx.length; i++) {
            ps[i] = parts[idx[i]];
        }
        return ps;
    }

    static void update(Part[] ps, int times) {
        for (int r = 0; r < times; r++) {
            for (Part p : ps) {
                p.x = p.x + 1;
            }
        }
    }
}
