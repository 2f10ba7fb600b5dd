package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.oo7.schema.Connection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Allocation with clustering hints on OO7 (Cricket's near-hint, ObjectAllocator): a scaled "medium"
 * (200 atomic parts per composite part, 20,000-byte documents) is about ten times a scaled "small" (20
 * parts, 2,000 bytes), as the data are, and each composite part's atomic parts and connections stay in a
 * few contiguous pages. Before the overflow page, every object allocated near a full extent got a page of
 * its own: medium was 145k pages (42 times small) and a composite part's parts spread over hundreds.
 */
class MappedOo7ClusteringTest {
    static final long SEED = 42;
    static final int PAGE = 8192;

    @TempDir
    Path tmp;

    static Oo7Config scaled(String name, int atomic, int document) {
        return new Oo7Config(name, atomic, 3, document, 100_000, 40, 3, 4, 3, 1);
    }

    record Shape(long pages, int maxDistinct, long maxSpan, double meanDistinct) {}

    Shape build(Oo7Config config) throws Exception {
        Path dir = tmp.resolve(config.name());
        int maxDistinct = 0;
        long maxSpan = 0;
        long sum = 0;
        int composites;
        try (MappedOo7Store store = MappedOo7Store.create(dir, false)) {
            new Oo7Builder(config, SEED).build(store, Oo7Builder.Progress.NONE);
            Map<Integer, TreeSet<Long>> pagesByComposite = new HashMap<>();
            store.begin();
            store.forEachAtomicPart(p -> {
                TreeSet<Long> pages =
                        pagesByComposite.computeIfAbsent(p.partOf().id(), k -> new TreeSet<>());
                pages.add(store.addressOf(p) / PAGE);
                for (Connection c : p.to()) {
                    pages.add(store.addressOf(c) / PAGE);
                }
            });
            store.commit();
            assertEquals(config.numCompPerModule(), pagesByComposite.size());
            composites = pagesByComposite.size();
            for (TreeSet<Long> pages : pagesByComposite.values()) {
                maxDistinct = Math.max(maxDistinct, pages.size());
                maxSpan = Math.max(maxSpan, pages.last() - pages.first() + 1);
                sum += pages.size();
            }
        }
        long volumePages = Files.size(VolumeFile.volumePath(dir)) / PAGE; // after close: every page written
        return new Shape(volumePages, maxDistinct, maxSpan, (double) sum / composites);
    }

    @Test
    void scaledMediumIsAboutTenTimesScaledSmallAndCompositePartsStayClustered() throws Exception {
        Shape small = build(scaled("scaled-small", 20, 2_000));
        Shape medium = build(scaled("scaled-medium", 200, 20_000));
        String shapes = "small " + small + ", medium " + medium;
        System.out.println(shapes);
        // 200 atomic parts (x, y, ids, type, 3 + 3 connection refs) and 600 connections of a composite part
        // take well under 16 pages; contiguous means the pages lie in a window at most twice their number
        assertTrue(medium.maxDistinct() <= 16, "pages per composite part (medium): " + shapes);
        assertTrue(medium.maxSpan() <= 2L * medium.maxDistinct() + 16, "contiguous clusters (medium): " + shapes);
        assertTrue(small.maxDistinct() <= 4, "pages per composite part (small): " + shapes);
        double ratio = (double) medium.pages() / small.pages();
        assertTrue(ratio >= 4 && ratio <= 13, "medium / small pages " + ratio + ": " + shapes);
    }
}
