package dev.quickstore.api;

import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link GcStressTest}: for {@code args[1]} seconds, {@code args[2]} threads read and write their
 * own persistent linked lists inside shared transactions (faulting pages in, taking write faults, evicting: the
 * pool of 32 pages holds a fraction of the lists) while one more thread allocates garbage at a high rate, under
 * whatever collector the parent chose. Every round's transaction commits, except every seventh, which aborts.
 * Every value read is checked against a heap model; at the end the store is closed, reopened and checked
 * again. Prints {@code rounds R commits C aborts A checked N wrong W}; exits 1 on a wrong value, 2 on a hang.
 */
public final class GcStressChild {
    private GcStressChild() {}

    static final int NODES_PER_THREAD = 6_000;

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        int seconds = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep((seconds + 180) * 1000L);
            } catch (InterruptedException e) {
                return;
            }
            System.out.println("HANG: the run did not end within " + (seconds + 180) + " s");
            System.out.flush();
            Runtime.getRuntime().halt(2);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        StoreOptions options =
                StoreOptions.defaults().toBuilder().bufferPoolPages(32).build();
        int[][] model = new int[threads][NODES_PER_THREAD];
        try (PersistentStore s = PersistentStore.create(db, options, ListNode.class)) {
            try (ObjectTransaction tx = s.begin()) {
                for (int t = 0; t < threads; t++) {
                    ListNode head = tx.create(ListNode.class);
                    ListNode prev = head;
                    for (int i = 1; i < NODES_PER_THREAD; i++) {
                        ListNode n = tx.create(ListNode.class, prev);
                        prev.next(n);
                        prev = n;
                    }
                    tx.root("t" + t, head);
                }
                tx.commit();
            }
            AtomicBoolean stop = new AtomicBoolean();
            Thread churn = new Thread(() -> {
                SplittableRandom r = new SplittableRandom(1);
                Object[] ring = new Object[512];
                long k = 0;
                while (!stop.get()) {
                    ring[(int) (k++ % ring.length)] = new byte[1 + r.nextInt(64 * 1024)];
                }
            });
            churn.setDaemon(true);
            churn.start();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            AtomicLong checked = new AtomicLong();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            int rounds = 0, commits = 0, aborts = 0;
            try {
                while (System.nanoTime() < deadline) {
                    int round = rounds++;
                    boolean abort = round % 7 == 6;
                    int[][] next = new int[threads][];
                    try (ObjectTransaction tx = s.begin()) {
                        List<Future<?>> fs = new ArrayList<>();
                        for (int t = 0; t < threads; t++) {
                            int id = t;
                            fs.add(pool.submit(() -> {
                                int[] values = model[id].clone();
                                int i = 0;
                                for (ListNode n = tx.root("t" + id, ListNode.class); n != null; n = n.next(), i++) {
                                    if (n.value() != values[i]) {
                                        throw new AssertionError("WRONG: thread " + id + " node " + i + " round "
                                                + round + ": read " + n.value() + ", expected " + values[i]);
                                    }
                                    checked.incrementAndGet();
                                    if ((i + round + id) % 5 == 0) {
                                        n.value(++values[i]);
                                    }
                                }
                                next[id] = values;
                                return null;
                            }));
                        }
                        for (Future<?> f : fs) {
                            try {
                                f.get(120, TimeUnit.SECONDS);
                            } catch (TimeoutException e) {
                                System.out.println("HANG: a worker did not finish its round within 120 s");
                                System.out.flush();
                                Runtime.getRuntime().halt(2);
                            } catch (java.util.concurrent.ExecutionException e) {
                                System.out.println(e.getCause());
                                e.getCause().printStackTrace(System.out);
                                System.out.flush();
                                Runtime.getRuntime().halt(1);
                            }
                        }
                        if (abort) {
                            tx.abort();
                            aborts++;
                        } else {
                            tx.commit();
                            commits++;
                            for (int t = 0; t < threads; t++) {
                                model[t] = next[t];
                            }
                        }
                    }
                }
            } finally {
                stop.set(true);
                pool.shutdownNow();
            }
            System.out.printf(
                    "rounds %d commits %d aborts %d checked %d wrong 0%n", rounds, commits, aborts, checked.get());
        }
        try (PersistentStore s = PersistentStore.open(db, ListNode.class);
                ObjectTransaction tx = s.begin()) {
            for (int t = 0; t < threads; t++) {
                int i = 0;
                for (ListNode n = tx.root("t" + t, ListNode.class); n != null; n = n.next(), i++) {
                    if (n.value() != model[t][i]) {
                        System.out.println("WRONG after reopening: thread " + t + " node " + i + ": read " + n.value()
                                + ", expected " + model[t][i]);
                        System.exit(1);
                    }
                }
            }
            System.out.println("reopened: every value as committed");
        }
    }
}
