package dev.quickstore.jmh.store;

import dev.quickstore.core.Index;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A small read transaction that looks one key up in a named index (OO7 Q1, T9, a user's "find by id"): {@link
 * #transactionWithLookup} = begin, open the index by name, one lookup, commit; against {@link #emptyTransaction}
 * (begin, commit) and {@link #lookupAlone} (the lookup in an open transaction with the index opened before), all
 * three in the same run. What the first costs beyond the sum of the other two is opening the index by its name.
 * Eight unique INT indexes of 10,000 keys, in memory (the store's default pool holds them). {@link
 * #stringLookupAlone} looks up a STRING key of 40 bytes among 10,000 that share their first 20 (OO7's document
 * titles, "Composite Part 00000123", which OO7 Q4 looks up), where the search compares encoded entries as byte
 * strings rather than numeric order bits.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class IndexLookupBenchmark {
    static final int INDEXES = 8;
    static final int KEYS = 10_000;
    static final String[] NAMES = new String[INDEXES];

    static {
        for (int i = 0; i < INDEXES; i++) {
            NAMES[i] = "index-" + i;
        }
    }

    Path dir;
    Store store;
    final SplittableRandom rnd = new SplittableRandom(1);
    int next;
    Transaction open;
    final Index[] opened = new Index[INDEXES];

    static final String TITLES_INDEX = "titles";
    static final String[] TITLES = new String[KEYS];

    static {
        for (int k = 0; k < KEYS; k++) {
            TITLES[k] = String.format(java.util.Locale.ROOT, "Composite Part %08d", k);
        }
    }

    Index titles;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("qs-index-lookup");
        store = Store.create(dir.resolve("db"));
        try (Transaction tx = store.begin()) {
            Index t = tx.createIndex(TITLES_INDEX, KeyType.STRING, 40, true);
            for (int k = 0; k < KEYS; k++) {
                t.insert(TITLES[k], 8 + 8L * k);
            }
            for (String name : NAMES) {
                Index x = tx.createIndex(name, KeyType.INT, 0, true);
                for (int k = 0; k < KEYS; k++) {
                    x.insertNumeric(k, 8 + 8L * k);
                }
            }
            tx.commit();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (open != null) {
            open.commit();
        }
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @Benchmark
    public long transactionWithLookup() {
        try (Transaction tx = store.begin()) {
            long r = tx.index(NAMES[next++ & (INDEXES - 1)]).lookupFirst(rnd.nextInt(KEYS));
            tx.commit();
            return r;
        }
    }

    @Benchmark
    public long emptyTransaction() {
        try (Transaction tx = store.begin()) {
            long r = tx.id();
            tx.commit();
            return r;
        }
    }

    @Benchmark
    public long lookupAlone() {
        if (open == null) {
            open = store.begin();
            for (int i = 0; i < INDEXES; i++) {
                opened[i] = open.index(NAMES[i]);
            }
        }
        return opened[next++ & (INDEXES - 1)].lookupFirst(rnd.nextInt(KEYS));
    }

    @Benchmark
    public long stringLookupAlone() {
        if (titles == null) {
            if (open == null) {
                open = store.begin();
            }
            titles = open.index(TITLES_INDEX);
        }
        return titles.lookup(TITLES[rnd.nextInt(KEYS)])[0];
    }
}
