package dev.quickstore.lab.writes;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.options.StoreOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The database every scheme of {@link WriteDetectionLab} updates in turn (Hosking and Moss, section 4: one database,
 * reopened per scheme): {@code parts} {@link UpdatePart}s built once, their addresses relative to the arena base,
 * and a model of their {@code x} and {@code y} fields that every experiment's updates are applied to as well, so that
 * after each scheme the store can be checked against it ({@link #verify}).
 */
final class PartsDatabase {
    final Path dir;
    /** Addresses of the parts relative to the arena base (the same in every opening). */
    final long[] rel;

    final int pageSize;
    /** Distinct pages holding the parts. */
    final long pages;
    /** The model of every part's x and y: every scheme applies the same updates to the same database in turn. */
    final int[] x;

    final int[] y;

    private PartsDatabase(Path dir, long[] rel, int pageSize, long pages) {
        this.dir = dir;
        this.rel = rel;
        this.pageSize = pageSize;
        this.pages = pages;
        this.x = new int[rel.length];
        this.y = new int[rel.length];
        for (int i = 0; i < rel.length; i++) {
            x[i] = i;
            y[i] = -i;
        }
    }

    /** Builds {@code parts} parts in a new store in {@code dir}, each placed near the one before. */
    static PartsDatabase build(Path dir, int parts, StoreOptions base) throws IOException {
        long[] rel = new long[parts];
        try (PersistentStore s = PersistentStore.create(dir, base, UpdatePart.class);
                ObjectTransaction tx = s.begin()) {
            long arena = s.storageManager().arenaBase();
            UpdatePart near = null;
            for (int i = 0; i < parts; i++) {
                UpdatePart p = tx.create(UpdatePart.class, near);
                p.id(i);
                p.x(i);
                p.y(-i);
                p.build(i * 31L);
                p.type("part" + (i % 10));
                rel[i] = tx.addressOf(p) - arena;
                near = p;
            }
            tx.commit();
            int pageSize = s.storageManager().pageSize();
            long pages = Arrays.stream(rel)
                    .map(r -> r / s.storageManager().pageSize())
                    .distinct()
                    .count();
            return new PartsDatabase(dir, rel, pageSize, pages);
        }
    }

    PersistentStore open(StoreOptions options) throws IOException {
        return PersistentStore.open(dir, options, UpdatePart.class);
    }

    /** The parts {@code idx} in transaction {@code tx} of store {@code s}. */
    UpdatePart[] select(PersistentStore s, ObjectTransaction tx, int[] idx) {
        long base = s.storageManager().arenaBase();
        UpdatePart[] ps = new UpdatePart[idx.length];
        for (int i = 0; i < idx.length; i++) {
            ps[i] = tx.get(base + rel[idx[i]], UpdatePart.class);
        }
        return ps;
    }

    /** Reads every part: all pages resident (hot), as their hot iterations. */
    void preload(PersistentStore s) {
        long base = s.storageManager().arenaBase();
        try (ObjectTransaction tx = s.begin()) {
            long sum = 0;
            for (long r : rel) {
                sum += tx.get(base + r, UpdatePart.class).x();
            }
            if (sum == Long.MIN_VALUE) {
                throw new IllegalStateException("unreachable");
            }
            tx.commit();
        }
    }

    /** Null if every part's x and y are the model's, else the first difference. */
    String verify(PersistentStore s) {
        long base = s.storageManager().arenaBase();
        try (ObjectTransaction tx = s.begin()) {
            for (int i = 0; i < rel.length; i++) {
                UpdatePart p = tx.get(base + rel[i], UpdatePart.class);
                if (p.x() != x[i] || p.y() != y[i] || p.id() != i) {
                    return "part " + i + ": x " + p.x() + " y " + p.y() + ", heap model x " + x[i] + " y " + y[i];
                }
            }
        }
        return null;
    }
}
